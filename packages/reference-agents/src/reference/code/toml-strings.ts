/**
 * The string values of a TOML file with the dotted key each sits under (`hooks.enter`,
 * `target.x86_64-unknown-linux-gnu.runner`, `env._.source`), for the few tool configurations whose
 * strings are commands or programs (Cargo's `.cargo/config.toml`, mise's `mise.toml`). A light reader,
 * not a TOML parser: table headers (`[a.b]`, `[[a.b]]`), `key = "…"` / `'…'` / `"""…"""` values,
 * arrays of strings and one-line inline tables (`enter = { script = "…" }`); anything else is skipped.
 */
export interface TomlString {
  /** The full dotted key, table header included, quotes dropped (`hooks.enter.script`). */
  key: string;
  value: string;
  line: number;
}

// A file of configuration is small; a generated one is not read past this.
const MAX_TOML_BYTES = 128 * 1024;

function unquoteKey(key: string): string {
  return key
    .split('.')
    .map((k) => k.trim().replace(/^["']|["']$/g, ''))
    .join('.');
}

/** The string literals of a value (`"a"`, `['b', "c"]`, `{ script = "d" }`) with the inline table's keys. */
function valueStrings(value: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  for (const m of value.matchAll(/(?:([\w.-]+)\s*=\s*)?(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/g)) {
    const raw = m[2] !== undefined ? m[2].replace(/\\(["\\])/g, '$1').replace(/\\n/g, '\n').replace(/\\t/g, '\t') : m[3]!;
    out.push({ key: m[1] ?? '', value: raw });
  }
  return out;
}

export function tomlStrings(text: string): TomlString[] {
  if (text.length > MAX_TOML_BYTES) text = text.slice(0, MAX_TOML_BYTES);
  const lines = text.split('\n');
  const out: TomlString[] = [];
  let table = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
    if (header !== null) {
      table = unquoteKey(header[1]!);
      continue;
    }
    const pair = /^\s*((?:[\w-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[\w-]+|"[^"]*"|'[^']*'))*)\s*=\s*(.*)$/.exec(line);
    if (pair === null) continue;
    const key = [table, unquoteKey(pair[1]!)].filter((k) => k !== '').join('.');
    let value = pair[2]!;
    const start = i + 1;
    // A multi-line string (`"""…"""`, `'''…'''`) or array runs to its closing delimiter.
    const triple = /^("""|''')/.exec(value);
    if (triple !== null) {
      let body = value.slice(3);
      while (!body.includes(triple[1]!) && i + 1 < lines.length) body += `\n${lines[++i]!}`;
      out.push({ key, value: body.slice(0, body.indexOf(triple[1]!) < 0 ? undefined : body.indexOf(triple[1]!)).replace(/^\n/, ''), line: start });
      continue;
    }
    if (value.startsWith('[')) while (!/\]\s*(?:#.*)?$/.test(value) && i + 1 < lines.length && i - start < 200) value += `\n${lines[++i]!}`;
    for (const s of valueStrings(value)) out.push({ key: s.key === '' ? key : `${key}.${s.key}`, value: s.value, line: start });
  }
  return out;
}
