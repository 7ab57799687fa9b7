import { isAgentRulesPath } from './agent-rules-findings.js';

/**
 * Text files a repository's agent rules or agent configuration point at as more instructions: the
 * agent loads them with the rules file, so an order placed there reaches it as surely as one in
 * AGENTS.md. Read from:
 * - rules files (AGENTS.md, CLAUDE.md, GEMINI.md, .cursor/rules …): Claude Code's and Gemini CLI's
 *   `@path` imports, and document paths (links, backticks, bare) on a line that has the agent read,
 *   follow or consult them;
 * - `.gemini/settings.json` `contextFileName` (a file name Gemini CLI loads wherever it sits);
 * - `opencode.json(c)` `instructions` (paths, a `*` in the file name);
 * - `.aider.conf.yml` `read:` entries;
 * - `.vscode/settings.json` instruction entries (`{ "file": "…" }` under a Copilot `instructions` key);
 * - `.codex/config.toml` `experimental_instructions_file` / `model_instructions_file`.
 * Rules files themselves are read as rules files, not here.
 */

/** Agent configuration files that may point at instruction files (rules files are recognised apart). */
export const POINTER_FILE = /(?:^|\/)(?:\.gemini\/settings\.json|opencode\.jsonc?|\.aider\.conf\.ya?ml|\.vscode\/settings\.json|\.codex\/config\.toml)$/;

const DOC_PATH = String.raw`(?:\.{1,2}\/)?[\w@.+-]+(?:\/[\w@.+-]+)*\.(?:md|mdx|mdc|markdown|txt|rst)`;
// `@docs/style.md` at a word start, not an e-mail address or a scoped package.
const IMPORT = new RegExp(String.raw`(?:^|[\s(\[])@(${DOC_PATH}|[\w.-]+(?:\/[\w.-]+)*)(?=$|[\s),.;:\]])`, 'gm');
const PATH_IN_LINE = new RegExp(String.raw`(?<![\w/.@-])(${DOC_PATH})(?![\w/-])`, 'g');
// A line that has the agent read what it names.
const READ_VERB = /\b(?:read|reads|follow|follows|see|consult|refer(?:\s+to)?|load|loads|review|check|apply|obey|adhere\s+to|use|open|import|includes?|instructions?|guidelines?|rules|conventions|guide|context)\b/i;
const FENCE = /^[ \t]*(?:```|~~~)/;
const MAX_POINTED = 20;

/** Files of the repository (`paths`) that the file at `path` points at as instructions. */
export function pointedInstructionFiles(path: string, text: string, paths: readonly string[]): string[] {
  if (text.length > 512 * 1024) return [];
  const exists = new Set(paths);
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  // The path as written, from the pointing file's folder or from the checkout's root (the agent's working directory).
  const resolve = (raw: string): string[] => {
    const rel = raw.trim().replace(/^["'`]|["'`]$/g, '');
    if (rel === '' || /^(?:[a-z]+:)?\/\//i.test(rel) || rel.startsWith('/') || rel.startsWith('~')) return [];
    if (rel.includes('*')) return globbed(rel, paths, dir);
    const out: string[] = [];
    for (const base of [dir, '']) {
      const joined = normalise(`${base}${rel}`);
      if (joined !== null && exists.has(joined)) out.push(joined);
      else if (joined !== null && !/\.\w+$/.test(joined) && exists.has(`${joined}.md`)) out.push(`${joined}.md`);
    }
    return out;
  };
  const found = new Set<string>();
  const add = (raws: readonly string[]) => {
    for (const raw of raws) for (const p of resolve(raw)) if (p !== path && !isAgentRulesPath(p) && found.size < MAX_POINTED) found.add(p);
  };
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (isAgentRulesPath(path)) {
    let inFence = false;
    for (const line of text.split('\n').slice(0, 5000)) {
      if (FENCE.test(line)) inFence = !inFence;
      if (inFence) continue;
      add([...line.matchAll(IMPORT)].map((m) => m[1] as string));
      if (READ_VERB.test(line)) add([...line.matchAll(PATH_IN_LINE)].map((m) => m[1] as string));
    }
  } else if (/(?:^|\/)\.gemini\/settings\.json$/.test(path)) {
    // Gemini CLI loads a context file of this name from the working directory up and below.
    const names = stringsOf(jsonValue(text, 'contextFileName'));
    for (const name of names) if (/^[\w.-]+$/.test(name)) for (const p of paths) if (p.slice(p.lastIndexOf('/') + 1) === name && !isAgentRulesPath(p) && found.size < MAX_POINTED) found.add(p);
  } else if (/^opencode\.jsonc?$/.test(base)) {
    add(stringsOf(jsonValue(text, 'instructions')));
  } else if (/^\.aider\.conf\.ya?ml$/.test(base)) {
    add(yamlList(text, 'read'));
  } else if (/(?:^|\/)\.vscode\/settings\.json$/.test(path)) {
    const parsed = parseJson(text);
    if (parsed !== null && typeof parsed === 'object') {
      for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) if (/instructions/i.test(key)) add(fileEntries(value).map((f) => (dir.endsWith('.vscode/') ? `../${f}` : f)));
    }
  } else if (/(?:^|\/)\.codex\/config\.toml$/.test(path)) {
    for (const m of text.matchAll(/^\s*(?:experimental_instructions_file|model_instructions_file)\s*=\s*["']([^"'\n]+)["']/gm)) add([m[1] as string]);
  }
  return [...found];
}

