/** The sentence around `offset`: from the previous sentence end to the next (dots inside paths do not end it). */
export function sentenceAt(text: string, offset: number): { from: number; to: number } {
  let from = offset;
  while (from > 0 && text[from - 1] !== '\n' && !(/[.!?]/.test(text[from - 1] ?? '') && /\s/.test(text[from] ?? ''))) from--;
  let to = offset;
  while (to < text.length && text[to] !== '\n' && !(/[.!?]/.test(text[to] ?? '') && (to + 1 === text.length || /\s/.test(text[to + 1] ?? '')))) to++;
  return { from, to };
}
