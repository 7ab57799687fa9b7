/** A replacement of `text.slice(from, to)`. */
export interface Edit {
  from: number;
  to: number;
  text: string;
}

/**
 * Applies edits to a text. Overlapping edits are dropped (the outer one wins when it comes first
 * by start): a transformation never rewrites the same bytes twice.
 */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.from - b.from || b.to - a.to);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.from < at) continue;
    out += text.slice(at, e.from) + e.text;
    at = e.to;
  }
  return out + text.slice(at);
}
