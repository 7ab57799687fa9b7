/**
 * The code of a Jupyter notebook (`.ipynb`), as one Python program in cell order: what "Run All" runs.
 * IPython magics (`%pip …`) and shell escapes (`!curl …`) are not Python: they are kept apart, by line,
 * so the shell checks can read the escapes. Each code line remembers whether its cell is hidden from
 * the reader (JupyterLab's `source_hidden`, a `collapsed` cell, nbconvert/Jupyter Book `hide-input` or
 * `remove-input`/`remove-cell` tags), where a notebook puts what it does not want read.
 */
export interface NotebookSource {
  /** The Python of all code cells, magics and shell escapes blanked (line numbers hold). */
  python: string;
  /** Shell escapes (`!cmd`, `%%bash` cell bodies, `%system cmd`) with their line in `python`. */
  shell: { line: number; command: string }[];
  /** 1-based lines of `python` that belong to a hidden cell. */
  hiddenLines: Set<number>;
  /**
   * For each 1-based line of `python`, the 1-based line of the notebook file that holds it (index 0 is
   * line 1), so a finding names the line a reader opens, not one of the joined program; 0 for the blank
   * line between cells.
   */
  fileLines: number[];
}

// A `"source":` key of the notebook's JSON: its quote is not escaped (an escaped one is text in a string).
const SOURCE_KEY = /(?<!\\)"source"\s*:\s*/g;

/**
 * Walks the notebook's text once, forward, to find where each code cell's source entries sit. Cells are
 * in array order in the text; nbformat writes a cell's keys sorted, so its outputs (which can hold the
 * same strings) come before its `source`: each cell's entries are the string tokens of the value of its
 * next `"source":` key, read in order (however the file escapes them). Each character is read once.
 */
class FileLineFinder {
  private cursor = 0;
  /** The offset up to which newlines have been counted into `line`. */
  private countedTo = 0;
  private line = 1;

  constructor(private readonly text: string) {}

  private lineOf(pos: number): number {
    // Positions only grow: count the newlines from the last position once.
    for (let i = this.countedTo; i < pos; i++) if (this.text.charCodeAt(i) === 10) this.line++;
    this.countedTo = Math.max(this.countedTo, pos);
    return this.line;
  }

  /** The end (after the closing quote) of the JSON string token opening at `at`. */
  private stringEnd(at: number): number {
    const t = this.text;
    let i = at + 1;
    while (i < t.length) {
      const c = t.charCodeAt(i);
      if (c === 92) i += 2; // a backslash escapes the next character
      else if (c === 34) return i + 1;
      else i++;
    }
    return t.length;
  }

  /**
   * The file line of each string of the next `"source":` value (one for a string, one per string of an
   * array), and moves past it; null when there is no further key.
   */
  nextSource(): number[] | null {
    SOURCE_KEY.lastIndex = this.cursor;
    const m = SOURCE_KEY.exec(this.text);
    if (m === null) return null;
    const t = this.text;
    let i = m.index + m[0].length;
    const lines: number[] = [];
    if (t.charCodeAt(i) === 34) {
      lines.push(this.lineOf(i));
      i = this.stringEnd(i);
    } else if (t.charCodeAt(i) === 91) {
      for (i++; i < t.length && t.charCodeAt(i) !== 93; ) {
        if (t.charCodeAt(i) === 34) {
          lines.push(this.lineOf(i));
          i = this.stringEnd(i);
        } else i++;
      }
    }
    this.cursor = i;
    return lines;
  }
}

/** The file line of each line of a cell's joined source. */
function cellFileLines(entries: readonly string[], finder: FileLineFinder, fallback: number): number[] {
  const found = finder.nextSource() ?? [];
  const starts: number[] = [];
  let last = fallback;
  entries.forEach((_, k) => {
    const l = found[k];
    if (l !== undefined) last = l;
    starts.push(last);
  });
  // Each line of the joined source starts inside one entry (or at its very end: the last entry's).
  const out: number[] = [];
  let entry = 0;
  let entryEnd = entries[0]?.length ?? 0;
  let pos = 0;
  const joined = entries.join('');
  for (const line of joined.split('\n')) {
    while (entry < entries.length - 1 && pos >= entryEnd) entryEnd += entries[++entry]!.length;
    out.push(starts[entry] ?? last);
    pos += line.length + 1;
  }
  return out;
}

const HIDE_TAG = /^(?:hide-input|hide-cell|remove-input|remove-cell|hide_input|remove_input)$/i;

function cellHidden(metadata: unknown): boolean {
  if (typeof metadata !== 'object' || metadata === null) return false;
  const m = metadata as { jupyter?: { source_hidden?: unknown }; collapsed?: unknown; tags?: unknown; hide_input?: unknown };
  if (m.jupyter?.source_hidden === true || m.hide_input === true) return true;
  return Array.isArray(m.tags) && m.tags.some((t) => typeof t === 'string' && HIDE_TAG.test(t));
}

/** The notebook's code, or null when the text is not a notebook. */
export function notebookSource(text: string): NotebookSource | null {
  let nb: unknown;
  try {
    nb = JSON.parse(text);
  } catch {
    return null;
  }
  const cells = (nb as { cells?: unknown })?.cells;
  if (!Array.isArray(cells)) return null;
  const lines: string[] = [];
  const shell: { line: number; command: string }[] = [];
  const hiddenLines = new Set<number>();
  const fileLines: number[] = [];
  const finder = new FileLineFinder(text);
  for (const cell of cells.slice(0, 2000)) {
    const c = cell as { cell_type?: unknown; source?: unknown; metadata?: unknown };
    // Every cell has a source key: a markdown cell's is passed over to keep the walk in step.
    if (c.cell_type !== 'code') {
      if (c.source !== undefined) finder.nextSource();
      continue;
    }
    const entries = Array.isArray(c.source) ? c.source.filter((s): s is string => typeof s === 'string') : typeof c.source === 'string' ? [c.source] : [];
    const source = entries.join('');
    fileLines.push(...cellFileLines(entries, finder, fileLines.findLast((l) => l > 0) ?? 1));
    const hidden = cellHidden(c.metadata);
    const body = source.split('\n');
    // A `%%bash`/`%%sh`/`%%script bash` cell is a shell script; another cell magic (`%%time`) runs Python.
    const shellCell = /^%%(?:bash|sh|script\s+(?:ba)?sh|system)\b/.test(body[0] ?? '');
    body.forEach((line, i) => {
      const n = lines.length + 1;
      if (hidden) hiddenLines.add(n);
      const escape = /^\s*!(.+)$/.exec(line) ?? /^\s*%(?:system|sx)\s+(.+)$/.exec(line);
      if (shellCell && i > 0) shell.push({ line: n, command: line });
      else if (escape !== null) shell.push({ line: n, command: escape[1]! });
      // Blank what is not Python, keeping its indentation's place (a line of its own).
      lines.push(shellCell || /^\s*[%!]/.test(line) ? '' : line);
    });
    lines.push('');
    fileLines.push(0);
  }
  return { python: lines.join('\n'), shell, hiddenLines, fileLines };
}
