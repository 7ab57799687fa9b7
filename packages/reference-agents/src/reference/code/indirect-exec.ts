import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';

/**
 * Python `exec`/`eval` reached by lookup instead of by name — `__builtins__["exec"]`,
 * `getattr(__builtins__, "exec")`, `builtins.__dict__["eval"]`, `vars(builtins)["exec"]`,
 * `getattr(__import__("builtins"), "ex" + "ec")` — and called on data the code decodes (base64,
 * zlib/lzma/bz2, marshal, hex). Nobody writes the lookup to run their own source: it exists so that
 * a reader (or a scanner) searching for `exec(` does not find the stage (delayed-activation MCP
 * backdoors and PyPI droppers, 2024-2025). A REPL or plugin loader that looks exec up and runs
 * source it was given, with nothing decoded, is not this.
 */
const HOLDER = String.raw`(?:__builtins__|builtins|__import__\(\s*['"]builtins['"]\s*\)|importlib\.import_module\(\s*['"]builtins['"]\s*\)|sys\.modules\[\s*['"]builtins['"]\s*\])`;
const LOOKUPS = [
  new RegExp(String.raw`\bgetattr\(\s*${HOLDER}\s*,\s*([^(),]{1,60})\)`, 'g'),
  new RegExp(String.raw`(?:${HOLDER}|${HOLDER}\.__dict__|vars\(\s*${HOLDER}\s*\))\s*\[\s*([^\]]{1,60})\]`, 'g'),
  new RegExp(String.raw`(?:${HOLDER}\.__dict__|vars\(\s*${HOLDER}\s*\))\.get\(\s*([^(),]{1,60})\)`, 'g'),
  new RegExp(String.raw`(?<![\w.])(?:builtins|__import__\(\s*['"]builtins['"]\s*\))\.(exec|eval)\b(?!\s*=)`, 'g'),
];
/** Data decoded in the call's argument or in the variable it passes. */
const DECODE = /\b(?:b64decode|b32decode|b85decode|a85decode|urlsafe_b64decode|decodebytes|decompress|marshal\.loads|fromhex|unhexlify)\s*\(|codecs\.decode\(/;

/** The name a lookup's key spells: `"exec"`, `'ex' + 'ec'`, `"cexe"[::-1]`. */
function spelled(key: string): string {
  const k = key.trim();
  const reversed = /^(['"])(\w+)\1\s*\[\s*::\s*-1\s*\]$/.exec(k);
  if (reversed) return [...reversed[2]!].reverse().join('');
  if (/^(?:exec|eval)$/.test(k)) return k;
  if (!/^(?:\s*(['"])\w*\1\s*\+?)+$/.test(k)) return '';
  return k.replace(/['"+\s]/g, '');
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Text from an opening parenthesis to its match (at most 600 characters). */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length && i < open + 600; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1, open + 600);
}

function decodedArgument(text: string, args: string): boolean {
  if (DECODE.test(args)) return true;
  const first = /^\s*([A-Za-z_]\w*)\s*(?:[,)]|$)/.exec(args);
  if (!first) return false;
  return new RegExp(String.raw`^[ \t]*${first[1]}\s*=(?!=)[^\n]*`, 'm').test(text) && [...text.matchAll(new RegExp(String.raw`^[ \t]*${first[1]}\s*=(?!=)([^\n]*)`, 'gm'))].some((m) => DECODE.test(m[1]!));
}

export function indirectExecFinding(file: string, text: string): AgentFinding | null {
  if (!/__builtins__|\bbuiltins\b/.test(text) || !DECODE.test(text)) return null;
  for (const re of LOOKUPS) {
    for (const m of text.matchAll(re)) {
      const name = spelled(m[1]!);
      if (name !== 'exec' && name !== 'eval') continue;
      const end = m.index + m[0].length;
      const calls: number[] = [];
      // Called in place (`getattr(__builtins__, "exec")(…)`, `builtins.exec(…)`) …
      const after = /^\s*\(/.exec(text.slice(end));
      if (after) calls.push(end + after[0].length - 1);
      // … or kept in a name first (`_r = __builtins__["exec"] if … else getattr(__builtins__, "exec")`).
      const start = text.lastIndexOf('\n', m.index) + 1;
      const assigned = /^[ \t]*([A-Za-z_]\w*)\s*=(?!=)/.exec(text.slice(start, m.index));
      if (assigned) for (const c of text.matchAll(new RegExp(String.raw`(?<![\w.])${assigned[1]}\s*\(`, 'g'))) calls.push(c.index + c[0].length - 1);
      for (const open of calls) {
        if (!decodedArgument(text, argumentsAt(text, open))) continue;
        return referenceFinding({ category: 'malware', severity: 'CRIT', title: `Runs decoded data through ${name} looked up indirectly (not written as ${name}(…))`, file, line: lineAt(text, m.index), evidence: text.slice(m.index, m.index + 100).split('\n')[0]! });
      }
    }
  }
  return null;
}
