import type { CodeFacts } from '../code-facts.js';
import { linksGeneration } from '../../common/linked-constants-store.js';
import { javascriptFacts } from './javascript-facts.js';

// The facts of the file last asked for. An MCP server's code file is read by several rules that
// each want its facts (a logic bomb, a patched library, a remote description, a socket shell); the
// facts depend only on the text, the language and the artifact's links, so they are made once.
let last: { text: string; typescript: boolean; generation: number; facts: CodeFacts } | null = null;

/**
 * `javascriptFacts(text, options)` for readers that only read the facts (never change them): the
 * same object is handed to each, as long as the text, the language and the links are the same.
 */
export function sharedJavascriptFacts(text: string, options: { typescript?: boolean } = {}): CodeFacts {
  const typescript = options.typescript === true;
  const generation = linksGeneration();
  if (last !== null && last.text === text && last.typescript === typescript && last.generation === generation) return last.facts;
  const facts = javascriptFacts(text, { typescript });
  last = { text, typescript, generation, facts };
  return facts;
}
