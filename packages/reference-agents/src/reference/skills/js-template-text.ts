import type { JsNode } from './js-source.js';

/**
 * The text of a template literal, each `${…}` written as `part` renders it (its cooked text; an invalid
 * escape adds none), or null as soon as a part is null. For readers that fold or render templates their
 * own way (credential-sends.ts folds in a reading, js-commands.ts renders command words).
 */
export function templateText(node: JsNode, part: (expression: JsNode) => string): string;
export function templateText(node: JsNode, part: (expression: JsNode) => string | null): string | null;
export function templateText(node: JsNode, part: (expression: JsNode) => string | null): string | null {
  const quasis = node.quasis as JsNode[];
  const exprs = node.expressions as JsNode[];
  let out = '';
  for (let i = 0; i < quasis.length; i++) {
    out += String((quasis[i]!.value as { cooked?: string }).cooked ?? '');
    if (i >= exprs.length) continue;
    const text = part(exprs[i]!);
    if (text === null) return null;
    out += text;
  }
  return out;
}
