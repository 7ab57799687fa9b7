/**
 * Text an MCP server hands the model that lives outside its code's JavaScript, TypeScript or Python
 * strings and outside `resources/` and `prompts/`: tool manifests in JSON, YAML or TOML anywhere in
 * the package (their descriptions, instructions and prompt templates), the string literals of servers
 * written in other languages (Go `server.WithInstructions("…")`, Rust, Java, C#). Each is read for
 * line jumping as a tool description is. Files the code loads by name are `loaded-texts.ts`'s.
 */

export interface ModelText {
  value: string;
  /** 1-based line of the text in its file. */
  line: number;
}

/** Configuration that is not a server's manifest: package metadata, build and CI files. */
const NOT_MANIFEST = /(?:^|\/)(?:package(?:-lock)?\.json|tsconfig[\w.-]*\.json|jsconfig\.json|\.eslintrc[\w.]*|\.prettierrc[\w.]*|renovate\.json|composer\.json|pnpm-lock\.ya?ml|pnpm-workspace\.ya?ml|docker-compose[\w.-]*\.ya?ml|compose\.ya?ml|Cargo\.toml|pyproject\.toml|\.pre-commit-config\.ya?ml|mkdocs\.ya?ml|codecov\.ya?ml|dependabot\.ya?ml|[\w.-]*\.lock)$|(?:^|\/)\.github\/|(?:^|\/)\.vscode\//i;
/** A manifest names tools, prompts or server instructions. */
const MANIFEST_KEYS = /(?:^|["'\s{,])(?:tools|prompts|instructions|inputSchema|input_schema)["']?\s*[:=]/m;
/** Keys whose values the model reads. */
// A prompt template's messages hold their text under `text` or `content`.
const MODEL_KEY = /^(?:description|instructions?|prompt|template|system(?:_?prompt)?|usage|when_to_use|text|content)$/i;

/** The values of a manifest's description, instructions and prompt keys, at their lines; null when the file is not one. */
export function manifestModelTexts(path: string, text: string): ModelText[] | null {
  if (NOT_MANIFEST.test(path) || text.length > 512 * 1024 || !MANIFEST_KEYS.test(text)) return null;
  const lineOf = (needle: string) => {
    const at = text.indexOf(needle.slice(0, 40));
    return at < 0 ? 1 : text.slice(0, at).split('\n').length;
  };
  const out: ModelText[] = [];
  if (/\.json$/i.test(path)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return null;
    }
    const walk = (v: unknown, key: string) => {
      if (typeof v === 'string') {
        if (MODEL_KEY.test(key) && v.length >= 30) out.push({ value: v, line: lineOf(JSON.stringify(v).slice(1)) });
      } else if (Array.isArray(v)) for (const x of v) walk(x, key);
      else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    walk(parsed, '');
    return out;
  }
  if (!/\.(?:ya?ml|toml)$/i.test(path)) return null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:-\s+)?["']?([\w-]+)["']?\s*[:=]\s*(.*)$/.exec(lines[i] as string);
    if (m === null || !MODEL_KEY.test(m[2] as string)) continue;
    const indent = (m[1] as string).length;
    let value = (m[3] as string).trim();
    // A block (`>`, `|`, an empty value, TOML `"""`): the lines indented deeper, or up to the closing quotes.
    if (/^(?:[>|][-+]?\d*)?$/.test(value) || value.startsWith('"""')) {
      const triple = value.startsWith('"""');
      const body: string[] = triple ? [value.slice(3)] : [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j] as string;
        if (triple) {
          if (l.includes('"""')) {
            body.push(l.slice(0, l.indexOf('"""')));
            break;
          }
          body.push(l);
        } else if (l.trim() === '' || /^\s*/.exec(l)![0].length > indent + (/^\s*-\s/.test(lines[i] as string) ? 2 : 0)) body.push(l.trim());
        else break;
      }
      value = body.join('\n');
    } else value = value.replace(/^["']|["']$/g, '');
    if (value.length >= 30) out.push({ value, line: i + 1 });
  }
  return out;
}

/** Server code in languages whose strings the JavaScript and Python readers do not parse. */
export const OTHER_SERVER_LANGUAGE = /\.(?:go|rs|java|kt|cs|rb|swift)$/i;

/** String literals of Go, Rust, Java, Kotlin, C#, Ruby or Swift code (raw strings included), at their lines. */
export function otherLanguageStrings(text: string): ModelText[] {
  if (text.length > 512 * 1024) return [];
  const out: ModelText[] = [];
  for (const m of text.matchAll(/"((?:[^"\\\n]|\\.){30,})"|`([^`]{30,})`|r#+"([\s\S]{30,}?)"#+|"""([\s\S]{30,}?)"""/g)) {
    const raw = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    const value = m[1] === undefined ? raw : raw.replace(/\\n/g, '\n').replace(/\\t/g, ' ').replace(/\\(["'\\])/g, '$1');
    out.push({ value, line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}
