/**
 * The deepest JSON Vigil reads: `{}` and `[]` are one level, each object or array inside another
 * adds one. Deeper JSON is refused before anything walks it (docs/api.md, "JSON bodies"): a
 * recursive reader, serializer or canonicalizer would otherwise overflow the stack, and nothing
 * Vigil takes legitimately nests more than a handful of levels.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests deeper than `max` levels, read from the text itself (brackets outside
 * strings), in one pass without recursion: cheap enough to run before JSON.parse on every body.
 * For text that is not JSON the answer means nothing; JSON.parse refuses such text anyway.
 */
export function jsonTextDepthExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // To the closing quote: the next one not escaped (preceded by an even number of backslashes).
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end === -1) return false;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes += 1;
        if (backslashes % 2 === 0) break;
      }
      i = end;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return false;
}
