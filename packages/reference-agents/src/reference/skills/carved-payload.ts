import { DATA_FILE } from './shell-facts.js';
import type { ScriptFact } from './script-fact.js';

const DATA_FILE_RE = new RegExp(DATA_FILE, 'i');
// A read of a whole file as bytes or text.
const READ = /\bopen\s*\(|\.read_bytes\s*\(|\.read_text\s*\(|\bread(?:FileSync|File)\s*\(/;
// Cutting by offset or marker: a slice, a split / partition on a marker, an index of a marker.
const CUT = /\[[^\]\n]*:[^\]\n]*\]|\.(?:split|rsplit|partition|rpartition)\s*\(|\.(?:index|find|rfind)\s*\(\s*b?['"]|\.(?:slice|subarray)\s*\(/;
// Where bytes become code or a process's input.
const SINK = /\b(?:exec|eval|compile)\s*\(|\bsubprocess\.(?:run|call|check_call|check_output|Popen)\s*\([^\n]*\b(?:input|stdin)\s*=|\.communicate\s*\(|\bos\.system\s*\(|\bmarshal\.loads\s*\(|\bpickle\.loads\s*\(/;

/**
 * Python: bytes cut out of a data file the script's artifact carries (`open('assets/logo.png',
 * 'rb').read()[n:]`, `data.split(b'IEND')[1]`) reaching `exec`/`eval`/`compile`, a process's input
 * or `marshal`/`pickle` loads, followed through assignments in the file (three rounds). The polyglot
 * of the packages track's image rule, in a skill's script or a server's code.
 */
export function pythonCarvedExec(text: string): ScriptFact | null {
  if (!DATA_FILE_RE.test(text) || !SINK.test(text) || !CUT.test(text)) return null;
  const lines = text.split('\n');
  // Names holding the data file's bytes (or a path naming it), and whether they were cut.
  const held = new Map<string, boolean>();
  const mentions = (expr: string) => [...held.keys()].filter((n) => new RegExp(`\\b${n}\\b`).test(expr));
  for (let round = 0; round < 3; round++) {
    let fn: string | null = null;
    for (const raw of lines) {
      const def = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(raw);
      if (def) fn = def[1] as string;
      // What a function returns is held by its name, so `a, b = load()` follows it.
      const ret = fn === null ? null : /^\s*return\s+(.+)$/.exec(raw);
      const m = ret ? ([raw, fn, ret[1]] as const) : /^\s*([A-Za-z_][\w\s,]*?)\s*(?::[^=]+)?=(?!=)\s*(.+)$/.exec(raw);
      if (!m) continue;
      const targets = (m[1] as string).split(',').map((t) => t.trim()).filter((t) => /^[A-Za-z_]\w*$/.test(t) && t !== '_');
      const expr = m[2] as string;
      const from = mentions(expr).filter((n) => !targets.includes(n));
      const source = DATA_FILE_RE.test(expr) || from.length > 0;
      if (!source) continue;
      const cut = CUT.test(expr) || from.some((n) => held.get(n) === true);
      for (const name of targets) if (held.get(name) !== true) held.set(name, cut);
    }
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trimStart().startsWith('#') || !SINK.test(line)) continue;
    const inline = DATA_FILE_RE.test(line) && READ.test(line) && CUT.test(line);
    if (inline || mentions(line.slice(line.search(SINK))).some((n) => held.get(n) === true)) return { kind: 'carved-exec', line: i + 1, evidence: line.trim().slice(0, 300) };
  }
  return null;
}
