/**
 * Control characters (C0, C1: terminal escape sequences, CR, BEL) and the Unicode format
 * characters that reorder or split what a reader sees (bidi overrides and isolates, line and
 * paragraph separators). Text an agent controls goes through a validator's logs and a terminal.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/** `text` with every run of unprintable characters as one space, cut to `max` characters. */
export function printableText(text: string, max: number): string {
  return text.replace(UNPRINTABLE, ' ').slice(0, max);
}
