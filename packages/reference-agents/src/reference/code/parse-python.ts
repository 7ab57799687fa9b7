import type { SyntaxNode, Tree } from '@lezer/common';
import { parser } from '@lezer/python';

/** A concrete syntax tree of Python source (@lezer/python: pure JavaScript, error-tolerant, no WASM). */
export function parsePython(text: string): Tree {
  return parser.parse(text);
}

/** The named (non-punctuation) children of a node. */
export function namedChildren(n: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = n.firstChild; c !== null; c = c.nextSibling) if (/^[A-Z]/.test(c.name)) out.push(c);
  return out;
}

/** The value of a Python string literal (prefixes, quotes and common escapes handled); f-strings keep their braces. */
export function pythonStringValue(literal: string): string {
  const m = /^([rRbBuUfF]{0,2})('''|"""|'|")([\s\S]*)\2$/.exec(literal);
  if (m === null) return literal;
  const raw = (m[1] ?? '').toLowerCase().includes('r');
  const body = m[3] ?? '';
  if (raw) return body;
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (_all, esc: string) => {
    if (esc[0] === 'x' || esc[0] === 'u') return String.fromCharCode(parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
    return ({ n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' } as Record<string, string>)[esc] ?? `\\${esc}`;
  });
}
