import { pythonSourceOf } from './python-source-cache.js';
import { parseJs, walkJs } from '../skills/js-source.js';

import type { ScriptLanguage } from '../skills/script-fact.js';

/**
 * The file with everything but its string literals blanked (newlines kept, so offsets and lines
 * stay those of the file): what a model can be shown from the code — descriptions picked at run
 * time, prompt templates — without comments and identifiers that only people read.
 */
export function codeStrings(text: string, language: ScriptLanguage): string {
  const ranges: Array<[number, number]> = [];
  if (language === 'python') {
    const src = pythonSourceOf(text);
    const cursor = src.tree.cursor();
    do {
      if (cursor.name === 'String' || cursor.name === 'FormatString') ranges.push([cursor.from, cursor.to]);
    } while (cursor.next());
  } else if (language === 'javascript' || language === 'typescript') {
    walkJs(parseJs(text, language === 'typescript'), (node) => {
      if ((node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateElement') ranges.push([node.start, node.end]);
    });
  } else return text;
  ranges.sort((a, b) => a[0] - b[0]);
  const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\n]/g, ' ');
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of ranges) {
    if (from < at) continue;
    parts.push(blank(at, from), text.slice(from, to));
    at = to;
  }
  parts.push(blank(at, text.length));
  return parts.join('');
}
