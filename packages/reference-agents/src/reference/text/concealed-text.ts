/**
 * Text hidden by format characters (Rules File Backdoor, Pillar Security, 2025): a sentence whose letters
 * are interleaved with zero-width joiners or spaces, often inside a bidirectional isolate, so that a
 * reviewer's search, diff or rendering does not show it as the words it is while a model reads it whole.
 */
export interface ConcealedSpan {
  /** Offset of the span's first character in the original text. */
  offset: number;
  /** Offset just after the span's last character. */
  end: number;
  /** The span with its format characters removed: what the model reads. */
  revealed: string;
  /** How many zero-width characters sit directly between two Latin letters. */
  inWord: number;
}

// Zero-width space/non-joiner/joiner, word joiner, invisible operators, BOM, Mongolian vowel separator,
// and bidirectional embeddings, overrides and isolates.
const FORMAT = /[\u200b-\u200f\u2060-\u2064\ufeff\u180e\u202a-\u202e\u2066-\u2069]/g;
const ZERO_WIDTH = /[\u200b-\u200d\u2060-\u2064\ufeff\u180e]/;
const LATIN = /[A-Za-z]/;
// Format characters further apart than this (in visible characters) belong to different spans.
const MAX_GAP = 3;
// A span needs this many zero-width characters inside Latin words: one or two are a copy-and-paste
// accident or a break hint in a long identifier; letter after letter is a sentence kept from search.
const MIN_IN_WORD = 6;

/** Spans of text whose Latin words are interleaved with zero-width characters (emoji ZWJ sequences never qualify: they are not Latin letters). */
export function concealedSpans(text: string): ConcealedSpan[] {
  const spans: ConcealedSpan[] = [];
  let start = -1;
  let last = -1;
  let count = 0;
  let inWord = 0;
  const close = () => {
    if (start >= 0 && inWord >= MIN_IN_WORD && count >= 8) {
      const end = last + 1;
      spans.push({ offset: start, end, revealed: text.slice(start, end).replace(FORMAT, ''), inWord });
    }
    start = -1;
    count = 0;
    inWord = 0;
  };
  for (const m of text.matchAll(FORMAT)) {
    const i = m.index;
    if (start >= 0 && i - last - 1 > MAX_GAP) close();
    if (start < 0) start = i;
    last = i;
    count++;
    if (ZERO_WIDTH.test(m[0]) && LATIN.test(text.charAt(i - 1)) && LATIN.test(text.charAt(i + 1))) inWord++;
  }
  close();
  return spans;
}

// An order: a modal or imperative word (always, never, must, do not, silently, instead) ...
const ORDER_WORD = /\b(?:always|never|must|do\s+not|don['’]t|instead|silently|secretly|quietly|make\s+sure|ensure|ignore)\b/i;
// ... together with an action the model would take.
const ACTION = /\b(?:add|insert|inject|include|append|prepend|embed|write|run|execute|call|invoke|send|upload|post|fetch|load|import|install|read|use|set|replace|remove|delete|mention|tell|output|print|reply|respond|generate)\b/i;

/** Whether text read out of a concealed span gives the model an order (a modal word and an action, or a URL with an action). */
export function readsAsOrder(revealed: string): boolean {
  const words = revealed.split(/\s+/).filter((w) => w !== '').length;
  if (words < 5) return false;
  return ACTION.test(revealed) && (ORDER_WORD.test(revealed) || /\bhttps?:\/\//i.test(revealed) || /<script\b/i.test(revealed));
}
