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
// (round s31) Also the module namespace's entry for them: `globals()['__builtins__']`, `globals().get('__builtins__')`
// (`locals()`, `vars()` alike).
const HOLDER_BASE = String.raw`__builtins__|builtins|__import__\(\s*['"]builtins['"]\s*\)|importlib\.import_module\(\s*['"]builtins['"]\s*\)|sys\.modules\[\s*['"]builtins['"]\s*\]|(?:globals|locals|vars)\(\s*\)\s*(?:\[\s*['"]__builtins__['"]\s*\]|\.get\(\s*['"]__builtins__['"]\s*\))`;
/** (round s31) Names bound to a holder on a line of their own (`b = globals()['__builtins__']`), at most this many. */
const MAX_HOLDER_NAMES = 8;
const HOLDER_BINDING = new RegExp(String.raw`^[ \t]*([A-Za-z_]\w{0,40})[ \t]*=[ \t]*(?:${HOLDER_BASE})[ \t]*(?:#[^\n]*)?$`, 'gm');

/** The lookups of one text: its holders are the fixed ones and the names it binds to one. */
function lookupsOf(text: string): RegExp[] {
  const names = [...new Set([...text.matchAll(HOLDER_BINDING)].map((m) => m[1]!))].filter((n) => n !== 'builtins' && n !== '__builtins__').slice(0, MAX_HOLDER_NAMES);
  const HOLDER = `(?:${HOLDER_BASE}${names.map((n) => `|(?<![\\w.])${n}(?!\\w)`).join('')})`;
  return [
    new RegExp(String.raw`\bgetattr\(\s*${HOLDER}\s*,\s*([^(),]{1,60})\)`, 'g'),
    new RegExp(String.raw`(?:${HOLDER}|${HOLDER}\.__dict__|vars\(\s*${HOLDER}\s*\))\s*\[\s*([^\]]{1,60})\]`, 'g'),
    new RegExp(String.raw`(?:${HOLDER}\.__dict__|vars\(\s*${HOLDER}\s*\))\.get\(\s*([^(),]{1,60})\)`, 'g'),
    new RegExp(String.raw`(?<![\w.])(?:builtins|__import__\(\s*['"]builtins['"]\s*\)${names.map((n) => `|${n}`).join('')})\.(exec|eval)\b(?!\s*=)`, 'g'),
  ];
}
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

const DEF = /^([ \t]*)def[ \t]+([A-Za-z_]\w*)[ \t]*\(/gm;
const LAMBDA = /^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*lambda\b([^\n]{0,400})/gm;

/**
 * (round s31) The helpers of the file that decode, found in one pass over it: `def NAME(…):` whose body (up to the
 * next line at the def's indentation or less, 800 characters at most) calls a decoder, or `NAME = lambda …:
 * <decoder>(…)` (the first def and the first lambda of a name are read).
 */
function decodingHelpers(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  const ends = new Map<string, RegExp>();
  for (const m of text.matchAll(DEF)) {
    const name = m[2]!;
    if (seen.has(name)) continue;
    seen.add(name);
    const body = text.slice(m.index + m[0].length, m.index + m[0].length + 800);
    let end = ends.get(m[1]!);
    if (end === undefined) ends.set(m[1]!, (end = new RegExp(String.raw`\n(?!${m[1]!}[ \t]|[ \t]*\n)`)));
    const e = end.exec(body);
    if (DECODE.test(e === null ? body : body.slice(0, e.index))) out.add(name);
  }
  const lambdas = new Set<string>();
  for (const m of text.matchAll(LAMBDA)) {
    if (lambdas.has(m[1]!)) continue;
    lambdas.add(m[1]!);
    if (DECODE.test(m[2]!)) out.add(m[1]!);
  }
  return out;
}

function decodedArgument(text: string, args: string, helpers: () => Set<string>): boolean {
  if (DECODE.test(args)) return true;
  for (const m of args.matchAll(/(?<![\w.])([A-Za-z_]\w{0,60})\s*\(/g)) if (helpers().has(m[1]!)) return true;
  const first = /^\s*([A-Za-z_]\w*)\s*(?:[,)]|$)/.exec(args);
  if (!first) return false;
  return new RegExp(String.raw`^[ \t]*${first[1]}\s*=(?!=)[^\n]*`, 'm').test(text) && [...text.matchAll(new RegExp(String.raw`^[ \t]*${first[1]}\s*=(?!=)([^\n]*)`, 'gm'))].some((m) => DECODE.test(m[1]!));
}

/** A call of `exec`/`eval` reached by lookup: the lookup's offset and the offset of the call's `(`. */
export interface IndirectExecCall {
  name: 'exec' | 'eval';
  at: number;
  open: number;
}

/** At most this many calls are listed. */
const MAX_CALLS = 40;

/**
 * (round s31) Every call of `exec`/`eval` the text reaches by lookup (the lookups above), called in place or
 * through the name the lookup is bound to, whatever it is given: the call sites the readers of decoded
 * stages read as they read `exec(…)` (repositories/decoded-stage.ts).
 */
export function indirectExecCalls(text: string): IndirectExecCall[] {
  if (!/__builtins__|\bbuiltins\b/.test(text)) return [];
  const out: IndirectExecCall[] = [];
  for (const re of lookupsOf(text)) {
    for (const m of text.matchAll(re)) {
      const name = spelled(m[1]!);
      if (name !== 'exec' && name !== 'eval') continue;
      const end = m.index + m[0].length;
      // Called in place (`getattr(__builtins__, "exec")(…)`, `builtins.exec(…)`) …
      const after = /^\s*\(/.exec(text.slice(end, end + 200));
      if (after) out.push({ name, at: m.index, open: end + after[0].length - 1 });
      // … or kept in a name first (`_r = __builtins__["exec"] if … else getattr(__builtins__, "exec")`).
      const start = text.lastIndexOf('\n', m.index) + 1;
      const assigned = /^[ \t]*([A-Za-z_]\w*)\s*=(?!=)/.exec(text.slice(start, m.index));
      if (assigned) for (const c of text.matchAll(new RegExp(String.raw`(?<![\w.])${assigned[1]}\s*\(`, 'g'))) out.push({ name, at: m.index, open: c.index + c[0].length - 1 });
      if (out.length >= MAX_CALLS) return out;
    }
  }
  return out;
}

export function indirectExecFinding(file: string, text: string): AgentFinding | null {
  if (!/__builtins__|\bbuiltins\b/.test(text) || !DECODE.test(text)) return null;
  let known: Set<string> | undefined;
  const helpers = () => (known ??= decodingHelpers(text));
  for (const { name, at, open } of indirectExecCalls(text)) {
    if (!decodedArgument(text, argumentsAt(text, open), helpers)) continue;
    return referenceFinding({ category: 'malware', severity: 'CRIT', title: `Runs decoded data through ${name} looked up indirectly (not written as ${name}(…))`, file, line: lineAt(text, at), evidence: text.slice(at, at + 100).split('\n')[0]! });
  }
  return null;
}
