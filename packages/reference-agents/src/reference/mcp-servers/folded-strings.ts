import { pythonSourceOf } from './python-source-cache.js';
import { parseJs, scopeOf, walkJs, type JsNode } from '../skills/js-source.js';
import { stringValue, type PythonSource, type SyntaxNode } from '../skills/python-source.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';

/** A string the code builds from several pieces, read as one text. */
export interface FoldedString {
  /** 1-based line of the expression's first character. */
  line: number;
  /** The joined text; a piece that is not constant reads `*`. */
  value: string;
}

const MAX_STRINGS = 2_000;

/**
 * Strings built from several pieces — `'a ' + 'b'`, a template with placeholders, Python's
 * implicit concatenation of adjacent literals, f-strings, `+` chains of constants — as the one
 * text the model is shown. Read piece by piece (codeStrings) an instruction that wraps across two
 * literals is cut in half; a tool result or a prompt is usually written that way.
 * Only expressions of at least two pieces are returned: single literals are read as they are.
 */
export function foldedStrings(text: string, language: ScriptLanguage): FoldedString[] {
  if (language === 'python') return pythonFolded(text);
  if (language === 'javascript' || language === 'typescript') return jsFolded(text, language === 'typescript');
  return [];
}

function jsFolded(text: string, typescript: boolean): FoldedString[] {
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  const lineAt = lineLocator(text);
  const out: FoldedString[] = [];
  const isStringy = (n: JsNode): boolean => (n.type === 'Literal' && typeof n.value === 'string') || n.type === 'TemplateLiteral' || (n.type === 'BinaryExpression' && n.operator === '+' && (isStringy(n.left as JsNode) || isStringy(n.right as JsNode)));
  walkJs(root, (node, parent) => {
    if (out.length >= MAX_STRINGS) return;
    // Only the outermost piece of a `+` chain.
    if (parent?.type === 'BinaryExpression' && parent.operator === '+') return;
    if (parent?.type === 'TemplateLiteral') return;
    // `['line one', 'line two'].join('\n')`: a text written as a list of lines.
    if (node.type === 'CallExpression' && (node.callee as JsNode).type === 'MemberExpression' && ((node.callee as JsNode).property as JsNode).name === 'join' && ((node.callee as JsNode).object as JsNode).type === 'ArrayExpression') {
      const items = (((node.callee as JsNode).object as JsNode).elements as Array<JsNode | null>).filter((e): e is JsNode => e !== null);
      const args = node.arguments as JsNode[];
      const sep = args.length > 0 ? scope.fold(args[0]) : ',';
      if (items.length >= 2 && sep !== null && items.every(isStringy)) {
        const value = items.map((e) => scope.foldLoose(e)).join(sep);
        if (/[A-Za-z]{3}/.test(value)) out.push({ line: lineAt(node.start), value });
      }
      return;
    }
    const chain = node.type === 'BinaryExpression' && node.operator === '+' && isStringy(node);
    const template = node.type === 'TemplateLiteral' && ((node.expressions as JsNode[]).length > 0 || (node.quasis as JsNode[]).some((q) => /\n/.test(String((q.value as { cooked?: string }).cooked ?? ''))));
    if (!chain && !template) return;
    const value = scope.foldLoose(node);
    if (/[A-Za-z]{3}/.test(value)) out.push({ line: lineAt(node.start), value });
  });
  return out;
}

function pythonLoose(src: PythonSource, node: SyntaxNode | null | undefined, depth = 0): string {
  if (!node || depth > 50) return '*';
  const exact = src.fold(node);
  if (exact !== null) return exact;
  switch (node.name) {
    case 'FormatString': {
      // f"{amount} {source} = …": the text between the replacement fields, each field `*`.
      const literal = src.slice(node);
      const body = stringValue(literal.replace(/^([rRbBuU]?)[fF]([rRbBuU]?)/, '$1$2'));
      return body === null ? '*' : body.replace(/\{[^{}]*\}/g, '*');
    }
    case 'ContinuedString': {
      let out = '';
      for (let c = node.firstChild; c; c = c.nextSibling) out += pythonLoose(src, c, depth + 1);
      return out;
    }
    case 'ParenthesizedExpression':
      return pythonLoose(src, node.firstChild?.nextSibling, depth + 1);
    case 'BinaryExpression': {
      const op = node.getChild('ArithOp');
      if (!op || src.slice(op) !== '+') return '*';
      return pythonLoose(src, node.firstChild, depth + 1) + pythonLoose(src, node.lastChild, depth + 1);
    }
    default:
      return '*';
  }
}

function pythonFolded(text: string): FoldedString[] {
  const src = pythonSourceOf(text);
  const lineAt = lineLocator(text);
  const out: FoldedString[] = [];
  const cursor = src.tree.cursor();
  do {
    if (out.length >= MAX_STRINGS) break;
    const node = cursor.node;
    if (node.name === 'CallExpression') {
      // "\n".join([...]): a text written as a list of lines.
      const callee = node.firstChild;
      const list = node.getChild('ArgList')?.firstChild?.nextSibling;
      if (callee?.name === 'MemberExpression' && callee.lastChild && src.slice(callee.lastChild) === 'join' && (list?.name === 'ArrayExpression' || list?.name === 'TupleExpression')) {
        const sep = src.fold(callee.firstChild);
        const parts: string[] = [];
        for (let c = list.firstChild; c; c = c.nextSibling) if (!['[', ']', '(', ')', ','].includes(c.name)) parts.push(pythonLoose(src, c));
        const value = sep === null ? '' : parts.join(sep);
        if (parts.length >= 2 && /[A-Za-z]{3}/.test(value)) out.push({ line: lineAt(node.from), value });
      }
      continue;
    }
    const plus = node.name === 'BinaryExpression' && src.slice(node.getChild('ArithOp') ?? node).trim() === '+';
    if (node.name !== 'ContinuedString' && node.name !== 'FormatString' && !plus) continue;
    const parent = node.parent;
    if (parent && (parent.name === 'ContinuedString' || (parent.name === 'BinaryExpression' && src.slice(parent.getChild('ArithOp') ?? parent).trim() === '+'))) continue;
    const value = pythonLoose(src, node);
    if (node.name === 'FormatString' && !/\n/.test(value)) continue;
    if (/[A-Za-z]{3}/.test(value) && value !== '*') out.push({ line: lineAt(node.from), value });
  } while (cursor.next());
  return out;
}
