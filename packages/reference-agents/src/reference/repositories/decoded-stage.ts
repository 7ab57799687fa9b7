/**
 * A stage a file decodes and runs, decoded here (round s30; in-sample: held-out set 31's fake CVE
 * proof of concept): `exec(bytes.fromhex("".join(_T)).decode())` with `_T` written as adjacent
 * literals, `eval(Buffer.from(PARTS.join(''), 'hex').toString())`, `exec(base64.b64decode(A + B))`,
 * `new Function(String.fromCharCode(...CODES))()`. The data is taken from the call's own literals and
 * from the constants it names (followed through assignments, a few levels), joined in source order
 * (implicit concatenation, `+`, a list joined with ''), and decoded when the encoding is plain hex,
 * base64 or character codes. What the decoded program does is read from its text: the network, a
 * command or a secret read makes the stage a payload; decoding and running anything else is left to
 * the other rules.
 * (round s30 review) Only a call that runs in this process counts: a call written inside a string literal or a
 * comment (a proof of concept's payload sent to its target, `r.sendline(b"exec(…)")`) is text, not a call. A
 * zlib or gzip layer over the encoded data is inflated. MAX_CALLS counts only calls whose argument is not a
 * constant expression (`eval("1+1")` written many times does not use the budget up).
 * (round s31) The same stage is read when the encoded text is reversed first (`D[::-1]`, `''.join(reversed(D))`,
 * `s.split('').reverse().join('')`: the data is tried reversed when the expression or a name it uses reverses),
 * when the decoding is done in a helper of the file (`def _d(x): return base64.b64decode(x)`, `function d(x) {
 * return atob(x) }`, then `exec(_d(P))`: the helper's body says how it decodes, the call's arguments are the
 * data), when `exec`/`eval` is reached by lookup (`getattr(builtins, 'ex' + 'ec')(…)`, `globals()['__builtins__']`,
 * a name bound to such a lookup: code/indirect-exec.ts; JavaScript `globalThis['ev' + 'al'](…)`), and when the
 * text is compiled first (`exec(compile(src, '<x>', 'exec'))`: the file name and the mode are arguments, not data).
 */
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { indirectExecCalls } from '../code/indirect-exec.js';

export type CodeKind = 'python' | 'javascript';

export interface DecodedStage {
  /** 1-based line of the call that runs the stage. */
  line: number;
  encoding: 'hex' | 'base64' | 'char codes';
  decoded: string;
  /** What the decoded program does: `reaches the network`, `runs commands`, `reads secrets`. */
  does: string[];
}

