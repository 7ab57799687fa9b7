import { PythonSource } from '../skills/python-source.js';

let last: PythonSource | null = null;

/** The PythonSource of a text, parsed once while the agent reads that file (tools, strings, handlers, recipients). */
export function pythonSourceOf(text: string): PythonSource {
  if (last === null || last.text !== text) last = new PythonSource(text);
  return last;
}
