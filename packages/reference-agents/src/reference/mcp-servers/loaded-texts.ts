import { posix } from 'node:path';

/**
 * Text files of the artifact that its code reads at run time and may hand the model (a prompt
 * template, a tool description kept beside the code, a resource's body, a sampling prompt):
 * `files(pkg).joinpath("prompts/x.txt").read_text()`, `files(pkg) / "x.j2"`, `pkgutil.get_data`,
 * `Path(__file__).parent / "prompts" / "x.txt"`, `open(os.path.join(os.path.dirname(__file__), …))`,
 * `readFileSync(path.join(__dirname, 'prompts', 'x.hbs'))`, `readFile(new URL('./x.md', import.meta.url))`,
 * `require('./descriptions.json')`, `import d from './d.json'`. The path is spelled in literals of
 * the statement; it is matched against the artifact's files by its trailing segments, so the
 * package root a loader starts from (`files("pkg")`, `__dirname`) need not be resolved.
 */

/** Extensions of files whose text a server hands on as it is, or renders first. */
export const LOADED_TEXT_EXTENSION = /\.(?:txt|md|mdx|markdown|prompt|j2|jinja2?|hbs|handlebars|mustache|tmpl|tpl|ya?ml|json|xml|html?)$/i;
// A statement that reads a file or imports data (checked on the code as a whole first: most servers read none).
// Go's `//go:embed`, Rust's `include_str!`, Java's `getResourceAsStream` and Ruby's `File.read` load texts of servers in other languages.
const READS = /\b(?:read_text|read_bytes|readFileSync|readFile|get_data|get_text|open_text|read_binary|resource_string|open|load|safe_load|require|import|ReadFile|getResourceAsStream|readText|go:embed)\b|\binclude_(?:str|bytes)!|\bFile\.read\b|\bfiles\s*\(/;
// Configuration and lock files, and the detector tables of a scanner, are not texts for the model.
const NOT_MODEL_TEXT = /(?:^|\/)(?:package(?:-lock)?\.json|tsconfig[\w.-]*\.json|jsconfig\.json|composer\.json|[\w.-]*\.lock|pnpm-lock\.ya?ml|\.eslintrc[\w.]*|\.prettierrc[\w.]*|docker-compose[\w.-]*\.ya?ml|[\w-]*(?:patterns?|signatures?|rules?|detectors?|heuristics?|indicators?|keywords?|blocklist|denylist)[\w-]*\.(?:json|ya?ml|txt))$|(?:^|\/)(?:\.github|node_modules|tests?|__tests__|fixtures?)\//i;

// (Round s30, real false alarms: `readme = "README.md"` of an awslabs server's pyproject.toml.) A package's metadata
// names its readme for the registry's page (`readme =`, `long_description=open("README.md").read()` in setup.py): no model reads it.
const PACKAGE_METADATA = /(?:^|\/)(?:pyproject\.toml|setup\.cfg|setup\.py|package\.json|Cargo\.toml|composer\.json|[\w.-]+\.(?:csproj|gemspec|nuspec))$/i;

// The repository's own notes at its root (README.md, CHANGELOG.md, …) are not among a folder of documents a server
// serves by computed name (round s30: `t.endswith('.md')` in an awslabs server's title helper matched the README).
const REPOSITORY_NOTE = /^(?:README|CHANGELOG|CONTRIBUTING|SECURITY|CODE_OF_CONDUCT|LICENSE|NOTICE|HISTORY|AUTHORS)[\w.-]*$/i;

export interface LoadedText {
  /** The artifact path of the loaded file. */
  path: string;
  /** The name the statement binds (`DIGEST = files(…).read_text()` → `DIGEST`), or null. */
  binding: string | null;
}

/**
 * The artifact files one code file loads as text, each with the name its statement binds.
 * `paths` are all the artifact's file paths.
 */
export function loadedTexts(file: string, code: string, paths: readonly string[]): LoadedText[] {
  if (code.length > 512 * 1024 || !READS.test(code) || PACKAGE_METADATA.test(file)) return [];
  const candidates = paths.filter((p) => LOADED_TEXT_EXTENSION.test(p) && !NOT_MODEL_TEXT.test(p));
  if (candidates.length === 0) return [];
  const dir = posix.dirname(file);
  const out: LoadedText[] = [];
  const seen = new Set<string>();
  // A literal naming a file of one of those extensions, with the literals before it on its line (the folders).
  // (`${__dirname}/x.md`, f"{BASE}/x.txt": a placeholder before the path is the folder it starts from; `//go:embed x.md` is unquoted.)
  for (const m of code.matchAll(/(['"`]|\/\/go:embed\s+)(?:\$?\{[^}\n]*\})?((?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:txt|md|mdx|markdown|prompt|j2|jinja2?|hbs|handlebars|mustache|tmpl|tpl|ya?ml|json|xml|html?))(?:\?raw)?(?:['"`]|(?=\s))/gi)) {
    const lineStart = code.lastIndexOf('\n', m.index) + 1;
    const before = code.slice(lineStart, m.index);
    // Folders spelled as earlier literals of the same statement (`join(here, 'prompts', 'x.hbs')`, `Path(__file__).parent / "prompts" / "x.txt"`).
    const folders = [...before.matchAll(/(['"`])([\w@.-]+(?:\/[\w@.-]+)*)\1/g)].map((f) => f[2] as string).filter((f) => !/\.\w{1,5}$/.test(f) || /^\.{1,2}$/.test(f));
    const named = (m[2] as string).replace(/^\.\//, '');
    const found = resolve(dir, [...folders.slice(-3), named], candidates);
    if (found === undefined || seen.has(found)) continue;
    seen.add(found);
    // The name bound by the statement the literal is in: `NAME = …`, `const NAME = …`, `NAME: str = …`, `import NAME from`.
    const binding = /^\s*(?:export\s+)?(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?!=)/.exec(code.slice(lineStart, lineStart + 200))?.[1] ?? /^\s*import\s+([A-Za-z_$][\w$]*)\s+from\b/.exec(code.slice(lineStart, m.index))?.[1] ?? null;
    out.push({ path: found, binding });
  }
  // A file name built from a variable and an extension (`path.join(root, sub, name + '.md')`, f"{topic}.md",
  // `${slug}.md`, `glob("*.md")`, `readdirSync(dir)` filtered by extension): a server that serves a folder of
  // documents by name hands the model every file of that extension in the folders its code spells.
  for (const ext of dynamicExtensions(code)) {
    const folders = new Set([...code.matchAll(/(['"`])([\w@.-]+(?:\/[\w@.-]+)*)\1/g)].map((f) => f[2] as string).filter((f) => !/\.\w{1,5}$/.test(f)).flatMap((f) => f.split('/')));
    for (const c of candidates) {
      if (seen.has(c) || !c.toLowerCase().endsWith(`.${ext}`) || REPOSITORY_NOTE.test(c)) continue;
      const segments = posix.dirname(c).split('/');
      // The file's own folder is spelled in the code, and the file lies under the code's package root.
      if (!folders.has(segments[segments.length - 1] ?? '') || out.length >= 60) continue;
      seen.add(c);
      out.push({ path: c, binding: null });
    }
  }
  return out;
}

// `+ '.md'`, `${x}.md`, f"{x}.md", `'*.md'`, `.with_suffix('.md')`, `endsWith('.md')`: an extension joined to a computed name.
const DYNAMIC_NAME = /(?:\+\s*|\}|\*|with_suffix\(\s*|endsWith\(\s*|endswith\(\s*|\.replace\(\s*\/\\?)(?:['"`])?\.(md|mdx|markdown|txt|prompt|j2|jinja2?|hbs|mustache|tmpl|tpl)\b/gi;

/** Extensions the code joins to computed file names, when it also reads files. */
function dynamicExtensions(code: string): Set<string> {
  const out = new Set<string>();
  for (const m of code.matchAll(DYNAMIC_NAME)) out.add((m[1] as string).toLowerCase());
  return out;
}

// Template includes: Jinja `{% include "x" %}` / extends / import / from, Handlebars and Mustache partials
// `{{> x}}`, EJS `<%- include('x') %>`, Go `{{template "x"}}`, Liquid `{% render 'x' %}`.
const INCLUDE = /\{%-?\s*(?:include|extends|import|from|render)\s+['"]([^'"\n]+)['"]|\{\{>\s*['"]?([\w./-]+)|<%[-=_]?\s*include\s*\(?\s*['"]([^'"\n]+)['"]|\{\{-?\s*template\s+"([^"\n]+)"/g;

/**
 * The files a loaded template includes, followed to a depth of three: a partial rendered into every
 * result reaches the model as much as the template that names it. `paths` are all the artifact's paths.
 */
export async function includedTexts(path: string, text: string, paths: readonly string[], read: (path: string) => Promise<string | null>, depth = 0): Promise<string[]> {
  if (depth > 2 || !/\{%|\{\{|<%/.test(text)) return [];
  const candidates = paths.filter((p) => LOADED_TEXT_EXTENSION.test(p) && !NOT_MODEL_TEXT.test(p));
  const out: string[] = [];
  for (const m of text.matchAll(INCLUDE)) {
    const named = (m[1] ?? m[2] ?? m[3] ?? m[4]) as string;
    // A partial may be named without its extension (`{{> footer}}`, `include('footer')`).
    const found = resolve(posix.dirname(path), [named], candidates) ?? candidates.find((c) => posix.dirname(c) === posix.dirname(path) && posix.basename(c).replace(/\.[\w.]+$/, '') === posix.basename(named).replace(/^_/, '').replace(/\.[\w.]+$/, ''));
    if (found === undefined || found === path || out.includes(found)) continue;
    out.push(found);
    const body = await read(found);
    if (body !== null) for (const deeper of await includedTexts(found, body, paths, read, depth + 1)) if (!out.includes(deeper)) out.push(deeper);
    if (out.length >= 20) break;
  }
  return out;
}

/** The candidate that ends with the most trailing segments of the spelled path, nearest the code's folder. */
function resolve(dir: string, segments: readonly string[], candidates: readonly string[]): string | undefined {
  const spelled = segments.join('/').split('/').filter((s) => s !== '' && s !== '.');
  // `..` in the spelled path: resolved from the code's folder exactly.
  if (spelled.includes('..')) {
    const exact = posix.normalize(posix.join(dir, ...spelled));
    return candidates.includes(exact) ? exact : undefined;
  }
  for (let from = 0; from < spelled.length; from++) {
    const tail = spelled.slice(from).join('/');
    const matches = candidates.filter((c) => c === tail || c.endsWith(`/${tail}`));
    if (matches.length === 0) continue;
    // Nearest: the longest common folder prefix with the code file.
    const near = (p: string) => commonPrefix(posix.dirname(p), dir);
    return matches.sort((a, b) => near(b) - near(a) || a.length - b.length)[0];
  }
  return undefined;
}

function commonPrefix(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

/**
 * What the model reads of a loaded file: template comments a renderer drops (Jinja `{# … #}`,
 * Handlebars and Mustache `{{! … }}`, `{{!-- … --}}`) are blanked, lines kept; HTML comments stay
 * (a renderer passes them through). JSON and YAML data are read by their string values elsewhere.
 */
export function renderedText(path: string, text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  if (/\.(?:j2|jinja2?)$/i.test(path) || (/\.(?:html?|md|txt|tmpl|tpl|prompt)$/i.test(path) && /\{%|\{\{/.test(text))) text = text.replace(/\{#[\s\S]*?#\}/g, blank);
  if (/\.(?:hbs|handlebars|mustache)$/i.test(path) || /\{\{!/.test(text)) text = text.replace(/\{\{!--[\s\S]*?--\}\}|\{\{![\s\S]*?\}\}/g, blank);
  return text;
}

/** The string values of a JSON document (at least 30 characters), with their lines: a description table or a prompt set. */
export function jsonStringValues(text: string): Array<{ value: string; line: number }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const out: Array<{ value: string; line: number }> = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 12 || out.length > 2000) return;
    if (typeof v === 'string') {
      if (v.length < 30) return;
      const at = text.indexOf(JSON.stringify(v).slice(1, 41));
      out.push({ value: v, line: at < 0 ? 1 : text.slice(0, at).split('\n').length });
    } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(parsed, 0);
  return out;
}
