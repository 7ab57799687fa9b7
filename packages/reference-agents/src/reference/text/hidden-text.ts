/** A span of characters a reader of the rendered text does not see but a model does. */
export interface HiddenTextHit {
  kind: 'unicode-tags' | 'zero-width' | 'bidi-control';
  /** Offset of the first hidden character in the text. */
  offset: number;
  /** How many hidden characters the run holds (UTF-16 code units for tags count once per character). */
  count: number;
  /** For Unicode tags: the ASCII they spell (the "ASCII smuggling" payload). */
  decoded?: string;
}

const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);
const BIDI = new Set([0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const WAVING_BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

// Any character findHiddenText looks at: zero-width, bidi controls, and tags (surrogate pairs DB40 DC00–DC7F).
const CANDIDATE = /[\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/;

function isTag(cp: number): boolean {
  return cp >= 0xe0000 && cp <= 0xe007f;
}

// Emoji and their modifiers: a ZWJ between two of them is an emoji sequence (👩‍💻), not hidden text.
const PICTOGRAPHIC = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F\u20E3]/u;
// Scripts whose spelling uses ZWJ/ZWNJ between letters (Persian, Indic, …).
const JOINING_SCRIPT = /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Malayalam}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Gujarati}\p{Script=Gurmukhi}\p{Script=Oriya}\p{Script=Sinhala}\p{Script=Syriac}\p{Script=Hebrew}\p{Script=Mongolian}]/u;

function charBefore(text: string, offset: number): string {
  if (offset <= 0) return '';
  const lo = text.charCodeAt(offset - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && offset >= 2) return text.slice(offset - 2, offset);
  return text.slice(offset - 1, offset);
}

function charAt(text: string, offset: number): string {
  const cp = text.codePointAt(offset);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/**
 * Runs of invisible characters that can carry instructions: Unicode tag characters (U+E0000–E007F,
 * decoded to the ASCII they smuggle), zero-width characters and bidirectional controls. Tags inside
 * an emoji subdivision flag (🏴 + tags + cancel tag), a ZWJ or ZWNJ inside an emoji sequence or
 * a word of a joining script, and a byte order mark at the very start are ordinary text.
 */
export function findHiddenText(text: string): HiddenTextHit[] {
  const hits: HiddenTextHit[] = [];
  // Jump from one candidate to the next: most texts have none, and some are megabytes long.
  const candidates = new RegExp(CANDIDATE.source, 'g');
  for (let m = candidates.exec(text); m !== null; m = candidates.exec(text)) {
    const i = m.index;
    const cp = text.codePointAt(i) ?? 0;
    if (isTag(cp)) {
      const start = i;
      let decoded = '';
      let count = 0;
      let j = i;
      while (j < text.length) {
        const c = text.codePointAt(j) ?? 0;
        if (!isTag(c)) break;
        if (c !== CANCEL_TAG && c >= 0xe0020) decoded += String.fromCharCode(c - 0xe0000);
        count++;
        j += 2;
      }
      const isFlag = charBefore(text, start).codePointAt(0) === WAVING_BLACK_FLAG && text.codePointAt(j - 2) === CANCEL_TAG && /^[a-z0-9]{2,7}$/.test(decoded);
      if (!isFlag) hits.push({ kind: 'unicode-tags', offset: start, count, decoded });
      candidates.lastIndex = j;
      continue;
    }
    if (ZERO_WIDTH.has(cp)) {
      const start = i;
      let j = i;
      while (j < text.length && ZERO_WIDTH.has(text.charCodeAt(j))) j++;
      const count = j - start;
      const before = charBefore(text, start);
      const after = charAt(text, j);
      const joiner = count === 1 && (cp === 0x200d || cp === 0x200c);
      const emojiSequence = joiner && PICTOGRAPHIC.test(before) && PICTOGRAPHIC.test(after);
      const scriptJoin = joiner && (JOINING_SCRIPT.test(before) || JOINING_SCRIPT.test(after));
      const bom = start === 0 && cp === 0xfeff && count === 1;
      // A variation selector or keycap after ZWJ still belongs to the emoji sequence.
      if (!emojiSequence && !scriptJoin && !bom) hits.push({ kind: 'zero-width', offset: start, count });
      candidates.lastIndex = j;
      continue;
    }
    if (BIDI.has(cp)) {
      const start = i;
      let j = i;
      while (j < text.length && BIDI.has(text.charCodeAt(j))) j++;
      hits.push({ kind: 'bidi-control', offset: start, count: j - start });
      candidates.lastIndex = j;
    }
  }
  return hits;
}

/** The text with every hidden-text run decoded in place (tags → their ASCII) or dropped, for phrase matching. */
export function revealHiddenText(text: string): string {
  return revealHiddenTextWithTags(text).text;
}

/**
 * revealHiddenText, with the `[start, end)` offsets in the revealed text of every run decoded from
 * Unicode tags: a phrase found there is hidden from the reader, though it now reads as plain text.
 */
export function revealHiddenTextWithTags(text: string): { text: string; tags: Array<[number, number]> } {
  const tags: Array<[number, number]> = [];
  let out = '';
  let last = 0;
  for (const m of text.matchAll(new RegExp(CANDIDATE.source, 'g'))) {
    out += text.slice(last, m.index);
    last = m.index + m[0].length;
    const cp = m[0].codePointAt(0) ?? 0;
    if (!isTag(cp) || cp < 0xe0020 || cp === CANCEL_TAG) continue;
    const at = out.length;
    out += String.fromCharCode(cp - 0xe0000);
    const previous = tags[tags.length - 1];
    if (previous !== undefined && previous[1] === at) previous[1] = at + 1;
    else tags.push([at, at + 1]);
  }
  return { text: out + text.slice(last), tags };
}
