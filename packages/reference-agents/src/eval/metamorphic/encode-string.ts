import type { Rng } from './rng.js';

/** The string re-encodings of transformation (a); each rebuilds the same value at run time. */
export const STRING_ENCODINGS = ['escape', 'charcodes', 'base64', 'reverse', 'split', 'join', 'hex'] as const;
export type StringEncoding = (typeof STRING_ENCODINGS)[number];

/** A JavaScript string literal of a value (JSON is valid JavaScript). */
export function jsLiteral(value: string): string {
  return JSON.stringify(value);
}

/** A Python string literal of a value (single-quoted, escapes for what is not printable ASCII). */
export function pyLiteral(value: string): string {
  let out = "'";
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c < 0x100) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += `\\U${c.toString(16).padStart(8, '0')}`;
  }
  return `${out}'`;
}

/** Pieces of a value cut at random points (at least two when the value has two characters). */
function pieces(value: string, rng: Rng, max = 4): string[] {
  const chars = [...value];
  if (chars.length < 2) return [value];
  const n = Math.min(chars.length, 2 + rng.int(max - 1));
  const cuts = new Set<number>();
  while (cuts.size < n - 1) cuts.add(1 + rng.int(chars.length - 1));
  const sorted = [...cuts].sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const c of [...sorted, chars.length]) {
    out.push(chars.slice(at, c).join(''));
    at = c;
  }
  return out;
}

const isAscii = (v: string): boolean => [...v].every((ch) => ch.codePointAt(0)! < 0x80);

/**
 * A JavaScript expression that evaluates to `value`, in the given encoding, safe as an operand
 * (wrapped in parentheses where it is a binary expression). Null when the encoding cannot carry
 * the value exactly (`reverse` splits surrogate pairs).
 */
export function encodeJs(value: string, how: StringEncoding, rng: Rng): string | null {
  switch (how) {
    case 'escape': {
      let out = '"';
      for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        out += c < 0x100 && rng.next() < 0.6 ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
      }
      return `${out}"`;
    }
    case 'charcodes':
      return `String.fromCharCode(${Array.from({ length: value.length }, (_, i) => value.charCodeAt(i)).join(', ')})`;
    case 'base64':
      return isAscii(value) && rng.next() < 0.5
        ? `atob(${jsLiteral(Buffer.from(value, 'latin1').toString('base64'))})`
        : `Buffer.from(${jsLiteral(Buffer.from(value, 'utf8').toString('base64'))}, 'base64').toString()`;
    case 'reverse':
      if (/[\ud800-\udfff]/.test(value)) return null;
      return `${jsLiteral(value.split('').reverse().join(''))}.split('').reverse().join('')`;
    case 'split':
      return `(${pieces(value, rng, 2).map(jsLiteral).join(' + ')})`;
    case 'join':
      return `[${pieces(value, rng).map(jsLiteral).join(', ')}].join('')`;
    case 'hex':
      return `Buffer.from(${jsLiteral(Buffer.from(value, 'utf8').toString('hex'))}, 'hex').toString()`;
  }
}

/** A Python expression that evaluates to `value` (a `str`), in the given encoding; `base64` needs `import base64`. */
export function encodePy(value: string, how: StringEncoding, rng: Rng): string {
  switch (how) {
    case 'escape': {
      let out = "'";
      for (const ch of value) {
        const c = ch.codePointAt(0)!;
        out += c < 0x100 && rng.next() < 0.6 ? `\\x${c.toString(16).padStart(2, '0')}` : c < 0x10000 ? `\\u${c.toString(16).padStart(4, '0')}` : `\\U${c.toString(16).padStart(8, '0')}`;
      }
      return `${out}'`;
    }
    case 'charcodes':
      return `''.join(map(chr, [${[...value].map((ch) => ch.codePointAt(0)).join(', ')}]))`;
    case 'base64':
      return `base64.b64decode(${pyLiteral(Buffer.from(value, 'utf8').toString('base64'))}).decode()`;
    case 'reverse':
      return `${pyLiteral([...value].reverse().join(''))}[::-1]`;
    case 'split':
      return `(${pieces(value, rng, 2).map(pyLiteral).join(' + ')})`;
    case 'join':
      return `''.join([${pieces(value, rng).map(pyLiteral).join(', ')}])`;
    case 'hex':
      return `bytes.fromhex(${pyLiteral(Buffer.from(value, 'utf8').toString('hex'))}).decode()`;
  }
}

/** `value` cut in two at a random point, as a JavaScript or Python concatenation (for names built at run time). */
export function splitConcat(value: string, rng: Rng, lang: 'js' | 'py'): string {
  const lit = lang === 'js' ? jsLiteral : pyLiteral;
  return pieces(value, rng, 2).map(lit).join(' + ');
}

