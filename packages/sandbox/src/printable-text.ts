/**
 * What a reader cannot see, or sees as something else: control characters (C0, C1: terminal
 * escape sequences, CR, BEL), every Unicode format character (bidi marks, overrides and isolates,
 * zero-width spaces and joiners, the soft hyphen, tag characters, interlinear annotation), line and
 * paragraph separators, and the Hangul fillers, which render blank. Text an agent controls goes
 * through a validator's logs and a terminal.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0]+/gu;

/** `text` with every run of unprintable characters as one space, cut to `max` characters. */
export function printableText(text: string, max: number): string {
  return text.replace(UNPRINTABLE, ' ').slice(0, max);
}
