import { parseJs, walkJs } from '../skills/js-source.js';
import { PythonSource } from '../skills/python-source.js';
import type { ScriptLanguage } from '../skills/script-fact.js';

/**
 * The file with everything but its string literals blanked (newlines kept, so offsets and lines
 * stay those of the file): what a model can be shown from the code — descriptions picked at run
 * time, prompt templates — without comments and identifiers that only people read.
 */
export function codeStrings(text: string, language: ScriptLanguage): string {
  const ranges: Array<[number, number]> = [];
  if (language === 'python') {
    const src = new PythonSource(text);
    const cursor = src.tree.cursor();
    do {
      if (cursor.name === 'String' || cursor.name === 'FormatString') ranges.push([cursor.from, cursor.to]);
    } while (cursor.next());
  } else if (language === 'javascript' || language === 'typescript') {
    walkJs(parseJs(text, language === 'typescript'), (node) => {
      if ((node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateElement') ranges.push([node.start, node.end]);
    });
  } else return text;
  const out = text.replace(/[^\n]/g, ' ').split('');
  for (const [from, to] of ranges) for (let i = from; i < to; i++) out[i] = text[i] as string;
  return out.join('');
}
