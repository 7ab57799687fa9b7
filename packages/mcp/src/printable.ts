/**
 * Text from outside this server (an API error's detail, a path the agent gave) as it may appear
 * inside a tool answer: ANSI escape sequences, control characters and bidirectional controls
 * removed (line breaks become spaces), so it cannot redraw a terminal, reorder text or start a
 * line that looks like this server's own advice; and at most `max` characters, cut with a marker.
 */

/* eslint-disable no-control-regex -- matching control characters is the point of this file */

/** CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ESC \`) and other two-character escape sequences. */
const ANSI_RE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
/** Line breaks and tabs, with the spaces around them: one space. */
const BREAKS_RE = / *[\r\n\t\u0085\u2028\u2029][ \r\n\t\u0085\u2028\u2029]*/g;
/** C0 and C1 controls, DEL, bidi marks, embeddings, overrides and isolates, zero-width characters, BOM. */
const INVISIBLE_RE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/* eslint-enable no-control-regex */

export const MAX_DETAIL_CHARS = 500;

export function printable(value: string, max = MAX_DETAIL_CHARS): string {
  const clean = value.replace(ANSI_RE, '').replace(BREAKS_RE, ' ').replace(INVISIBLE_RE, '');
  const chars = [...clean];
  if (chars.length <= max) return clean;
  return `${chars.slice(0, max).join('')}… [cut: ${chars.length} characters]`;
}

/** True when `value` holds a character `printable` would remove. */
export function hasUnprintable(value: string): boolean {
  return new RegExp(`${ANSI_RE.source}|${BREAKS_RE.source}|${INVISIBLE_RE.source}`).test(value);
}
