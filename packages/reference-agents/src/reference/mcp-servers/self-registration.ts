import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';

// Configuration files in which MCP clients list the servers they start (Claude Desktop, Claude
// Code, Cursor, Windsurf, VS Code, Cline, Gemini CLI, Continue, Zed), as a whole path or as the
// pieces a path.join is built from.
export const CLIENT_CONFIG_NAME =
  /claude_desktop_config\.json|['"`/\\]\.claude\.json['"`]|\.cursor['"`]?\s*[,/\\]\s*['"`]?mcp\.json|['"`]mcp\.json['"`]|windsurf['"`]?\s*[,/\\]\s*['"`]?mcp_config\.json|mcp_config\.json|cline_mcp_settings\.json|\.gemini['"`]?\s*[,/\\]\s*['"`]?settings\.json|\.vscode['"`]?\s*[,/\\]\s*['"`]?mcp\.json|['"`]Code['"`]?\s*[,/\\]\s*['"`]?User['"`]?\s*[,/\\]\s*['"`]?(?:settings|mcp)\.json|\.continue['"`]?\s*[,/\\]\s*['"`]?config\.(?:json|yaml)|['"`]zed['"`]?\s*[,/\\]\s*['"`]?settings\.json/g;
const WRITES = /\b(?:writeFileSync|writeFile|outputJson(?:Sync)?|writeJson(?:Sync)?|appendFileSync|appendFile)\s*\(|\.write_text\s*\(|\bjson\.dump\s*\(|\bopen\([^)]*['"][wa]\+?['"]/;
const LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepare'] as const;

// The dot directories of the clients whose configuration is a bare `mcp.json` inside them.
const CLIENT_DOT_DIRECTORY = /^\.(?:cursor|vscode|claude|gemini|codeium|windsurf|continue|roo|kiro|amazonq|junie|zed)$/i;

/**
 * The dot directory a bare `'mcp.json'` is joined to (`path.join(home, '.sentry', 'mcp.json')`),
 * when the argument right before it names one.
 */
function joinedDotDirectory(text: string, at: number): string | undefined {
  return /['"`](\.[\w.-]+)['"`]\s*,\s*$/.exec(text.slice(Math.max(0, at - 80), at))?.[1];
}

/**
 * The MCP client configuration files a source names, distinct, in order. A bare `mcp.json` inside
 * a dot directory no client uses is a tool's own file (Sentry's token cache is `~/.sentry/mcp.json`),
 * not a client's list of servers.
 */
export function clientConfigsNamed(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(CLIENT_CONFIG_NAME)) {
    if (/^['"`]mcp\.json['"`]$/.test(m[0])) {
      const directory = joinedDotDirectory(text, m.index);
      if (directory !== undefined && !CLIENT_DOT_DIRECTORY.test(directory)) continue;
    }
    names.add(m[0].replace(/['"`\s]/g, '').replace(/,/g, '/'));
  }
  return [...names];
}

/** The source writes files and names an MCP client's configuration file. */
export function editsClientConfig(text: string): boolean {
  return WRITES.test(text) && clientConfigsNamed(text).length > 0;
}

/** Files a package.json's install-time scripts run with node or python (`node scripts/setup.js`). */
export function lifecycleScriptFiles(packageJson: string): Map<string, string> {
  const out = new Map<string, string>();
  let scripts: unknown;
  try {
    scripts = (JSON.parse(packageJson) as { scripts?: unknown }).scripts;
  } catch {
    return out;
  }
  if (typeof scripts !== 'object' || scripts === null) return out;
  for (const hook of LIFECYCLE) {
    const command = (scripts as Record<string, unknown>)[hook];
    if (typeof command !== 'string') continue;
    for (const m of command.matchAll(/\b(?:node|python3?|tsx|ts-node|bun)\s+(?:-[\w-]+\s+)*(?:\.\/)?([\w./-]+\.(?:c?js|mjs|ts|py))/g)) out.set((m[1] as string).replace(/^\.\//, ''), hook);
  }
  return out;
}

/**
 * An MCP server that writes itself into other clients' configuration without being asked: from
 * an install-time script of its package, or from a tool's handler at run time. A user adds a
 * server to a client; a server that adds itself spreads to every client on the machine, and
 * stays when it is removed from the one that approved it. An installer command the user runs
 * (`npx server install`) is not reported.
 */
export function selfRegistrationFinding(file: string, text: string, via: { lifecycle?: string; tool?: string }): AgentFinding | null {
  if (!editsClientConfig(text)) return null;
  const configs = clientConfigsNamed(text);
  const lineAt = lineLocator(text);
  const first = text.search(CLIENT_CONFIG_NAME);
  const how = via.lifecycle !== undefined ? `${via.lifecycle} script` : `tool ${via.tool ?? ''}`;
  return referenceFinding({
    category: 'persistence',
    severity: 'HIGH',
    title: via.lifecycle !== undefined ? 'install script writes the server into MCP clients\' configuration' : 'tool handler writes the server into MCP clients\' configuration',
    file,
    line: first >= 0 ? lineAt(first) : 1,
    evidence: `${how}: ${configs.join(', ')}`,
  });
}

/**
 * A command the user runs to set the server up: argv dispatch, a CLI framework's subcommand, an
 * explicit setup entry point (a function, or a method of a class, `async configure(options) {`, as
 * the per-client managers of a setup command are written), or a question put to the user at the
 * terminal before writing (a prompt, `readline`'s `question`, an inquirer/prompts library).
 */
const USER_COMMAND = /process\.argv|\bsys\.argv|\bargparse\b|\bclick\.(?:command|group)|\btyper\b|\.command\(\s*['"`]|\byargs\b|\bcommander\b|\bcac\(|\bmeow\(|\bparseArgs\(|\bdef\s+(?:install|setup|configure|register)\w*\s*\(|\bfunction\s+(?:install|setup|configure|register)\w*\s*\(|\b(?:const|let)\s+(?:install|setup|configure|register)\w*\s*=|^[ \t]*(?:(?:public|protected|static|async|override)\s+)*(?:install|setup|configure|register)\w*\s*\([^()]*\)\s*(?::\s*[\w<>[\]|\s.]+)?\{|\b(?:prompt\w*|confirm|ask\w*)\s*\(\s*['"`][^'"`\n]{8,}\?|\.question\(\s*['"`]|\b(?:inquirer|@inquirer\/\w+|enquirer|prompts)['"`]/m;
// (Round s30, real false alarms: mongodb-mcp-server's `packages/setup/src/aiTool.ts`.) A file of a workspace package named for setup is that command's code.
const SETUP_FILE = /(?:^|\/)packages\/(?:[\w-]+-)?setup\/\S*\.[cm]?[jt]s$|(?:^|[/_.-])(?:un)?(?:install(?:er)?|setup|configure|config|register|init|cli|add-to-\w+)(?:[._-][\w.-]*)?\.[cm]?[jt]s$|(?:^|[/_.-])(?:un)?(?:install(?:er)?|setup|configure|register|init|cli)\w*\.py$/i;
/** Code that rewrites the entries of the servers already configured (not only adds its own). */
const REWRITES_OTHERS = /(?:Object\.(?:entries|keys|values)\(\s*[\w.?]*(?:mcpServers|servers)|for\s+\w+\s*(?:,\s*\w+\s*)?in\s+[\w.]*\[?['"]?(?:mcpServers|servers)['"]?\]?\.(?:items|keys|values)\(\))/;

/**
 * A server that writes MCP clients' configuration by itself — when it starts or when a module it
 * loads runs — rather than from a command the user runs to set it up: it adds servers the user
 * never approved, or rewrites the ones they did (CRIT when it rewrites other servers' entries).
 */
export function startupRegistrationFinding(file: string, text: string): AgentFinding | null {
  // A file named for setting up or removing the server is what the user runs to do that.
  if (!editsClientConfig(text) || USER_COMMAND.test(text) || SETUP_FILE.test(file)) return null;
  const configs = clientConfigsNamed(text);
  const lineAt = lineLocator(text);
  const first = text.search(CLIENT_CONFIG_NAME);
  const others = REWRITES_OTHERS.test(text);
  return referenceFinding({
    category: 'persistence',
    severity: others ? 'CRIT' : 'HIGH',
    title: others ? 'server rewrites the other servers of MCP clients\' configuration' : 'server writes MCP clients\' configuration by itself (no setup command)',
    file,
    line: first >= 0 ? lineAt(first) : 1,
    evidence: configs.join(', '),
  });
}

// (s25-mcp) What a written client entry runs: a download piped into a shell (`sh -c "curl … | sh"`,
// PowerShell's `iwr … | iex`), or a package fetched and run by name (`npx -y pkg`, `uvx pkg`,
// `pipx run pkg`, `bunx pkg`, `dlx pkg`).
const DOWNLOAD_AND_RUN = /\b(?:curl|wget|fetch|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|\n;]{0,240}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n;]{0,240}\|\s*iex\b|\b(?:curl|wget)\b[^\n;]{0,240}(?:-o|-O|>)\s*\S+\s*(?:&&|;)\s*(?:(?:ba|z)?sh|chmod\s+\+x|\.\/|node|python3?)\b|\b(?:ba|z)?sh\s+-c\s+['"]?\$\((?:curl|wget)\b/i;
// The runner, its flags (a package named by `-p x` / `--package x` / `--from x` is what it fetches), then the first
// positional word: the package. A gap (a word the code computes) stops the reading.
// eslint-disable-next-line no-control-regex -- NUL is the mark entryArgv leaves for a word the code computes
const FETCH_RUN_PACKAGE = /(?:^|\s)(?:npx|bunx|pnpm\s+dlx|yarn\s+dlx|uvx|pipx\s+run)((?:\s+(?:(?:-p|--package|--from|--spec|--with|--registry|--cache|--prefix|--python|--index-url|--extra-index-url)(?:=|\s+)\S+|--?[A-Za-z][\w-]*(?:=\S+)?))*)(?:\s+(@?[\w][\w.-]*(?:\/[\w.-]+)?)(?:@[\w.^~<>=-]+)?|\s*$|\s+\u0000)/;
/** The package a fetch-and-run command line fetches, or null when there is none or the code computes it. */
function fetchedPackage(argv: string): { match: string; name: string } | null {
  const m = FETCH_RUN_PACKAGE.exec(argv);
  if (m === null) return null;
  const named = /(?:-p|--package|--from|--spec)(?:=|\s+)(\S+)/.exec(m[1] ?? '');
  const spec = named?.[1] ?? m[2];
  const name = spec === undefined ? undefined : /^(?:@[\w.-]+\/[\w.-]+|[\w][\w.-]*)/.exec(spec)?.[0];
  return name === undefined ? null : { match: m[0], name };
}
// A key of the client's server list (`mcpServers`/`servers`/`mcp_servers`/`context_servers`).
const SERVERS_KEY = String.raw`(?:mcpServers|mcp_servers|servers|context_servers)`;

/** The string literals of a stretch of code, with the names in it that stand for constants replaced by their text. */
function regionText(region: string, constants: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  for (const m of region.matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1|[A-Za-z_$][\w$.]*/g)) {
    // A key (`"args":`) is not a word of the command.
    if (m[1] !== undefined && /^\s*:/.test(region.slice((m.index as number) + m[0].length))) continue;
    if (m[1] !== undefined) parts.push((m[2] as string).replace(/\\(["'`])/g, '$1'));
    else if (constants.has(m[0])) parts.push(constants.get(m[0]) as string);
  }
  return parts.join(' ');
}

// A word of a command line the code computes (a variable, a spread, an interpolation): not read as any word.
const GAP = '\u0000';
const TOKEN = /(['"`])((?:\\.|(?!\1)[^\\\n])*)\1|\.\.\.\s*[\w$.]+|[A-Za-z_$][\w$.]*|\]/g;

/** A token's text: a literal's, a constant's, or a gap. */
function tokenText(m: RegExpMatchArray, constants: ReadonlyMap<string, string>): string {
  if (m[1] !== undefined) return m[1] === '`' && (m[2] as string).includes('${') ? GAP : (m[2] as string);
  return constants.get(m[0]) ?? GAP;
}

/**
 * The command line an entry runs: its `command` value, then the elements of its `args` list (literals and
 * constants; anything else a gap), not whatever strings follow in the code.
 */
function entryArgv(entry: string, constants: ReadonlyMap<string, string>): string {
  const e = entry.replace(/\\(["'`])/g, '$1');
  const head = /^['"]?command['"]?\s*[:=]\s*/.exec(e);
  if (head === null) return '';
  TOKEN.lastIndex = head[0].length;
  const first = TOKEN.exec(e);
  if (first === null || first.index !== head[0].length || first[0] === ']') return '';
  const words = [tokenText(first, constants)];
  const args = /\bargs['"]?\s*[:=]\s*\[/.exec(e);
  if (args !== null) {
    TOKEN.lastIndex = args.index + args[0].length;
    for (let t = TOKEN.exec(e); t !== null && t[0] !== ']'; t = TOKEN.exec(e)) words.push(tokenText(t, constants));
  }
  return words.join(' ');
}

/** Lower-case name pieces that identify a server (`@acme/pdf-tools-mcp` → pdf, tools), without the generic ones. */
function namePieces(name: string): string[] {
  return name.toLowerCase().replace(/^@[^/]+\//, '').split(/[^a-z0-9]+/).filter((p) => p.length > 1 && !/^(?:mcp|server|servers|model|context|protocol|js|ts|py|python|node|cli|the|ai)$/.test(p));
}

/**
 * A server key or package that is the package's own: its name or a bin name; for a scoped name (`@stripe/mcp`)
 * also its scope, its bare name and `scope-name` (`stripe`, `mcp`, `stripe-mcp`); or a name whose distinctive
 * pieces are all the own name's (its scope's included). A scoped package of another scope is not own.
 */
function isOwn(name: string, own: readonly string[]): boolean {
  const n = name.toLowerCase();
  const scoped = /^@([^/]+)\/(.+)$/.exec(n);
  const bare = scoped?.[2] ?? n;
  return own.some((o) => {
    const oo = o.toLowerCase();
    const os = /^@([^/]+)\/(.+)$/.exec(oo);
    if (oo === n) return true;
    if (scoped !== null && (os === null || os[1] !== scoped[1])) return false;
    const forms = os === null ? [oo] : [os[2] as string, os[1] as string, `${os[1] as string}-${os[2] as string}`];
    if (forms.includes(bare)) return true;
    const a = namePieces(bare);
    const b = os === null ? namePieces(oo) : [...namePieces(os[2] as string), ...namePieces(os[1] as string)];
    return a.length > 0 && a.every((p) => b.includes(p) || b.some((q) => q.startsWith(p) || p.startsWith(q)));
  });
}

// Properties every array, object, Map or dict has (`servers.length = 0`, `servers.push(…)`): not a server's key.
const BUILT_IN_PROPERTY = /^(?:length|prototype|__proto__|constructor|push|pop|shift|unshift|splice|slice|sort|reverse|fill|concat|size|set|get|has|add|delete|clear|keys|values|entries|items|update|setdefault|append|extend|insert|remove|copy|toString|valueOf|hasOwnProperty)$/;

/**
 * (s25-mcp) What code that writes another MCP client's configuration writes there, folded: the
 * command of each entry it builds (`command`/`args` of an object or dict, inline, from constants of
 * the module, or a JSON text) and the keys it assigns under the client's server list.
 * - An entry whose command downloads and runs code (`sh -c "curl … | sh"`, `bash -c`, `iwr | iex`),
 *   or fetches and runs a package that is not the server's own (`npx -y other-pkg`): the client
 *   starts it on its next launch, with the user's approval given to something else: CRIT.
 * - An entry written under a key that is not the package's own (`cfg.mcpServers.github = …`,
 *   `servers["filesystem"] = …`, the first of `Object.keys(cfg.mcpServers)`): an approved server's
 *   entry taken over: CRIT, HIGH from a setup command the user runs.
 * Returns null when the file does not write a client's configuration or what it writes is its own entry.
 */
export function clientEntryFinding(file: string, text: string, constants: ReadonlyMap<string, string>, own: readonly string[], via: 'install' | 'runtime' | 'setup'): AgentFinding | null {
  if (!editsClientConfig(text)) return null;
  const lineAt = lineLocator(text);
  const configs = clientConfigsNamed(text).join(', ');
  // Each entry's command: the code from a `command` key on (an object, a dict, JSON text), its strings and constants.
  let fetchedHit: AgentFinding | null = null;
  for (const m of text.matchAll(/\\?['"]?\bcommand\\?['"]?\s*[:=]/g)) {
    const region = text.slice(m.index, m.index + 600);
    const end = /\n\s*\n|\}\s*\)?\s*[;,]?\s*\n(?!\s*[\]}])/.exec(region);
    const entry = end === null ? region : region.slice(0, end.index + 1);
    const download = DOWNLOAD_AND_RUN.exec(`${regionText(entry, constants)} ${entry}`);
    if (download !== null) {
      return referenceFinding({ category: 'persistence', severity: 'CRIT', title: 'code writes a download-and-run command into MCP clients\' configuration', file, line: lineAt(m.index), evidence: `${configs}: ${download[0].trim().slice(0, 160)}` });
    }
    // The package is read from the entry's own command line: the `command` and its `args`.
    const fetched = fetchedHit === null && own.length > 0 ? fetchedPackage(entryArgv(entry, constants)) : null;
    if (fetched === null || isOwn(fetched.name, own)) continue;
    // From a setup command the user runs, the user chose what it adds (`npx -y mcp-remote https://…`): HIGH.
    fetchedHit = referenceFinding({ category: 'persistence', severity: via === 'setup' ? 'HIGH' : 'CRIT', title: 'code writes another package\'s fetch-and-run command into MCP clients\' configuration', file, line: lineAt(m.index), evidence: `${configs}: ${fetched.match.trim().slice(0, 160)}` });
  }
  if (fetchedHit !== null) return fetchedHit;
  if (own.length === 0) return null;
  // Keys assigned under the client's server list that are not the package's own.
  const keyed = new RegExp(String.raw`\b${SERVERS_KEY}['"\]]*\s*(?:\.\s*([A-Za-z_$][\w$-]*)|\[\s*(['"\x60])([^'"\x60\n]+)\2\s*\]|\[\s*([A-Za-z_$][\w$]*)\s*\])\s*(?:\[[^\]\n]+\]\s*|\.\s*[\w$]+\s*)*=(?!=)|\b${SERVERS_KEY}['"\]]*\s*(?:\.\s*update\s*\(\s*\{|,\s*\{)\s*['"]?([\w@/.-]+)['"]?\s*:|\.\.\.\s*[\w$.?]*${SERVERS_KEY}\s*,\s*['"]?([\w@/.-]+)['"]?\s*:`, 'g');
  for (const m of text.matchAll(keyed)) {
    // A bare name declared as a list (`const servers = []`) is the code's own list, not a client's servers.
    const name = /^\w+/.exec(m[0])?.[0] ?? '';
    const bare = !/[.[\]'"]/.test(text[m.index - 1] ?? '');
    if (bare && new RegExp(String.raw`(?:\b(?:const|let|var)\s+${name}\s*(?::[^=\n]+)?|^[ \t]*${name}\s*(?::[^=\n]+)?)=\s*\[`, 'm').test(text)) continue;
    // A key held in a name: a constant, or the variable of a loop over a literal list (`for (const k of ['github', …])`).
    const keys = m[4] !== undefined ? keyValues(text, m[4], constants) : [m[1] ?? m[3] ?? m[5] ?? m[6]];
    const key = keys.find((k) => k !== undefined && !BUILT_IN_PROPERTY.test(k) && !isOwn(k, own));
    if (key === undefined) continue;
    return referenceFinding({ category: 'persistence', severity: via === 'setup' ? 'HIGH' : 'CRIT', title: 'code replaces another server\'s entry in MCP clients\' configuration', file, line: lineAt(m.index), evidence: `${configs}: ${m[0].trim().slice(0, 160)}` });
  }
  // The first (or any) existing entry picked by position and overwritten.
  const picked = new RegExp(String.raw`(?:Object\.keys\(\s*[\w$.?]*${SERVERS_KEY}\s*\)\s*\[\s*\d+\s*\]|list\(\s*[\w.\[\]'"]*${SERVERS_KEY}['"\]]*(?:\.keys\(\))?\s*\)\s*\[\s*-?\d+\s*\]|next\(\s*iter\(\s*[\w.\[\]'"]*${SERVERS_KEY})`).exec(text);
  if (picked !== null) return referenceFinding({ category: 'persistence', severity: via === 'setup' ? 'HIGH' : 'CRIT', title: 'code replaces another server\'s entry in MCP clients\' configuration', file, line: lineAt(picked.index), evidence: `${configs}: ${picked[0]}` });
  return null;
}

/** The values a name used as a key stands for: a constant's, or those of the literal list a loop binds it to. */
function keyValues(text: string, name: string, constants: ReadonlyMap<string, string>): string[] {
  if (constants.has(name)) return [constants.get(name) as string];
  const n = name.replace(/\$/g, '\\$');
  const loop = new RegExp(String.raw`\bfor\s*\(?\s*(?:const|let|var)?\s*${n}\s+(?:of|in)\s*[[(]([^\])]*)[\])]`).exec(text);
  return loop === null ? [] : [...(loop[1] as string).matchAll(/['"]([^'"\n]+)['"]/g)].map((v) => v[1] as string);
}

/** The names a package goes by: its package.json name and bin names, a pyproject/setup.py name and scripts. */
export function ownServerNames(manifests: readonly string[]): string[] {
  const out = new Set<string>();
  for (const t of manifests) {
    try {
      const j = JSON.parse(t) as { name?: unknown; bin?: unknown };
      if (typeof j.name === 'string') out.add(j.name);
      if (typeof j.bin === 'object' && j.bin !== null) for (const k of Object.keys(j.bin)) out.add(k);
      continue;
    } catch {
      // not JSON: pyproject.toml or setup.py
    }
    for (const m of t.matchAll(/^\s*name\s*=\s*['"]([\w.@/-]+)['"]|\bname\s*=\s*['"]([\w.@/-]+)['"]/gm)) out.add((m[1] ?? m[2]) as string);
    const scripts = /\[project\.scripts\]([\s\S]*?)(?:\n\[|$)/.exec(t);
    if (scripts) for (const m of (scripts[1] as string).matchAll(/^\s*['"]?([\w.-]+)['"]?\s*=/gm)) out.add(m[1] as string);
  }
  return [...out];
}

/** A file the user runs to set the server up (a setup command, a setup/installer file) rather than one that runs by itself. */
export function runByUser(file: string, text: string): boolean {
  return USER_COMMAND.test(text) || (SETUP_FILE.test(file) && !/(?:^|\/)setup\.py$/.test(file));
}
