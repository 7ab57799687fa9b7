/**
 * (round s30 review) Fenced code blocks found line by line, in linear time: the same blocks as the regular
 * expression `/^[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm` (an opening line starting with a run of
 * three or more backticks or tildes, closed by the first later line holding that exact run alone; an opening run
 * with no such closer is tried shorter, down to three, as the expression backtracks; a line never closed opens no
 * block and the scan goes on from the next line), which is quadratic on many unclosed fences ('```a\n' × 100,000).
 * Lines are split at `\n`; a closing line may end in `\r`.
 */
export interface FencedBlock {
  /** Offset of the opening line (its leading blanks included): the expression's `m.index`. */
  index: number;
  /** Offset just past the closing run and its trailing blanks: `m.index + m[0].length`. */
  end: number;
  /** The opening run (`m[1]`). */
  fence: string;
  /** The lines between the fences, with the newline before the closing line (`m[2]`). */
  body: string;
  /** Offset of the body (`m.index + m[0].indexOf(m[2])` for a non-empty body). */
  bodyStart: number;
}

const OPENER = /^[ \t]*(`{3,}|~{3,})/;
const CLOSER = /^[ \t]*(`{3,}|~{3,})[ \t]*\r?$/;

/** Every fenced block of a text, in order. */
export function fencedBlocks(text: string): FencedBlock[] {
  const starts: number[] = [];
  for (let at = 0; ; ) {
    starts.push(at);
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    at = nl + 1;
  }
  const lineOf = (i: number) => text.slice(starts[i], i + 1 < starts.length ? starts[i + 1]! - 1 : text.length);
  const count = starts.length;
  // Backwards: the nearest closing line after each opening line, per run.
  const nearest = new Map<string, number>();
  const openedBy: Array<{ fence: string; close: number } | undefined> = new Array(count);
  for (let i = count - 1; i >= 0; i--) {
    const line = lineOf(i);
    const open = i + 1 < count ? OPENER.exec(line) : null;
    if (open !== null) {
      const run = open[1] as string;
      for (let k = run.length; k >= 3; k--) {
        const close = nearest.get(run.slice(0, k));
        if (close !== undefined) {
          openedBy[i] = { fence: run.slice(0, k), close };
          break;
        }
      }
    }
    const closer = CLOSER.exec(line);
    if (closer !== null) nearest.set(closer[1] as string, i);
  }
  const out: FencedBlock[] = [];
  for (let i = 0; i < count; i++) {
    const o = openedBy[i];
    if (o === undefined) continue;
    const closeLine = lineOf(o.close);
    const closeEnd = starts[o.close]! + closeLine.replace(/\r$/, '').length;
    const bodyStart = starts[i + 1]!;
    out.push({ index: starts[i]!, end: closeEnd, fence: o.fence, body: text.slice(bodyStart, starts[o.close]), bodyStart });
    i = o.close;
  }
  return out;
}

/** (round s31) An indented code block: its lines, less their first four columns of indentation. */
export interface IndentedBlock {
  /** Offset of the block's first line. */
  index: number;
  /** Offset just past the block's last line (its newline not included). */
  end: number;
  /** The lines, each with its first four spaces (or a tab) removed; blank lines inside the block kept. */
  body: string;
  /** Offset of the first line (`index`: the body's offsets do not map one to one, the indentation is removed). */
  bodyStart: number;
}

const INDENTED = /^(?: {4}|\t| {1,3}\t)/;

/**
 * (round s31) Markdown's indented code blocks, found line by line in linear time: runs of lines indented by four
 * spaces or a tab, after a blank line (or at the start), outside fenced blocks, ending at a line indented less (blank
 * lines inside a run kept when an indented line follows). A list item's indented continuation is read as a block too:
 * what renders as a paragraph of the item reads to the model as the same lines, and the readers of a block ask for
 * code of their own shape.
 */
export function indentedBlocks(text: string): IndentedBlock[] {
  if (!/\n(?: {4}|\t| {1,3}\t)/.test(text) && !INDENTED.test(text)) return [];
  const out: IndentedBlock[] = [];
  const starts: number[] = [];
  for (let at = 0; ; ) {
    starts.push(at);
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    at = nl + 1;
  }
  const lineOf = (i: number) => text.slice(starts[i], i + 1 < starts.length ? starts[i + 1]! - 1 : text.length).replace(/\r$/, '');
  // Lines inside fenced blocks are theirs.
  const fenced = fencedBlocks(text);
  let f = 0;
  let previousBlank = true;
  for (let i = 0; i < starts.length; i++) {
    const at = starts[i]!;
    while (f < fenced.length && fenced[f]!.end < at) f++;
    const inFence = f < fenced.length && fenced[f]!.index <= at && at <= fenced[f]!.end;
    const line = lineOf(i);
    if (inFence) {
      previousBlank = false;
      continue;
    }
    if (!previousBlank || !INDENTED.test(line) || line.trim() === '') {
      previousBlank = line.trim() === '';
      continue;
    }
    const body: string[] = [];
    let j = i;
    let last = i;
    for (; j < starts.length; j++) {
      const l = lineOf(j);
      const atJ = starts[j]!;
      if (f < fenced.length && fenced[f]!.index <= atJ) break;
      if (l.trim() === '') body.push('');
      else if (INDENTED.test(l)) {
        body.push(l.replace(INDENTED, ''));
        last = j;
      } else break;
    }
    const lines = body.slice(0, last - i + 1);
    out.push({ index: at, end: starts[last]! + lineOf(last).length, body: lines.join('\n'), bodyStart: at });
    i = last;
    previousBlank = false;
  }
  return out;
}
