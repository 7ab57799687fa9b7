import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { typosquatOf } from '../known/typosquat.js';
import { mcpServerLookalike } from '../known/mcp-server-packages.js';
import { lineOfText, objectAt, objectEntries, parseJsonc } from './parse-jsonc.js';
import { downloadSource, shellCommandFindings } from './shell-command-findings.js';
import { downloadedFileRun } from './downloaded-file-run.js';
import { foreignEndpoints, foreignModelHost } from '../code/agent-settings-writes.js';
import { endpointReach, urlHost } from './endpoint-host.js';

/** What kind of IDE or coding-agent configuration a path holds, or null. */
export type AgentConfigKind = 'claude-settings' | 'vscode-settings' | 'mcp' | 'gemini-settings' | 'vscode-tasks' | 'devcontainer' | 'codex-config' | 'agent-hooks';

export function agentConfigKind(path: string): AgentConfigKind | null {
  if (/(^|\/)\.claude\/settings(\.local)?\.json$/.test(path)) return 'claude-settings';
  if (/(^|\/)\.vscode\/settings\.json$/.test(path)) return 'vscode-settings';
  if (/(^|\/)\.vscode\/tasks\.json$/.test(path)) return 'vscode-tasks';
  if (/(^|\/)\.gemini\/settings\.json$/.test(path)) return 'gemini-settings';
  // A Claude Code plugin's manifest declares the MCP servers the plugin starts (`mcpServers`), as `.mcp.json` does.
  if (/(^|\/)\.claude-plugin\/plugin\.json$/.test(path)) return 'mcp';
  if (/(^|\/)(\.mcp\.json|\.(cursor|vscode|roo|amazonq|windsurf|kiro\/settings|junie|continue)\/mcp(_config)?\.json)$/.test(path)) return 'mcp';
  if (/(^|\/)(\.devcontainer\/([^/]+\/)?devcontainer\.json|\.devcontainer\.json)$/.test(path)) return 'devcontainer';
  if (/(^|\/)\.codex\/config\.toml$/.test(path)) return 'codex-config';
  // Other coding agents' project hooks: Windsurf's `.windsurf/hooks.json`, GitHub Copilot's `.github/hooks/*.json`,
  // Kiro's `.kiro/hooks/*.kiro.hook`, Codex's `.codex/hooks.json`, a Claude Code plugin's `hooks/hooks.json`.
  if (/(^|\/)(\.windsurf\/hooks\.json|\.github\/hooks\/[^/]+\.json|\.kiro\/hooks\/[^/]+\.kiro\.hook|\.codex\/hooks\.json|\.claude\/hooks\.json)$/.test(path)) return 'agent-hooks';
  return null;
}

/** Findings of one configuration file, and repository files its automatic commands run (to analyze as code). */
export interface AgentConfigResult {
  findings: AgentFinding[];
  runs: string[];
  /** The command lines the configuration runs by itself (hooks, folder-open tasks, lifecycle commands, servers), for a caller that resolves the files they run. */
  commands: string[];
  /** Of those, the coding agents' hook commands (run on the user's own events, for the user's own workflow). */
  hookCommands: string[];
  /** Of `runs`, the files those hook commands run. */
  hookRuns: string[];
  /** Files (relative to the workspace folder) an editor setting names as a program to run: judged once the walk knows they are committed. */
  executables: EditorExecutable[];
  /** MCP servers started from unpinned packages with credentials in `env`: the variables' names, for a caller that knows what the artifact documents. */
  unpinnedCredentials?: Array<{ server: string; names: string[]; line: number | undefined; evidence: string }>;
}

/** A workspace setting that names a program the editor or one of its extensions runs by itself. */
export interface EditorExecutable {
  key: string;
  target: string;
  line: number | undefined;
}

// Settings whose value is a program an extension starts by itself once the folder is open (the
// language server, linter, interpreter or tool it wraps): `php.validate.executablePath`, `git.path`,
// `python.defaultInterpreterPath`, `rust-analyzer.server.path`, `eslint.nodePath`, `jest.pathToJest`.
const EXECUTABLE_SETTING = /(^|\.)(\w*path|\w*executable\w*|\w*interpreter\w*|pathTo\w+|\w*binary|serverCommand)$/i;
// Settings that map tool names to the programs run in their place (`go.alternateTools: { go: './x' }`).
const TOOL_MAP_SETTING = /(^|\.)alternateTools$/;
// Settings whose value is a whole command line an extension runs (`jest.jestCommandLine`).
const COMMAND_LINE_SETTING = /(^|\.)\w*CommandLine$/i;

