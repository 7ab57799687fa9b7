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
  for (const cell of cells.slice(0, 2000)) {
    const c = cell as { cell_type?: unknown; source?: unknown; metadata?: unknown };
    if (c.cell_type !== 'code') continue;
    const source = Array.isArray(c.source) ? c.source.filter((s): s is string => typeof s === 'string').join('') : typeof c.source === 'string' ? c.source : '';
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
  }
  return { python: lines.join('\n'), shell, hiddenLines };
}
