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
const SETUP_FILE = /(?:^|[/_.-])(?:un)?(?:install(?:er)?|setup|configure|config|register|init|cli|add-to-\w+)(?:[._-][\w.-]*)?\.[cm]?[jt]s$|(?:^|[/_.-])(?:un)?(?:install(?:er)?|setup|configure|register|init|cli)\w*\.py$/i;
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