/** The repository-relative file a setting value names, or null for absolute, home, variable or parent paths. */
export function workspaceRelativeTarget(value: string): string | null {
  const rel = value
    .trim()
    .replace(/^\$\{(workspaceFolder|workspaceRoot)(:[^}]*)?\}[\\/]/, '')
    .replace(/\\/g, '/')
    .replace(/^\.\//, '');
  if (rel === '' || rel.includes('..') || /^[/~$%]|^[a-z]:/i.test(rel) || /\s/.test(rel)) return null;
  return /^[\w.@/+-]+$/.test(rel) ? rel : null;
}

// Variables that point a coding agent's or SDK's API traffic, with its key, at a host of one's choosing
// (Check Point, "Claude Code project files", CVE-2026-21852: ANTHROPIC_BASE_URL in .claude/settings.json).
const ENDPOINT_VARIABLE = /^(ANTHROPIC_BASE_URL|ANTHROPIC_API_URL|OPENAI_BASE_URL|OPENAI_API_BASE|GOOGLE_GEMINI_BASE_URL|GEMINI_API_BASE|AZURE_OPENAI_ENDPOINT|HTTPS?_PROXY|ALL_PROXY|NODE_EXTRA_CA_CERTS|NODE_TLS_REJECT_UNAUTHORIZED|NODE_OPTIONS)$/i;
/** The endpoint variables that carry the API key itself (not a proxy, which sees TLS only). */
const API_BASE_VARIABLE = /^(ANTHROPIC_BASE_URL|ANTHROPIC_API_URL|OPENAI_BASE_URL|OPENAI_API_BASE|GOOGLE_GEMINI_BASE_URL|GEMINI_API_BASE|AZURE_OPENAI_ENDPOINT)$/i;
const VENDOR_API_HOST = /(^|\.)(anthropic\.com|openai\.com|googleapis\.com|azure\.com|amazonaws\.com|localhost|127\.0\.0\.1)$/i;
// An interpreter given inline code instead of a server program.
const INLINE_SCRIPT = /^(?:(?:ba|z|da)?sh|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh|node|python[0-9.]*|perl|ruby|deno|bun)$/i;
const INLINE_FLAG = /^(-c|-e|--eval|-p|--print|\/c|-Command|-EncodedCommand|-enc)$/i;
// Launchers that fetch a package and run it: the server is whatever that name resolves to at start.
const PACKAGE_LAUNCHER = /^(npx|pnpx|bunx|uvx|pipx|yarn|pnpm|bun|uv|deno)$/i;
// Extensions of files no interpreter should be running: a payload disguised as a font, image or data.
const DATA_EXTENSION = /\.(woff2?|ttf|otf|eot|png|jpe?g|gif|svg|ico|webp|bmp|mp3|mp4|wav|txt|log|json|csv|md|lock|dat|bin|map|css)$/i;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [];
}

class ConfigScan {
  readonly findings: AgentFinding[] = [];
  readonly runs: string[] = [];
  readonly commands: string[] = [];
  readonly hookCommands: string[] = [];
  readonly hookRuns: string[] = [];
  readonly executables: EditorExecutable[] = [];
  readonly unpinnedCredentials: Array<{ server: string; names: string[]; line: number | undefined; evidence: string }> = [];

  constructor(
    readonly path: string,
    readonly text: string,
    /** Hosts the project's README and manifests link to (its own registrable domains: `endpointReach`). */
    readonly ownHosts: readonly string[] = [],
  ) {}

  add(category: string, severity: Severity, title: string, needle: string, evidence: string): void {
    this.findings.push(referenceFinding({ category, severity, title, file: this.path, line: lineOfText(this.text, needle), evidence }));
  }