const RUNS: Record<CodeKind, RegExp> = {
  python: /\b(?:exec|eval)\s*\(/g,
  javascript: /\beval\s*\(|\bnew\s+Function\s*\(|(?<![\w.$])Function\s*\(|\bvm\.runIn\w+\s*\(|\bnew\s+vm\.Script\s*\(/g,
};
const HEX = /\bfromhex\s*\(|\bunhexlify\s*\(|\bcodecs\.decode\s*\([^)]{0,200}['"]hex['"]|\bBuffer\.from\s*\([^;]{0,400}?['"]hex['"]/;
const BASE64 = /\b(?:b64decode|decodebytes|standard_b64decode|urlsafe_b64decode)\s*\(|\bBuffer\.from\s*\([^;]{0,400}?['"]base64(?:url)?['"]|\batob\s*\(/;
const CHAR_CODES = /\bchr\s*[,)]|\bchr\s*\(|\bfromCharCode\b/;

const NETWORK = /\brequire\(\s*['"](?:node:)?(?:https?|net|tls|dgram|axios|node-fetch)['"]\s*\)|\bimport\s+(?:requests|socket|urllib|httpx|http\.client)\b|\burlopen\b|\burllib\.request\b|\brequests\.(?:get|post|put|request|Session)\b|\bhttp\.client\b|\bsocket\.(?:socket|create_connection)\b|\bfetch\s*\(|\bhttps?\.(?:get|request)\s*\(|\bXMLHttpRequest\b|\baxios\b|\bWebSocket\b|\bhttpx\.\w+|['"`]https?:\/\/[\w.-]+/;
const COMMANDS = /\bsubprocess\b|\bos\.(?:system|popen|exec\w*|spawn\w*)\s*\(|\bpty\.spawn\b|\bchild_process\b|\bexecSync\b|\bspawnSync\b|\bexec\s*\(|\beval\s*\(/;
const SECRETS = /\bos\.environ\b|\bprocess\.env\b|\bgetenv\s*\(|\.ssh[\\/]|\.aws[\\/]|\bid_(?:rsa|ed25519)\b|\.npmrc\b|\.git-credentials\b|\bLogin Data\b|\bkeychain\b|\bwallet\b|\.env['"]/i;

/** The end of the expression starting at `from`: the first newline, `;` or end outside brackets and quotes (bounded). */
function expressionEnd(text: string, from: number, max = 200_000): number {
  let depth = 0;
  let quote: string | null = null;
  const end = Math.min(text.length, from + max);
  for (let i = from; i < end; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      else if (c === '\n' && quote !== '`') quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return i;
      depth--;
    } else if ((c === '\n' || c === ';') && depth === 0) return i;
  }
  return end;
}

// Calls that run code read per file, at most.
const MAX_CALLS = 20;
// Call sites looked at, at most, constant or not.
const MAX_MATCHES = 2000;
const ARGUMENT_WORD = /^(?:hex|base64|base64url|utf-?8|ascii|latin-?1|binary|utf-?16(?:le|be)?|ignore|replace|strict|exec|eval|single|<[^<>\n]{0,60}>)$/i;
// (round s31) An expression that reverses text: the data is tried reversed too.
const REVERSES = /\[\s*:\s*:\s*-1\s*\]|\breversed\s*\(|\.reverse\s*\(\s*\)/;
// (round s31) `globalThis['ev' + 'al'](…)`: JavaScript's eval or Function looked up on the global object.
const JS_GLOBAL_LOOKUP = /\b(?:globalThis|window|global|self)\s*\[([^\]\n]{1,80})\]\s*\(/g;
/** A key written as quoted pieces joined with `+` (`'ev' + 'al'`, `"eval"`), read as the name it spells; else ''. */
function spelledKey(key: string): string {
  const pieces = key.split('+').map((p) => p.trim());
  if (pieces.some((p) => !/^(['"`])[\w$]{0,20}\1$/.test(p))) return '';
  return pieces.map((p) => p.slice(1, -1)).join('');
}
const LITERAL = /[rbuRBU]{0,2}(?:"""([\s\S]*?)"""|'''([\s\S]*?)'''|"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.)*)`)/g;

/** The right-hand side of the first top-level assignment of `name` (`NAME = …`, `const NAME = …`), or null. */
function assigned(text: string, name: string): string | null {
  const m = new RegExp(String.raw`^[ \t]*(?:(?:const|let|var)\s+)?${name.replace(/\$/g, '\\$')}\s*(?::\s*[\w\[\], ]+)?=(?!=)\s*`, 'm').exec(text);
  if (m === null) return null;
  const from = m.index + m[0].length;
  return text.slice(from, expressionEnd(text, from));
}

interface Resolved {
  encoding: DecodedStage['encoding'] | null;
  data: string;
  codes: number[];
  /** A zlib, raw-deflate or gzip layer over the decoded bytes (`zlib.decompress(b64decode(…))`). */
  compressed?: boolean;
  /** (round s31) The expression, or one it names, reverses text (`D[::-1]`, `.reverse()`). */
  reversed?: boolean;
}

/**
 * (round s31) The body of a helper of the file named `name`: `def name(…):` up to the next line at its
 * indentation or less, or `function name(…) {…}` from its parameters up to its closing brace (bounded), or null.
 */
function helperBody(text: string, name: string): string | null {
  const escaped = name.replace(/\$/g, '\\$');
  const def = new RegExp(String.raw`^([ \t]*)def[ \t]+${escaped}[ \t]*\(`, 'm').exec(text);
  if (def !== null) {
    const from = def.index + def[0].length;
    const body = text.slice(from, from + 2000);
    const end = new RegExp(String.raw`\n(?!${def[1]}[ \t]|[ \t]*\n)`).exec(body);
    return end === null ? body : body.slice(0, end.index);
  }
  const fn = new RegExp(String.raw`\bfunction\s*${escaped}\s*\(`).exec(text);
  if (fn === null) return null;
  const open = text.indexOf('{', fn.index + fn[0].length);
  if (open < 0 || open - fn.index > 400) return null;
  const close = expressionEnd(text, open + 1, 4000);
  // The parameters too: a default says how it decodes (`function d(x, e = 'base64')`).
  return text.slice(fn.index + fn[0].length, close);
}

const COMPRESSED = /\b(?:zlib|gzip)\.decompress\s*\(|\b(?:inflate|inflateRaw|gunzip|unzip)Sync\s*\(/;

/**
 * Spans of string literals and comments in a Python or JavaScript text ([start, end) pairs, in order), read in
 * one pass (a template literal is taken whole; a regular expression literal is not told from a division).
 */
export function literalSpans(text: string, kind: CodeKind): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (kind === 'python' && c === '#') {
      const end = text.indexOf('\n', i);
      out.push([i, end === -1 ? n : end]);
      i = end === -1 ? n : end;
      continue;
    }
    if (kind === 'javascript' && c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : text[i + 1] === '*' ? end + 2 : end;
      out.push([i, stop]);
      i = stop;
      continue;
    }
    if (c === '"' || c === "'" || (kind === 'javascript' && c === '`')) {
      const triple = kind === 'python' && text.startsWith(c.repeat(3), i);
      let j = i + (triple ? 3 : 1);
      while (j < n) {
        const d = text[j]!;
        if (d === '\\') j += 2;
        else if (triple ? text.startsWith(c.repeat(3), j) : d === c) break;
        else if (d === '\n' && !triple && c !== '`') break;
        else j++;
      }
      const stop = Math.min(n, j + (triple ? 3 : 1));
      out.push([i, stop]);
      i = stop;
      continue;
    }
    i++;
  }
  return out;
}

/** Whether `index` lies inside one of the ordered spans (binary search). */
function inside(spans: ReadonlyArray<[number, number]>, index: number): boolean {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = spans[mid]!;
    if (index < a) hi = mid - 1;
    else if (index >= b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The encoding an expression decodes with and its data, through the names it uses (depth-bounded). */
function resolve(text: string, expression: string, depth: number, seen: Set<string>): Resolved {
  const own: Resolved = { encoding: HEX.test(expression) ? 'hex' : BASE64.test(expression) ? 'base64' : CHAR_CODES.test(expression) ? 'char codes' : null, data: '', codes: [], compressed: COMPRESSED.test(expression), reversed: REVERSES.test(expression.replace(LITERAL, '""')) };
  const withoutStrings = expression.replace(LITERAL, '""');
  // Numbers written in the expression itself (`bytes([104, 116, …])`, `fromCharCode(104, 116, …)`).
  const numbers = /\[\s*\d{1,3}(?:\s*,\s*\d{1,3}){7,}\s*,?\s*\]|\(\s*\d{1,3}(?:\s*,\s*\d{1,3}){7,}\s*\)/.exec(withoutStrings);
  if (numbers !== null) own.codes.push(...(numbers[0].match(/\d+/g) ?? []).map(Number));
  // Literals and names in source order.
  const parts = expression.matchAll(new RegExp(`${LITERAL.source}|\\b([A-Za-z_$][\\w$]*)\\b`, 'g'));
  for (const m of parts) {
    const name = m[6];
    if (name === undefined) {
      const value = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '';
      // An encoding's or an error mode's name (`'hex'`, `.decode('utf-8')`) is an argument, not data.
      if (!ARGUMENT_WORD.test(value)) own.data += value;
      continue;
    }
    if (depth >= 4 || seen.has(name) || seen.size > 12) continue;
    seen.add(name);
    const rhs = assigned(text, name);
    if (rhs === null) {
      // (round s31) A helper called here (`_d(P)`): how its body decodes; the data is what the call passes it.
      const body = /^\s*\(/.test(expression.slice((m.index ?? 0) + name.length)) ? helperBody(text, name) : null;
      if (body === null) continue;
      const without = body.replace(LITERAL, '""');
      // A parameter whose default is the encoding `Buffer.from` is given (`function d(x, e = 'base64')`).
      const byDefault = /\bBuffer\.from\s*\(/.test(body) ? /^[^)]{0,300}?=\s*['"](hex|base64(?:url)?)['"]/.exec(body)?.[1] : undefined;
      own.encoding ??= HEX.test(body) || byDefault === 'hex' ? 'hex' : BASE64.test(body) || byDefault !== undefined ? 'base64' : CHAR_CODES.test(without) ? 'char codes' : null;
      own.compressed ||= COMPRESSED.test(body);
      own.reversed ||= REVERSES.test(without);
      continue;
    }
    const inner = resolve(text, rhs, depth + 1, seen);
    own.encoding ??= inner.encoding;
    own.compressed ||= inner.compressed;
    own.reversed ||= inner.reversed;
    own.data += inner.data;
    own.codes.push(...inner.codes);
  }
  return own;
}

/** The bytes inflated from zlib, gzip or raw deflate (output bounded), or null. */
function inflated(bytes: Buffer): Buffer | null {
  for (const inflate of [inflateSync, gunzipSync, inflateRawSync]) {
    try {
      return inflate(bytes, { maxOutputLength: 1024 * 1024 });
    } catch {
      // not this format (or larger than the bound)
    }
  }
  return null;
}

/** The texts the data decodes to: as written and, (round s31) when the expression reverses, reversed before decoding (`b64decode(D[::-1])`) or after (`b64decode(D)[::-1]`). */
function decodings(r: Resolved): string[] {
  const out = [decodeOnce(r, r.data)];
  if (r.reversed === true) out.push(decodeOnce(r, [...r.data].reverse().join('')), decodeOnce(r, r.data, true));
  return out.filter((d): d is string => d !== null);
}

function decodeOnce(r: Resolved, raw: string, reverseAfter = false): string | null {
  let bytes: Buffer | null = null;
  const data = raw.replace(/\\n|\s+/g, '');
  if (r.encoding === 'hex' && /^(?:[0-9a-f]{2}){16,}$/i.test(data)) bytes = Buffer.from(data, 'hex');
  else if (r.encoding === 'base64' && data.length >= 24 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(data)) bytes = Buffer.from(data.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  else if (r.encoding === 'char codes' && r.codes.length >= 16) bytes = Buffer.from(String.fromCharCode(...r.codes.filter((c) => c > 0 && c < 256)), 'latin1');
  if (bytes !== null && r.compressed === true) bytes = inflated(bytes);
  if (bytes === null || bytes.length < 16) return null;
  const decoded = reverseAfter ? [...bytes.toString('utf8')].reverse().join('') : bytes.toString('utf8');
  // A program is text: a blob that decodes to binary (a zip, an image, a packet) is data.
  const printable = decoded.replace(/[^\x20-\x7e\t\r\n]/g, '').length;
  return printable / decoded.length >= 0.95 ? decoded : null;
}

/**
 * The calls that run code, in source order: `exec(`/`eval(` (JavaScript's `Function`, `vm`) written out, and
 * (round s31) the same reached by lookup, each with the offset after its opening parenthesis.
 */
function callSites(text: string, kind: CodeKind): { index: number; open: number }[] {
  const out: { index: number; open: number }[] = [];
  for (const m of text.matchAll(RUNS[kind])) {
    out.push({ index: m.index, open: m.index + m[0].length });
    if (out.length > MAX_MATCHES) break;
  }
  if (kind === 'python') for (const c of indirectExecCalls(text)) out.push({ index: c.open, open: c.open + 1 });
  else if (/\b(?:globalThis|window|global|self)\s*\[/.test(text)) {
    for (const m of text.matchAll(JS_GLOBAL_LOOKUP)) {
      const key = spelledKey(m[1]!);
      if (key === 'eval' || key === 'Function') out.push({ index: m.index, open: m.index + m[0].length });
      if (out.length > MAX_MATCHES) break;
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Stages a file decodes and runs whose decoded text reaches the network, runs commands or reads secrets. */
export function decodedStages(text: string, kind: CodeKind): DecodedStage[] {
  // Nothing to decode without a decoder in the file; a file evaluating in many places (a bundle) is read at its first calls.
  // (round s31) The encoding may be a helper's default only (`function d(x, e = 'base64') { return Buffer.from(x, e) … }`).
  if (text.length > 1_000_000 || !(HEX.test(text) || BASE64.test(text) || CHAR_CODES.test(text) || (/\bBuffer\.from\s*\(/.test(text) && /=\s*['"](?:hex|base64(?:url)?)['"]/.test(text)))) return [];
  const out: DecodedStage[] = [];
  const spans = literalSpans(text, kind);
  let calls = 0;
  let matches = 0;
  for (const m of callSites(text, kind)) {
    if (out.length >= 3 || calls >= MAX_CALLS || ++matches > MAX_MATCHES) break;
    // A call written inside a string or a comment is text (a payload sent elsewhere), not a call run here.
    if (inside(spans, m.index)) continue;
    const open = m.open;
    const argument = text.slice(open, expressionEnd(text, open, 20_000));
    // A constant argument (`eval("1+1")`, `eval(42)`) does not use the budget of calls read.
    if (/[A-Za-z_$]/.test(argument.replace(LITERAL, '""').replace(/\b\d[\w.]*/g, ''))) calls++;
    const resolved = resolve(text, argument, 0, new Set());
    if (resolved.encoding === null) continue;
    for (const decoded of decodings(resolved)) {
      const does = [NETWORK.test(decoded) ? 'reaches the network' : '', COMMANDS.test(decoded) ? 'runs commands' : '', SECRETS.test(decoded) ? 'reads secrets' : ''].filter((d) => d !== '');
      if (does.length === 0) continue;
      out.push({ line: text.slice(0, m.index).split('\n').length, encoding: resolved.encoding, decoded, does });
      break;
    }
  }
  return out;
}
