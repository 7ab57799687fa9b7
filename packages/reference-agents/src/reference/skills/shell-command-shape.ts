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
/** Conversions to a number: what they return cannot carry shell syntax. */
const PY_NUMBER = /^(?:int|float|len|round|abs)$/;
const JS_QUOTE = /^(?:JSON\.stringify|shellQuote\.quote|shell-quote\.quote|quote|shellEscape|escapeShellArg|shellescape)$|(?:^|\.)(?:quote|escape|escapeShellArg)$/;

/** The shape of a Python shell command (the first argument of os.system, subprocess.run(…, shell=True), …). */
export function pythonCommandShape(src: PythonSource, node: SyntaxNode): ShellCommandShape {
  let value: SyntaxNode | undefined = node;
  for (let i = 0; i < 3 && value?.name === 'VariableName'; i++) value = src.assignment(src.slice(value));
  if (!value) return 'passthrough';
  // A value is safe for the shell when it is a constant, quoted for the shell, a number, or made only
  // of such values: a name assigned one (`q = shlex.quote(p)` then `f"… {q}"`), a tuple of them, or
  // a join of quoted items (`" ".join(map(shlex.quote, xs))`, `" ".join(shlex.quote(a) for a in xs)`).
  const quoted = (part: SyntaxNode | null | undefined, depth = 0): boolean => {
    if (!part) return true;
    if (depth > 4) return false;
    if (src.fold(part) !== null) return true;
    if (part.name === 'VariableName') {
      const assigned = src.assignment(src.slice(part));
      if (assigned === undefined) return numericParameter(src, part);
      return assigned !== part && quoted(assigned, depth + 1);
    }
    if (part.name === 'ParenthesizedExpression' || part.name === 'TupleExpression') {
      const items: SyntaxNode[] = [];
      for (let c = part.firstChild; c; c = c.nextSibling) if (!['(', ')', ','].includes(c.name)) items.push(c);
      return items.length > 0 && items.every((item) => quoted(item, depth + 1));
    }
    if (part.name === 'CallExpression') {
      const callee = src.qualify(part.firstChild) ?? '';
      if (PY_QUOTE.test(callee) || PY_NUMBER.test(callee)) return true;
      if (callee === 'str') return src.args(part).every((a) => quoted(a.value, depth + 1));
      const member = part.firstChild;
      if (member?.name === 'MemberExpression' && src.slice(member.lastChild ?? member) === 'join' && src.fold(member.firstChild) !== null) {
        const argList = part.getChild('ArgList');
        const first = argList?.firstChild?.nextSibling;
        if (!first) return false;
        // A generator argument: its element expression is what each item is.
        if (first.nextSibling?.name === 'for') return quoted(first, depth + 1) || PY_QUOTE.test(src.qualify(first.firstChild) ?? '');
        if (first.name === 'CallExpression' && src.qualify(first.firstChild) === 'map') {
          const fn = first.getChild('ArgList')?.firstChild?.nextSibling;
          return PY_QUOTE.test(src.qualify(fn ?? null) ?? '');
        }
        if (first.name === 'ArrayComprehensionExpression') return PY_QUOTE.test(src.qualify(first.firstChild?.nextSibling?.firstChild ?? null) ?? '');
      }
    }
    return false;
  };
  if (value.name === 'FormatString') {
    const parts: SyntaxNode[] = [];
    for (let c = value.firstChild; c; c = c.nextSibling) if (c.name === 'FormatReplacement') parts.push(c);
    // `{start:.2f}`, `{n:d}`, `{w:05x}`: a numeric presentation type raises on anything but a number,
    // so what it prints cannot carry shell syntax (`!r`/`!s` conversions first make a string: not safe).
    const safe = (p: SyntaxNode) => numericSpec(src, p) || quoted(p.firstChild?.nextSibling);
    if (/^[rRbBuUfF]*(['"]{1,3})\s*\{/.test(src.slice(value))) return parts.length > 0 && parts.every(safe) ? 'quoted' : 'passthrough';
    return parts.every(safe) ? 'quoted' : 'template';
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
    if (op === '%') {
      if (head === null) return 'passthrough';
      // `"… %s … %d" % (path, width)`: values formatted as numbers cannot carry shell syntax.
      const conversions = [...head.replace(/%%/g, '').matchAll(/%[-#0 +]*\d*(?:\.\d+)?([a-zA-Z])/g)].map((m) => m[1]);
      const tuple = leaves[1]?.name === 'TupleExpression' ? leaves[1] : null;
      if (tuple) {
        const items: SyntaxNode[] = [];
        for (let c = tuple.firstChild; c; c = c.nextSibling) if (!['(', ')', ','].includes(c.name)) items.push(c);
        return items.every((item, i) => /^[difeEgGxXo]$/.test(conversions[i] ?? '') || quoted(item)) ? 'quoted' : 'template';
      }
      return quoted(leaves[1]) ? 'quoted' : 'template';
    }
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

/** An f-string replacement formatted with a numeric presentation type (`{x:.2f}`, `{n:d}`) and no conversion. */
function numericSpec(src: PythonSource, replacement: SyntaxNode): boolean {
  if (replacement.getChild('FormatConversion')) return false;
  const spec = replacement.getChild('FormatSpec');
  return spec !== null && /^:[^{}]*[bdoxXneEfFgG%]$/.test(src.slice(spec));
}

/**
 * A name that is a parameter of the enclosing function declared as a number (`start: float`,
 * `n: int`, `flag: bool`): the author's declared type, the `(or is an int)` of a quoted command.
 */
function numericParameter(src: PythonSource, name: SyntaxNode): boolean {
  const wanted = src.slice(name);
  for (let fn: SyntaxNode | null = name.parent; fn; fn = fn.parent) {
    if (fn.name !== 'FunctionDefinition' && fn.name !== 'LambdaExpression') continue;
    const params = fn.getChild('ParamList');
    for (let c = params?.firstChild ?? null; c; c = c.nextSibling) {
      if (c.name !== 'VariableName' || src.slice(c) !== wanted) continue;
      const type = c.nextSibling?.name === 'TypeDef' ? c.nextSibling.lastChild : null;
      return type !== null && /^(['"]?)(?:int|float|bool)\1$/.test(src.slice(type));
    }
    return false;
  }
  return false;
}

/** The shape of a JavaScript shell command (the first argument of exec, execSync, …). */
export function jsCommandShape(scope: JsScope, node: JsNode): ShellCommandShape {
  let value: JsNode | undefined = node;
  for (let i = 0; i < 3 && value?.type === 'Identifier'; i++) value = scope.constantInit(value.name as string);
  if (!value) return 'passthrough';
  // A name bound once to a quoted value (`const q = shellQuote.quote([p])`) is as safe as the value.
  const quoted = (part: JsNode, depth = 0): boolean => {
    if (scope.fold(part) !== null) return true;
    if (part.type === 'CallExpression') return JS_QUOTE.test(scope.qualify(part.callee as JsNode) ?? '') || /^(?:Number|parseInt|parseFloat|Math\.\w+)$/.test(scope.qualify(part.callee as JsNode) ?? '');
    if (part.type === 'Identifier' && depth < 4) {
      const init = scope.constantInit(part.name as string);
      return init !== undefined && init !== part && quoted(init, depth + 1);
    }
    return false;
  };
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
