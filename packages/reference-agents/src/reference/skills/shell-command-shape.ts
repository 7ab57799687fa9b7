import type { JsNode, JsScope } from './js-source.js';
import type { PythonSource, SyntaxNode } from './python-source.js';

/**
 * How a shell command that is not a constant was built:
 * - 'template': constant command text with values filled in (`f"convert {name} out.png"`,
 *   `` `npm view ${name}` ``): whatever the values hold is parsed by the shell, the injection shape;
 * - 'quoted': a template whose every value is quoted for the shell first (`shlex.quote`, `JSON.stringify`);
 * - 'passthrough': the command is handed over whole (`server['cmd']`, `process.env.OPEN_CMD + ' ' + url`),
 *   the shape of a helper whose job is to run the command its caller gives it.
 */
export type ShellCommandShape = 'template' | 'quoted' | 'passthrough';

const PY_QUOTE = /^(?:shlex\.quote|pipes\.quote|quote|shlex\.join|mslex\.quote)$/;
const JS_QUOTE = /^(?:JSON\.stringify|shellQuote\.quote|shell-quote\.quote|quote|shellEscape|escapeShellArg|shellescape)$|(?:^|\.)(?:quote|escape|escapeShellArg)$/;

/** The shape of a Python shell command (the first argument of os.system, subprocess.run(…, shell=True), …). */
export function pythonCommandShape(src: PythonSource, node: SyntaxNode): ShellCommandShape {
  let value: SyntaxNode | undefined = node;
  for (let i = 0; i < 3 && value?.name === 'VariableName'; i++) value = src.assignment(src.slice(value));
  if (!value) return 'passthrough';
  const quoted = (part: SyntaxNode | null | undefined): boolean => {
    if (!part) return true;
    if (src.fold(part) !== null) return true;
    if (part.name === 'CallExpression') return PY_QUOTE.test(src.qualify(part.firstChild) ?? '');
    return false;
  };
  if (value.name === 'FormatString') {
    const parts: SyntaxNode[] = [];
    for (let c = value.firstChild; c; c = c.nextSibling) if (c.name === 'FormatReplacement') parts.push(c);
    if (/^[rRbBuUfF]*(['"]{1,3})\s*\{/.test(src.slice(value))) return parts.length > 0 && parts.every((p) => quoted(p.firstChild?.nextSibling)) ? 'quoted' : 'passthrough';
    return parts.every((p) => quoted(p.firstChild?.nextSibling)) ? 'quoted' : 'template';
  }
  if (value.name === 'BinaryExpression') {
    const op = src.slice(value.firstChild?.nextSibling ?? value).trim();
    const leaves: SyntaxNode[] = [];
    const collect = (n: SyntaxNode | null) => {
      if (n?.name === 'BinaryExpression' && src.slice(n.firstChild?.nextSibling ?? n).trim() === op) {
        collect(n.firstChild);
        collect(n.lastChild);
      } else if (n) leaves.push(n);
    };
    collect(value);
    const head = src.fold(leaves[0]);
    if (op === '%') return head === null ? 'passthrough' : quoted(leaves[1]) ? 'quoted' : 'template';
    if (op !== '+' || head === null || head.trim() === '') return 'passthrough';
    return leaves.every(quoted) ? 'quoted' : 'template';
  }
  if (value.name === 'CallExpression') {
    const callee = value.firstChild;
    const prop = callee?.name === 'MemberExpression' ? callee.lastChild : null;
    if (prop && src.slice(prop) === 'format' && src.fold(callee?.firstChild) !== null) {
      return src.args(value).every((a) => quoted(a.value)) ? 'quoted' : 'template';
    }
  }
  return 'passthrough';
}

/** The shape of a JavaScript shell command (the first argument of exec, execSync, …). */
export function jsCommandShape(scope: JsScope, node: JsNode): ShellCommandShape {
  let value: JsNode | undefined = node;
  for (let i = 0; i < 3 && value?.type === 'Identifier'; i++) value = scope.constantInit(value.name as string);
  if (!value) return 'passthrough';
  const quoted = (part: JsNode): boolean => scope.fold(part) !== null || (part.type === 'CallExpression' && JS_QUOTE.test(scope.qualify(part.callee as JsNode) ?? ''));
  if (value.type === 'TemplateLiteral') {
    const head = String((((value.quasis as JsNode[])[0] as JsNode).value as { cooked?: string }).cooked ?? '');
    const exprs = value.expressions as JsNode[];
    if (exprs.every(quoted)) return 'quoted';
    return head.trim() === '' ? 'passthrough' : 'template';
  }
  if (value.type === 'BinaryExpression' && value.operator === '+') {
    const leaves: JsNode[] = [];
    const collect = (n: JsNode) => {
      if (n.type === 'BinaryExpression' && n.operator === '+') {
        collect(n.left as JsNode);
        collect(n.right as JsNode);
      } else leaves.push(n);
    };
    collect(value);
    const head = scope.fold(leaves[0]);
    if (head === null || head.trim() === '') return leaves.every(quoted) ? 'quoted' : 'passthrough';
    return leaves.every(quoted) ? 'quoted' : 'template';
  }
  return 'passthrough';
}
