/** A named function's lines (1-based, inclusive) and its parameter names. */
export interface FunctionRange {
  from: number;
  to: number;
  params: string[];
}

/**
 * The named functions of a module by their lines: Python `def`s to the end of their indented block;
 * JavaScript declarations, `const f = (…) =>`/`function`, `exports.f =` and method shorthand to the brace
 * that closes their body (strings are not skipped: a rough count, at most 400 lines).
 */
export function functionRanges(lines: readonly string[], python: boolean): Map<string, FunctionRange> {
  const out = new Map<string, FunctionRange>();
  const params = (s: string | undefined) => (s ?? '').split(',').map((p) => p.trim().replace(/[:=].*$/, '').replace(/^[*.]+/, '').trim()).filter((p) => /^[A-Za-z_$][\w$]*$/.test(p) && p !== 'self');
  lines.forEach((line, i) => {
    if (python) {
      const m = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(([^)]*)/.exec(line);
      if (m === null) return;
      out.set(m[2]!, { from: i + 1, to: pythonBlockEnd(lines, i, m[1]!.length) + 1, params: params(m[3]) });
      return;
    }
    const m = /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(([^)]*)\)|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b[^(]*\(([^)]*)\)|\(([^)]*)\)\s*=>|([A-Za-z_$][\w$]*)\s*=>)|\b(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b[^(]*\(([^)]*)\)|\(([^)]*)\)\s*=>)|^\s*(?:async\s+)?(?!if\b|for\b|while\b|switch\b|catch\b|function\b)([A-Za-z_$][\w$]*)\s*\(([^)]*)\)\s*\{/.exec(line);
    if (m === null) return;
    const name = m[1] ?? m[3] ?? m[7] ?? m[10]!;
    const ps = params(m[2] ?? m[4] ?? m[5] ?? m[6] ?? m[8] ?? m[9] ?? m[11]);
    // The body: from the first `{` after the header to its match; a header whose line opens none has no body.
    out.set(name, { from: i + 1, to: braceBlockEnd(lines, i, m.index, 400, true) + 1, params: ps });
  });
  return out;
}

/** The 0-based last line of the indented block a Python header at line `i` (indented `indent`) opens. */
export function pythonBlockEnd(lines: readonly string[], i: number, indent: number): number {
  let end = i;
  for (let j = i + 1; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.trim() === '' || /^\s*#/.test(l)) continue;
    if (l.length - l.trimStart().length <= indent && !/^\s*[)\]]/.test(l)) break;
    end = j;
  }
  return end;
}

/**
 * The 0-based line of the brace closing the first `{` from column `from` of line `i`, within `maxLines`
 * lines (`i` when none closes); with `headerOnly`, a header whose own line opens no brace ends there.
 * Strings are not skipped: a rough count.
 */
export function braceBlockEnd(lines: readonly string[], i: number, from: number, maxLines: number, headerOnly: boolean): number {
  let depth = 0;
  let opened = false;
  for (let j = i; j < lines.length && j < i + maxLines; j++) {
    for (const c of j === i ? lines[j]!.slice(from) : lines[j]!) {
      if (c === '{') {
        depth++;
        opened = true;
      } else if (c === '}') depth--;
      if (opened && depth === 0) return j;
    }
    if (headerOnly && !opened && j > i) break;
  }
  return i;
}