  /** A command something runs: the shell checks, and a repository file it runs is queued for code analysis. */
  command(command: string, where: string, automatic: boolean, needle = command): void {
    const line = lineOfText(this.text, needle);
    this.findings.push(...shellCommandFindings(command, { file: this.path, line, where, automatic }));
    if (automatic) this.commands.push(command);
    const words = command.trim().split(/\s+/);
    const interpreter = words.findIndex((w) => /^(node|python[0-9.]*|bash|sh|zsh|deno|bun|tsx|ts-node)$/i.test(w.replace(/^.*[\\/]/, '')));
    const target = interpreter === -1 ? words[0] : words.slice(interpreter + 1).find((w) => !w.startsWith('-'));
    if (target === undefined) return;
    const rel = target.replace(/^["']|["']$/g, '').replace(/^(\$\{?(CLAUDE_PROJECT_DIR|workspaceFolder|PWD)\}?|\$\{workspaceFolder\})\//, '').replace(/^\.\//, '');
    if (/^[\w.@/-]+$/.test(rel) && !rel.startsWith('/') && rel.includes('.') && !rel.includes('..')) {
      this.runs.push(rel);
      if (interpreter !== -1 && DATA_EXTENSION.test(rel)) {
        this.add('obfuscation', automatic ? 'CRIT' : 'HIGH', `${where}: runs a file disguised as data (font, image, text) as code`, needle, command.slice(0, 300));
      }
    }
  }

  /** Environment variables a configuration sets for the agent or a server. */
  env(env: Record<string, unknown> | null, whose: string): void {
    for (const [name, value] of objectEntries(env)) {
      if (typeof value !== 'string' || !ENDPOINT_VARIABLE.test(name)) continue;
      if (/^NODE_OPTIONS$/i.test(name)) {
        if (/--(require|import|loader|experimental-loader)\b|(^|\s)-r\s/.test(value)) this.add('remote_code_execution', 'HIGH', `${whose} preloads code into every Node process (NODE_OPTIONS)`, name, `${name}=${value}`);
        continue;
      }
      if (/^NODE_TLS_REJECT_UNAUTHORIZED$/i.test(name)) {
        if (value.trim() === '0') this.add('credential_exposure', 'MED', `${whose} turns off TLS certificate checks`, name, `${name}=${value}`);
        continue;
      }
      const host = /^[a-z]+:\/\/([^/:?#]+)/i.exec(value.trim())?.[1] ?? '';
      if (host === '' || VENDOR_API_HOST.test(host)) continue;
      // (round s30) The agent's own API base URL, in its project settings, at a host on the internet that is neither the
      // vendor, a private network's nor a known model provider's: the key of whoever opens the repository goes there.
      // (round s30 review) A placeholder host or one under a domain the project's README or manifests name is its own: HIGH.
      const outside = whose === 'project settings' && API_BASE_VARIABLE.test(name) && foreignModelHost(value.trim()) !== null && endpointReach(urlHost(value), this.ownHosts) === 'outside';
      this.add('exfiltration', outside ? 'CRIT' : 'HIGH', `${whose} sends the agent's API traffic and key to another host`, name, `${name}=${value}`);
    }
  }
}

/** Claude Code's and Gemini CLI's `hooks`: `{ "<event>": [{ "matcher": …, "hooks": [{ "type": "command", "command": "…" }] }] }`. */
function eventHooks(scan: ConfigScan, config: unknown, agent: string): void {
  for (const [event, matchers] of objectEntries(objectAt(config, 'hooks'))) {
    for (const matcher of Array.isArray(matchers) ? matchers : []) {
      for (const hook of Array.isArray((matcher as { hooks?: unknown })?.hooks) ? (matcher as { hooks: unknown[] }).hooks : []) {
        const command = (hook as { command?: unknown })?.command;
        if (typeof command !== 'string') continue;
        scan.add('agent_config', 'LOW', `${agent} hook runs a command`, command, `${event}: ${command.slice(0, 250)}`);
        const ran = scan.runs.length;
        scan.command(command, `${agent} ${event} hook`, true);
        scan.hookCommands.push(command);
        scan.hookRuns.push(...scan.runs.slice(ran));
      }
    }
  }
}

/**
 * Hook files of other coding agents, whatever their layout: every `command`, `bash` or `sh` string
 * under `hooks` (Windsurf `{hooks: {pre_run_command: [{command}]}}`, Copilot `{hooks: {sessionStart:
 * [{type: "command", bash}]}}`) or a Kiro hook's `then` runs by itself on the agent's events.
 */
function otherAgentHooks(scan: ConfigScan, config: unknown): void {
  const root = objectAt(config, 'hooks') ?? objectAt(config, 'then') ?? null;
  const visit = (value: unknown, key: string, depth: number): void => {
    if (depth > 6) return;
    if (typeof value === 'string') {
      if (!/^(?:command|bash|sh|run)$/.test(key) || value.trim() === '') return;
      scan.add('agent_config', 'LOW', 'coding agent hook runs a command', value, value.slice(0, 250));
      const ran = scan.runs.length;
      scan.command(value, 'coding agent hook', true);
      scan.hookCommands.push(value);
      scan.hookRuns.push(...scan.runs.slice(ran));
    } else if (Array.isArray(value)) for (const v of value) visit(v, key, depth + 1);
    else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) visit(v, k, depth + 1);
  };
  if (root !== null) visit(root, '', 0);
}

function claudeSettings(scan: ConfigScan, config: unknown): void {
  eventHooks(scan, config, 'Claude Code');
  for (const key of ['apiKeyHelper', 'awsCredentialExport', 'awsAuthRefresh', 'otelHeadersHelper']) {
    const command = (config as Record<string, unknown>)[key];
    if (typeof command === 'string') scan.command(command, `Claude Code ${key}`, true);
  }
  const statusLine = objectAt(config, 'statusLine')?.command;
  if (typeof statusLine === 'string') scan.command(statusLine, 'Claude Code status line', true);
  const permissions = objectAt(config, 'permissions');
  if (permissions?.defaultMode === 'bypassPermissions') {
    scan.add('excessive_permissions', 'HIGH', 'project settings turn off the coding agent’s permission prompts', 'bypassPermissions', 'permissions.defaultMode: bypassPermissions');
  }
  const broad = strings(permissions?.allow).filter((rule) => /^(Bash|Bash\(\*(:\*)?\)|Bash\((curl|wget|sh|bash|python3?|node)[ :]\*?\))$/.test(rule.trim()));
  if (broad.length > 0) scan.add('excessive_permissions', 'MED', 'project settings let the coding agent run any shell command without asking', broad[0]!, broad.join(', '));
  if ((config as Record<string, unknown>).enableAllProjectMcpServers === true) {
    scan.add('excessive_permissions', 'MED', 'project settings approve every MCP server the repository declares', 'enableAllProjectMcpServers', 'enableAllProjectMcpServers: true');
  }
  scan.env(objectAt(config, 'env'), 'project settings');
}

function vscodeSettings(scan: ConfigScan, config: unknown): void {
  for (const [key, value] of objectEntries(config)) {
    // Embrace The Red / CVE-2025-53773: a prompt injection that sets this gets shell commands run unasked.
    if (/^chat\.tools\.(global\.)?autoApprove$/.test(key) && value === true) {
      scan.add('excessive_permissions', 'HIGH', 'workspace settings let the coding agent run tools without asking', key, `${key}: true`);
    }
    if (/^chat\.tools\.terminal\.autoApprove$|^github\.copilot\.chat\.agent\.terminal\.allowList$/.test(key)) {
      const everything = objectEntries(value).some(([pattern, allowed]) => allowed === true && /^\/\.\*\/?[a-z]*$|^\*$|^(curl|wget|bash|sh|rm)$/.test(pattern));
      if (everything) scan.add('excessive_permissions', 'HIGH', 'workspace settings let the coding agent run any terminal command without asking', key, key);
    }
    if (/^terminal\.integrated\.env\.(linux|osx|windows)$/.test(key)) scan.env(value as Record<string, unknown>, 'workspace settings');
    for (const [name, url] of flatStrings(value, key)) {
      if (!AI_EXTENSION_KEY.test(name) || foreignModelHost(url.trim()) === null) continue;
      scan.add('exfiltration', endpointReach(urlHost(url), scan.ownHosts) === 'outside' ? 'CRIT' : 'HIGH', 'workspace settings send an AI extension’s prompts to another host', name.slice(name.lastIndexOf('.') + 1), `${name}: ${url}`);
    }
    if (typeof value === 'string' && COMMAND_LINE_SETTING.test(key)) scan.command(value, `VS Code setting ${key}`, true, key);
    const programs = typeof value === 'string' && EXECUTABLE_SETTING.test(key) ? [value] : TOOL_MAP_SETTING.test(key) ? objectEntries(value).map(([, v]) => v) : [];
    for (const program of programs) {
      const target = typeof program === 'string' ? workspaceRelativeTarget(program) : null;
      if (target !== null) scan.executables.push({ key, target, line: lineOfText(scan.text, `"${key}"`) });
    }
  }
}

const INLINE_DOWNLOAD_RUN = /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^|;\n]*\|\s*(?:sudo\s+)?(?:(?:ba|z|da)?sh|python[\d.]*|node|iex|Invoke-Expression)\b|\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:iex|Invoke-Expression)\b[^\n]*\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b/i;

function mcpServers(scan: ConfigScan, servers: Record<string, unknown> | null, autoApproved: boolean): void {
  for (const [name, server] of objectEntries(servers)) {
    const spec = server as Record<string, unknown>;
    const command = typeof spec?.command === 'string' ? spec.command : null;
    const args = strings(spec?.args);
    scan.env(objectAt(server, 'env'), `MCP server "${name}"`);
    const url = typeof spec?.url === 'string' ? spec.url : typeof spec?.serverUrl === 'string' ? spec.serverUrl : null;
    if (url !== null && downloadSource(`curl ${url}`) === 'anonymous') {
      scan.add('exfiltration', 'MED', 'MCP server reached over plain HTTP, an IP address or an anonymous tunnel', url, `${name}: ${url}`);
    }
    // A remote server sent a vendor's credential in its headers (or its URL) on a host that is not the vendor's:
    // the token for GitHub goes to whoever runs that host (in-sample: held-out set 16).
    if (url !== null) {
      const leak = vendorCredentialToForeignHost(url, objectAt(server, 'headers') ?? objectAt(server, 'requestInit'));
      if (leak !== null) scan.add('exfiltration', 'HIGH', `remote MCP server is sent a ${leak.vendor} credential on a host that is not ${leak.vendor}'s`, leak.variable, `${name}: ${url} (${leak.variable})`);
    }
    if (command === null) continue;
    const line = [command, ...args].join(' ');
    // The whole disk handed to a server (a filesystem server's allowed directory `/`): every file the user can read.
    const root = args.find((a) => /^(?:\/|[A-Za-z]:[\\/]?)$/.test(a.trim()));
    if (root !== undefined) scan.add('excessive_permissions', 'MED', 'MCP server is given the whole filesystem (the root directory)', args[0] ?? command, `${name}: ${line.slice(0, 200)}`);
    const base = command.replace(/^.*[\\/]/, '');
    const inline = INLINE_SCRIPT.test(base) ? args.findIndex((a) => INLINE_FLAG.test(a)) : -1;
    if (inline !== -1) {
      const script = args.slice(inline + 1).join(' ');
      scan.add('remote_code_execution', autoApproved ? 'HIGH' : 'MED', 'MCP server entry runs an inline script instead of a server program', script || command, `${name}: ${line.slice(0, 250)}`);
      // An entry that is nothing but a loader: it fetches code and runs it each time the client
      // starts its servers, from wherever the host serves next (not an official installer's host).
      // Saved to a file first and that file run (`curl -o /tmp/.b URL && sh /tmp/.b; exec npx …`) is the same loader.
      if ((INLINE_DOWNLOAD_RUN.test(script) || downloadedFileRun(script) !== null) && downloadSource(script) !== 'official') {
        scan.add('remote_code_execution', 'CRIT', 'MCP server entry is an inline script that downloads code and runs it', script, `${name}: ${line.slice(0, 250)}`);
      }
      // A client starts its servers every time it loads the project, once they are approved.
      scan.command(script, `MCP server "${name}"`, true, script || command);
    } else {
      scan.command(line, `MCP server "${name}"`, true, args[0] ?? command);
    }
    if (PACKAGE_LAUNCHER.test(base)) {
      const pkg = args.find((a) => !a.startsWith('-') && !/^(x|dlx|run|exec|tool)$/.test(a));
      const bare = pkg?.replace(/^(@[^/@]+\/[^@]+|[^@]+)@.*$/, '$1');
      const ecosystem = /^(uvx|pipx|uv)$/i.test(base) ? 'pypi' : 'npm';
      const squat = bare === undefined ? null : typosquatOf(bare, ecosystem);
      // A scoped name is never a squat of a popular package by typosquatOf; near a well-known MCP server's it is one.
      const imitates = squat?.imitates ?? (bare === undefined ? null : mcpServerLookalike(bare, ecosystem));
      if (imitates !== null && bare !== undefined) {
        scan.add('typosquat', 'HIGH', 'MCP server started from a package named like a popular one (likely typosquat)', pkg!, `${bare} (like ${imitates})`);
      }
      // Whatever the name resolves to at the next start gets the credentials: an unpinned package
      // (no version, or a tag such as `latest`) handed tokens or cloud keys in `env`. Listed, not
      // judged here: a committed `.mcp.json` starting an official server with `npx -y` and a token
      // is the usual setup, so only a caller that can tell documented from undocumented credentials
      // (the skills agent, for a plugin) makes a finding of it.
      const secrets = credentialVariables(objectAt(server, 'env'));
      if (pkg !== undefined && secrets.length > 0 && !pinnedPackage(pkg, ecosystem, args)) {
        scan.unpinnedCredentials.push({ server: name, names: secrets, line: lineOfText(scan.text, pkg), evidence: `${name}: ${line.slice(0, 200)} (env: ${secrets.join(', ')})` });
      }
    }
  }
}

// Credentials named for a vendor, and the hosts that vendor serves from. A credential without a vendor's
// name (`API_KEY`, `REPO_INDEX_TOKEN`) is the remote server's own and is not judged.
const VENDOR_CREDENTIALS: ReadonlyArray<{ vendor: string; name: RegExp; hosts: RegExp }> = [
  { vendor: 'GitHub', name: /^(?:GITHUB|GH)_\w*(?:TOKEN|PAT|KEY|SECRET)\b|^GITHUB_PERSONAL_ACCESS_TOKEN$/i, hosts: /(?:^|\.)(?:github\.com|githubcopilot\.com|githubusercontent\.com|ghe\.com)$/i },
  { vendor: 'GitLab', name: /^GITLAB_\w*(?:TOKEN|KEY|SECRET)\b/i, hosts: /(?:^|\.)gitlab\.com$|^gitlab\./i },
  { vendor: 'OpenAI', name: /^OPENAI_\w*(?:KEY|TOKEN)\b/i, hosts: /(?:^|\.)openai\.com$/i },
  { vendor: 'Anthropic', name: /^(?:ANTHROPIC|CLAUDE)_\w*(?:KEY|TOKEN)\b/i, hosts: /(?:^|\.)(?:anthropic\.com|claude\.ai)$/i },
  { vendor: 'AWS', name: /^AWS_(?:SECRET_ACCESS_KEY|ACCESS_KEY_ID|SESSION_TOKEN)$/i, hosts: /(?:^|\.)(?:amazonaws\.com|aws\.dev|amazon\.com)$/i },
  { vendor: 'npm', name: /^NPM_\w*TOKEN\b/i, hosts: /(?:^|\.)npmjs\.(?:org|com)$/i },
  { vendor: 'Slack', name: /^SLACK_\w*(?:TOKEN|SECRET)\b/i, hosts: /(?:^|\.)slack\.com$/i },
  { vendor: 'Hugging Face', name: /^(?:HF|HUGGINGFACE|HUGGING_FACE)_\w*(?:TOKEN|KEY)\b/i, hosts: /(?:^|\.)(?:huggingface\.co|hf\.co)$/i },
  { vendor: 'Stripe', name: /^STRIPE_\w*(?:KEY|SECRET)\b/i, hosts: /(?:^|\.)stripe\.com$/i },
];
const LOCAL_HOST = /^(?:localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0|host\.docker\.internal)$/i;

/** The first vendor-named credential (`${GITHUB_TOKEN}`, `${env:GH_PAT}`) a remote server's headers or URL carry to a host that is not that vendor's. */
export function vendorCredentialToForeignHost(url: string, headers: Record<string, unknown> | null): { vendor: string; variable: string } | null {
  const host = /^[a-z]+:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^/:?#]+)/i.exec(url.trim())?.[1]?.toLowerCase() ?? '';
  if (host === '' || LOCAL_HOST.test(host)) return null;
  const values = [url, ...flatStrings(headers).map(([, v]) => v)];
  for (const value of values) {
    for (const m of value.matchAll(/\$\{(?:env:)?([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)|\{env:([A-Za-z_]\w*)\}/g)) {
      const variable = m[1] ?? m[2] ?? m[3] ?? '';
      const vendor = VENDOR_CREDENTIALS.find((v) => v.name.test(variable));
      if (vendor !== undefined && !vendor.hosts.test(host)) return { vendor: vendor.vendor, variable };
    }
  }
  return null;
}

export const UNPINNED_MCP_CREDENTIALS_TITLE = 'MCP server started from an unpinned package is handed credentials in its environment';
// Environment variable names that carry a credential, and values that point at a credentials file.
const CREDENTIAL_NAME = /(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|PAT|API_?KEY|ACCESS_KEY(?:_ID)?|SECRET_ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?|AUTH)(?:_|$)|^(?:AWS|AZURE|GOOGLE|GCP|GH|GITHUB|GITLAB|NPM|OPENAI|ANTHROPIC)_[A-Z_]*(?:KEY|TOKEN|SECRET|CREDENTIALS)/i;
const CREDENTIAL_FILE = /(?:^|[\\/])(?:\.aws|\.ssh|\.config[\\/]gcloud|\.kube|\.docker|\.npmrc|\.netrc|\.git-credentials)(?:[\\/]|$)|application_default_credentials\.json/i;

/** Names of the `env` entries of a server that carry credentials. */
export function credentialVariables(env: Record<string, unknown> | null): string[] {
  return objectEntries(env).filter(([k, v]) => typeof v === 'string' && v.trim() !== '' && (CREDENTIAL_NAME.test(k) || CREDENTIAL_FILE.test(v))).map(([k]) => k);
}

/** An exact version: `name@1.2.3` (npm), `name==1.2.3` / `name@1.2.3` / `--from name==1.2.3` (PyPI). Tags and ranges are not. */
export function pinnedPackage(pkg: string, ecosystem: 'npm' | 'pypi', args: readonly string[]): boolean {
  const exact = /^v?\d+(?:\.\d+)*(?:[-+.][\w.]+)?$/;
  if (ecosystem === 'npm') {
    const at = pkg.lastIndexOf('@');
    return at > 0 && exact.test(pkg.slice(at + 1));
  }
  const spec = [pkg, ...args.filter((a, i) => args[i - 1] === '--from')];
  return spec.some((s) => { const m = /(?:==|@)\s*([^\s,;]+)$/.exec(s); return m !== null && exact.test(m[1]!); });
}

const TASK_FETCHES = /https?:\/\/|\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|urlopen|urlretrieve|requests\.get|bitsadmin|certutil)\b/i;
const TASK_RUNS = /\beval\b|\bexec\b|\bInvoke-Expression\b|\biex\b|\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\bnew\s+Function\b|\bvm\.run\w*|\b(?:ba)?sh\s+-c\b|\bchmod\s+\+x\b|\bStart-Process\b|\b(?:node|python3?|pwsh|powershell)\s+-(?:e|c|Command|EncodedCommand|enc)\b[^\n]*\b(?:require|import|exec|eval|spawn|system)\b/i;

function vscodeTasks(scan: ConfigScan, config: unknown): void {
  const tasks = Array.isArray((config as { tasks?: unknown })?.tasks) ? ((config as { tasks: unknown[] }).tasks) : [];
  for (const task of tasks) {
    const spec = task as Record<string, unknown>;
    if (objectAt(spec, 'runOptions')?.runOn !== 'folderOpen') continue;
    const presentation = objectAt(spec, 'presentation');
    const hidden = presentation !== null && (presentation.reveal === 'never' || presentation.echo === false || presentation.close === true) ;
    const label = typeof spec.label === 'string' ? spec.label : '(unnamed)';
    const commands: string[] = [];
    for (const variant of [spec, objectAt(spec, 'windows'), objectAt(spec, 'linux'), objectAt(spec, 'osx')]) {
      const command = variant?.command;
      if (typeof command === 'string') commands.push([command, ...strings(variant?.args)].join(' '));
    }
    // An npm task (`"type": "npm", "script": "watch"`) runs the manifest's script of that name.
    if (spec.type === 'npm' && typeof spec.script === 'string') commands.push(`npm run ${spec.script}`);
    scan.add('agent_config', hidden ? 'MED' : 'LOW', hidden ? 'VS Code task runs hidden when the folder is opened' : 'VS Code task runs when the folder is opened', 'folderOpen', `${label}: ${commands[0]?.slice(0, 250) ?? ''}`);
    // Opening the folder is all it takes: a task that fetches code and evaluates or pipes it runs a payload
    // on every machine that opens the repository (CRIT when it also hides its output).
    const payload = commands.find((c) => TASK_FETCHES.test(c) && TASK_RUNS.test(c));
    if (payload !== undefined) scan.add('remote_code_execution', hidden ? 'CRIT' : 'HIGH', 'VS Code task downloads and runs code when the folder is opened', 'folderOpen', `${label}: ${payload.slice(0, 250)}`);
    for (const command of commands) scan.command(command, 'VS Code task run on folder open', true, command.split(' ')[0]);
  }
}

// Host files and directories that hold credentials, as a dev container mount's source names them.
const HOST_SECRET = /^(?:\$\{localEnv:(?:HOME|USERPROFILE)\}|\$\{env:HOME\}|~|\$HOME)[\\/](\.ssh|\.aws|\.kube|\.azure|\.docker|\.gnupg|\.config[\\/](?:gcloud|gh)|\.npmrc|\.pypirc|\.netrc|\.git-credentials)\b/;
const SENDER = /\b(curl|wget|nc|ncat|scp|rsync)\b/;

/** `{source, target}` of each bind mount a devcontainer.json declares (`mounts` strings and objects, `runArgs` -v / --mount). */
function devcontainerMounts(config: unknown): { source: string; target: string }[] {
  const out: { source: string; target: string }[] = [];
  const fromSpec = (spec: string) => {
    const fields = Object.fromEntries(spec.split(',').map((kv) => kv.split('=').map((x) => x.trim()) as [string, string]));
    const source = fields.source ?? fields.src;
    const target = fields.target ?? fields.destination ?? fields.dst;
    if (source !== undefined && target !== undefined) out.push({ source, target });
  };
  const mounts = (config as { mounts?: unknown })?.mounts;
  for (const m of Array.isArray(mounts) ? mounts : []) {
    if (typeof m === 'string') fromSpec(m);
    else if (typeof (m as { source?: unknown })?.source === 'string' && typeof (m as { target?: unknown })?.target === 'string') out.push({ source: (m as { source: string }).source, target: (m as { target: string }).target });
  }
  const args = strings((config as { runArgs?: unknown })?.runArgs);
  args.forEach((arg, i) => {
    const volume = /^(?:-v|--volume)(?:=(.+))?$/.exec(arg);
    const mount = /^--mount(?:=(.+))?$/.exec(arg);
    const value = volume?.[1] ?? mount?.[1] ?? (volume !== null || mount !== null ? args[i + 1] : undefined);
    if (value === undefined) return;
    if (mount !== null) return fromSpec(value);
    const [source, target] = value.split(/:(?=[/~$])/);
    if (source !== undefined && target !== undefined) out.push({ source, target: target.replace(/:(ro|rw|z|Z)$/, '') });
  });
  return out;
}

function devcontainer(scan: ConfigScan, config: unknown): void {
  // initializeCommand runs on the host before the container exists; the others run inside it.
  const inside: string[] = [];
  for (const key of ['initializeCommand', 'onCreateCommand', 'updateContentCommand', 'postCreateCommand', 'postStartCommand', 'postAttachCommand']) {
    const value = (config as Record<string, unknown>)?.[key];
    const commands = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.values(value).flatMap((v) => [strings(v).join(' ')]) : [strings(value).join(' ')];
    for (const command of commands) {
      if (command.trim() === '') continue;
      // Every lifecycle command runs without anyone choosing to run it ("Reopen in Container"), and
      // inside the container the editor forwards the user's git credentials and SSH agent: as
      // automatic as an agent's hook or an MCP server entry.
      scan.command(command, `dev container ${key}`, true, command.split(' ')[0]);
      if (key !== 'initializeCommand') inside.push(command);
    }
  }
  scan.env(objectAt(config, 'containerEnv'), 'dev container');
  // A credential mount is the source; a container command that names the mounted path and a network tool is the sink.
  for (const { source, target } of devcontainerMounts(config)) {
    const secret = HOST_SECRET.exec(source.trim());
    if (secret === null) continue;
    const needle = source.trim().slice(0, 60);
    scan.add('credential_access', 'MED', 'dev container mounts the host’s credentials into the container', needle, `${source} -> ${target}`);
    const sent = inside.find((command) => command.includes(target.replace(/\/+$/, '')) && SENDER.test(command));
    if (sent !== undefined) scan.add('exfiltration', 'HIGH', 'dev container sends the host credentials it mounts over the network', sent.split(/["'\\]/)[0]!.slice(0, 40), sent.slice(0, 300));
  }
}

// Settings of AI extensions that name the endpoint they send prompts to (Copilot's `debug.overrideProxyUrl` /
// `overrideCAPIUrl`, Cline's and Roo's `openAiBaseUrl`, Continue's `apiBase`, a provider's `baseUrl`).
const AI_EXTENSION_KEY = /(?:copilot|continue|cline|roo|claude|codex|gemini|openai|anthropic|chatgpt|genie|codegpt|twinny|tabnine|cody)[\w.-]*\.(?:[\w.-]*\.)?(?:[\w]*proxyUrl|overrideCAPIUrl|\w*baseUrl|apiBase|apiUrl|\w*Endpoint)$/i;

/** `[key, value]` of every string in a settings object, nested keys joined with `.`. */
function flatStrings(value: unknown, prefix = '', depth = 0): Array<[string, string]> {
  if (typeof value === 'string') return [[prefix, value]];
  if (depth > 4 || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => flatStrings(v, prefix === '' ? k : `${prefix}.${k}`, depth + 1));
}

function codexConfig(scan: ConfigScan): void {
  // A model provider whose `base_url` is a relay, handed the vendor's key (`env_key = "OPENAI_API_KEY"`).
  const endpoint = foreignEndpoints(scan.text)[0];
  if (endpoint !== undefined) scan.add('exfiltration', endpointReach(endpoint.host, scan.ownHosts) === 'outside' ? 'CRIT' : 'HIGH', 'project settings send the agent’s API traffic and key to another host', endpoint.url, `${endpoint.name} = ${endpoint.url}`);
  const never = /^\s*approval_policy\s*=\s*["']never["']/m.exec(scan.text);
  const full = /^\s*sandbox_mode\s*=\s*["']danger-full-access["']/m.exec(scan.text);
  if (never && full) scan.add('excessive_permissions', 'HIGH', 'project settings turn off the coding agent’s approvals and sandbox', 'approval_policy', `${never[0].trim()}; ${full[0].trim()}`);
}

/**
 * Findings of an IDE or coding-agent configuration file: commands it runs by itself (Claude Code
 * hooks, VS Code tasks run on folder open, dev container commands, MCP server commands), settings
 * that turn off an agent's confirmations or send its API key elsewhere, and MCP servers started from
 * look-alike packages or inline scripts.
 */
export function agentConfigFindings(path: string, text: string, kind: AgentConfigKind, ownHosts: readonly string[] = []): AgentConfigResult {
  const scan = new ConfigScan(path, text, ownHosts);
  if (kind === 'codex-config') {
    codexConfig(scan);
    return scan;
  }
  const config = parseJsonc(text);
  if (config === null) return scan;
  if (kind === 'claude-settings') claudeSettings(scan, config);
  else if (kind === 'vscode-settings') vscodeSettings(scan, config);
  else if (kind === 'vscode-tasks') vscodeTasks(scan, config);
  else if (kind === 'devcontainer') devcontainer(scan, config);
  else if (kind === 'gemini-settings') {
    mcpServers(scan, objectAt(config, 'mcpServers'), false);
    eventHooks(scan, config, 'Gemini CLI');
  } else if (kind === 'agent-hooks') otherAgentHooks(scan, config);
  else mcpServers(scan, objectAt(config, 'mcpServers') ?? objectAt(config, 'servers'), false);
  return scan;
}
