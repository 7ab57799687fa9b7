/**
 * Parses JSON with comments and trailing commas (VS Code's `tasks.json`, `settings.json`,
 * `devcontainer.json`, `.cursor/mcp.json`): comments are blanked outside strings, keeping every
 * offset, and commas before a closing bracket dropped. Null when it is still not JSON.
 */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const j = text.indexOf('\n', i);
      const end = j === -1 ? n : j;
      out += ' '.repeat(end - i);
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      const j = text.indexOf('*/', i + 2);
      const end = j === -1 ? n : j + 2;
      out += text.slice(i, end).replace(/[^\n]/g, ' ');
      i = end;
    } else {
      out += c;
      i++;
    }
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, ' $1')) as unknown;
  } catch {
    return null;
  }
}

/** A plain object's entries, or none. */
export function objectEntries(value: unknown): [string, unknown][] {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>) : [];
}

/** The object at `value[key]` when it is one. */
export function objectAt(value: unknown, key: string): Record<string, unknown> | null {
  const v = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** 1-based line of the first occurrence of `needle` in `text` (JSON-escaped, as it is written), else of `fallback`. */
export function lineOfText(text: string, needle: string, fallback?: string): number | undefined {
  for (const candidate of [JSON.stringify(needle).slice(1, -1), needle, fallback]) {
    if (candidate === undefined || candidate === '') continue;
    const at = text.indexOf(candidate);
    if (at !== -1) {
      let line = 1;
      for (let k = 0; k < at; k++) if (text.charCodeAt(k) === 10) line++;
      return line;
    }
  }
  return undefined;
}