function normalise(p: string): string | null {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

/** Paths matching a pattern with `*` in its last segment (`docs/*.md`, `.cursor/rules/*.md`); `**` matches any folders. */
function globbed(pattern: string, paths: readonly string[], dir: string): string[] {
  if (pattern.length > 200) return [];
  const escape = (x: string) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const segments = pattern.replace(/^\.\//, '').split('/');
  const source = segments.map((seg, i) => (seg === '**' ? '(?:[^/]+/)*' : `${escape(seg).replace(/\*/g, '[^/]*')}${i < segments.length - 1 ? '/' : ''}`)).join('');
  const re = new RegExp(`^(?:${escape(dir)})?${source}$`);
  return paths.filter((p) => re.test(p) && /\.(?:md|mdx|mdc|markdown|txt|rst)$/i.test(p)).slice(0, MAX_POINTED);
}

function parseJson(text: string): unknown {
  try {
    // JSONC: comments and trailing commas off (strings with `//` inside are rare in these files and only lose a pointer).
    return JSON.parse(text.replace(/^\s*\/\/[^\n]*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/,(\s*[}\]])/g, '$1')) as unknown;
  } catch {
    return null;
  }
}

function jsonValue(text: string, key: string): unknown {
  const parsed = parseJson(text);
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>)[key] : undefined;
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').slice(0, 50);
  return [];
}

/** `file` fields of an instructions setting (`[{ "file": "docs/x.md" }, { "text": "…" }]`). */
function fileEntries(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => (typeof v === 'object' && v !== null && typeof (v as { file?: unknown }).file === 'string' ? [(v as { file: string }).file] : [])).slice(0, 50);
}

/** A top-level YAML key's value: a scalar, a flow list or a block list. */
function yamlList(text: string, key: string): string[] {
  const m = new RegExp(String.raw`^${key}\s*:[ \t]*([^\n]*)((?:\n[ \t]+-[^\n]*)*)`, 'm').exec(text);
  if (m === null) return [];
  const inline = (m[1] as string).replace(/\s+#.*$/, '').trim();
  if (inline.startsWith('[')) return inline.slice(1, inline.lastIndexOf(']')).split(',').map((s) => s.trim().replace(/^["']|["']$/g, '')).filter((s) => s !== '');
  if (inline !== '') return [inline.replace(/^["']|["']$/g, '')];
  return [...(m[2] as string).matchAll(/\n[ \t]+-[ \t]*([^\n#]+)/g)].map((x) => (x[1] as string).trim().replace(/^["']|["']$/g, '')).slice(0, 50);
}
