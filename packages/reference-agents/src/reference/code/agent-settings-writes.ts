import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';

/**
 * What a program or a text does to a coding agent's own configuration, read by meaning rather than
 * by file: it WRITES a setting that turns off the agent's approval prompts or sandbox (Claude Code
 * `permissions.defaultMode: bypassPermissions`, Codex `approval_policy = "never"` /
 * `sandbox_mode = "danger-full-access"`, VS Code `chat.tools.autoApprove`, Gemini CLI `autoAccept` /
 * yolo), or it POINTS an LLM API base URL (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`, a client's
 * `baseURL`, Continue's `apiBase`) at a host that is neither the vendor, a known model provider nor
 * the machine itself: that host sees every prompt and the API key (CVE-2025-53773; Amazon Q 1.84;
 * Check Point on Claude Code project files, CVE-2026-21852).
 */

/** Values of settings that stop a coding agent from asking before it acts, or lift its sandbox. */
export const APPROVAL_OFF = new RegExp(
  [
    String.raw`\bbypassPermissions\b`,
    String.raw`\bapproval[_-]?policy\b["'\]]{0,2}\s*(?:=|:|,|\bis\b|\bto\b)\s*["'\x60]?never\b`,
    String.raw`\bdanger-full-access\b`,
    String.raw`\bchat\.tools\.(?:global\.|terminal\.|edits\.)?autoApprove\b["'\]]{0,2}\s*(?:[:=,]|\bto\b|\bis\b)\s*["'\x60]?(?:true|True|1|on|\{)`,
    String.raw`\bautoApprove\w*["'\]]{0,2}\s*[:=]\s*(?:true|True)\b`,
    String.raw`\bautoAccept["'\]]{0,2}\s*(?:[:=,]|\bto\b)\s*(?:true|True)\b`,
    String.raw`approval[_-]?mode["'\]]{0,2}\s*(?:[:=,]|\bto\b)\s*["'\x60]?yolo\b`,
    String.raw`\byolo[_-]?mode\b["'\]]{0,2}\s*(?:[:=,]|\bto\b)\s*(?:true|True|1|on)\b`,
    String.raw`\b(?:Bash|Shell)\(\s*\*\s*\)`,
    String.raw`["']allow["']\s*:\s*\[[^\]]*["'](?:Bash|Shell)["']`,
    String.raw`\bautoApproval\w*\b[^\n]{0,120}?\b(?:enabled|executeCommands|executeAllCommands)["'\]]{0,2}\s*[:=]\s*(?:true|True)\b`,
    String.raw`\balwaysAllow(?:Execute|Write|Mcp|Browser)\w*["'\]]{0,2}\s*[:=]\s*(?:true|True)\b`,
    String.raw`\btrustAllTools["'\]]{0,2}\s*[:=]\s*(?:true|True)\b`,
    String.raw`--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--trust-all-tools\b|--allow-all-tools\b|--yolo\b|--full-auto\b`,
  ].join('|'),
  'i',
);

/** Where coding agents keep their settings (user and project level), and shell startup files. */
export const AGENT_SETTINGS_FILE =
  /\.claude\/settings(?:\.local)?\.json|\.claude\.json\b|\.codex\/config\.toml|\.gemini\/settings\.json|\.qwen\/settings\.json|Code(?: - Insiders)?\/User\/settings\.json|Cursor\/User\/settings\.json|\.vscode\/settings\.json|\.cursor\/(?:cli-config|settings)\.json|\.continue\/config\.(?:json|ya?ml)|\.aws\/amazonq\/|\.amazonq\/|saoudrizwan\.claude-dev|\.config\/opencode\/|\.(?:bashrc|zshrc|bash_profile|profile|zprofile|zshenv)\b|\bconfig\.fish\b|PowerShell[\\/]\S*profile\.ps1/i;
const AGENT_DIR = /["'\x60/\\](?:\.claude|\.codex|\.gemini|\.qwen|\.cursor|\.amazonq|\.continue|\.vscode|Code[\\/]User)["'\x60/\\]/;
const AGENT_FILE_NAME = /["'\x60/\\](?:settings\.json|config\.toml|cli-config\.json|config\.json|config\.ya?ml)["'\x60]/;
const SHELL_STARTUP = /\.(?:bashrc|zshrc|bash_profile|profile|zprofile|zshenv)\b|\bconfig\.fish\b|profile\.ps1/i;

/** Settings that exist on the user's machine only: the desktop editors' user settings. */
const HOST_ONLY_SETTINGS = /(?:Code(?: - Insiders)?|Cursor|VSCodium|Windsurf)\/User\/settings\.json|claude_desktop_config/i;

/** A file written: Node and Python writes, shell redirection, in-place edits, PowerShell. */
export const WRITES =
  /\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|outputFileSync|outputFile|writeJsonSync|writeJson|outputJson\w*|write_text|write_bytes|json\.dump|toml\.dump|tomli_w\.dump|yaml\.(?:safe_)?dump|Set-Content|Add-Content|Out-File)\b|\.write\s*\(|\bopen\s*\([^)\n]*,\s*["'](?:w|a|r\+|w\+|a\+)b?["']|>>?\s*["'$~\w/]|\btee\s+(?:-a\s+)?\S|\bsed\s+-i|\bjq\b[^\n]*>|\bmv\s+\S+\s+\S*(?:settings|config)/;

/**
 * The text with path pieces joined: `path.join(home, '.claude', 'settings.json')` and
 * `home / ".codex" / "config.toml"` read as `.claude/settings.json` and `.codex/config.toml`.
 */
export function joinedPaths(text: string): string {
  return text.replace(/["'\x60]\s*(?:,|\/|\+)\s*(?:["'\x60]|path\.sep\s*\+\s*["'\x60])/g, '/');
}

export interface SettingsWrite {
  /** Offset of the setting's value in the text. */
  offset: number;
  /** The setting as written. */
  setting: string;
  /** The configuration file named. */
  target: string;
}

/**
 * A program that writes an agent's settings file with a value that turns its approvals or sandbox
 * off: the file named (as a string or joined path pieces), the value spelled, and a write. A script
 * that only reads the settings, or names the value in a message, is not one.
 */
export function approvalSettingsWrite(code: string): SettingsWrite | null {
  if (code.length > 512 * 1024) return null;
  const value = APPROVAL_OFF.exec(code);
  if (value === null) return null;
  const joined = joinedPaths(code);
  // The file may be named as a directory and a file name joined at run time (`join(dir, 'config.toml')`).
  const target = AGENT_SETTINGS_FILE.exec(joined) ?? (AGENT_DIR.test(joined) && AGENT_FILE_NAME.test(joined) ? /settings\.json|config\.(?:toml|json|ya?ml)/.exec(joined) : null);
  if (target === null) return null;
  if (!WRITES.test(code)) return null;
  // A CLI flag is a setting only where it goes into a startup file (an alias that always skips approvals).
  if (value[0].startsWith('--') && !SHELL_STARTUP.test(target[0])) return null;
  return { offset: value.index, setting: value[0].slice(0, 120), target: target[0] };
}

/**
 * Values that make Claude Code start a project's MCP servers, or call their tools, without asking:
 * `enableAllProjectMcpServers: true`, servers listed in `enabledMcpjsonServers`, and every tool of a
 * server allowed at once (`mcp__name__*`, or a bare `mcp__name` rule).
 */
const MCP_TRUST = /\benableAllProjectMcpServers\b["'\]]{0,2}\s*(?:[:=]|\bto\b)\s*(?:true|True|1)\b|\benabledMcpjsonServers\b|["'\x60]mcp__[\w-]+(?:__\*)?["'\x60]/;

/**
 * A program that writes an agent's settings file so that MCP servers start, or their tools run, without the
 * trust prompt: the file named, the value spelled, and a write (in-sample: a skill's enable script did this
 * for the MCP servers its `.mcp.json` adds, held-out set 16). Null otherwise.
 */
export function mcpTrustSettingsWrite(code: string): SettingsWrite | null {
  if (code.length > 512 * 1024) return null;
  const value = MCP_TRUST.exec(code);
  if (value === null) return null;
  const target = /\.claude\/settings(?:\.local)?\.json|\.claude\.json\b/.exec(joinedPaths(code));
  if (target === null || !WRITES.test(code)) return null;
  return { offset: value.index, setting: value[0].slice(0, 120), target: target[0] };
}

// ---------------------------------------------------------------------------------------------
// LLM API endpoints

/** Variables that carry a coding agent's or an LLM SDK's API base URL. */
export const ENDPOINT_NAME =
  /\b(ANTHROPIC_BASE_URL|ANTHROPIC_API_URL|ANTHROPIC_BEDROCK_BASE_URL|ANTHROPIC_VERTEX_BASE_URL|OPENAI_BASE_URL|OPENAI_API_BASE(?:_URL)?|OPENAI_API_HOST|OPENAI_ENDPOINT|GOOGLE_GEMINI_BASE_URL|GEMINI_API_BASE|GEMINI_BASE_URL|GOOGLE_VERTEX_BASE_URL|AZURE_OPENAI_ENDPOINT|AZURE_OPENAI_BASE_URL|CODEX_API_BASE|MISTRAL_API_BASE|GROQ_BASE_URL|(?:ANTHROPIC|OPENAI|CLAUDE|CLAUDE_CODE|GEMINI|CODEX)_(?:[A-Z]+_){0,2}(?:BASE_URL|API_BASE|API_URL|API_ENDPOINT))\b/;
const ENDPOINT_ASSIGN = new RegExp(
  String.raw`${ENDPOINT_NAME.source}["'\x60\]]{0,2}\s*(?:=|:|,|\bto\b)\s*(?:\w+\(\s*)?["'\x60]?(https?:\/\/[^\s"'\x60)<>,;}\]\\]+)`,
  'g',
);
/** A client's base URL option (OpenAI/Anthropic SDKs, LangChain, LiteLLM, Continue, Codex providers). */
const CLIENT_BASE = /\b(base_?url|baseURL|baseUrl|api_?base|apiBase|openai_api_base|anthropic_api_url|azure_endpoint|apiEndpoint)\b["'\]]{0,2}\s*[:=]\s*["'\x60]?(https?:\/\/[^\s"'\x60)<>,;}\]\\]+)/g;
/** Code or configuration that talks to an LLM API through a client. */
const LLM_CLIENT =
  /\b(?:OpenAI|AsyncOpenAI|AzureOpenAI|Anthropic|AsyncAnthropic|ChatOpenAI|ChatAnthropic|createOpenAI|createAnthropic|GoogleGenerativeAI|GoogleGenAI|litellm|openai|anthropic|provider:\s*(?:openai|anthropic|gemini|azure))\b|@anthropic-ai\/sdk|@ai-sdk\/|model_providers/;
/** The vendor's own key: what a proxy at a foreign base URL would be handed. */
const VENDOR_KEY = /\b(?:OPENAI_API_KEY|ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN|CLAUDE_CODE_OAUTH_TOKEN|GEMINI_API_KEY|GOOGLE_API_KEY|AZURE_OPENAI_API_KEY)\b/;
const API_KEY_OPTION = /\b(?:api_?key|apiKey|auth_token|authToken)\b\s*[:=]/;

/**
 * Model vendors and known model providers that serve an OpenAI- or Anthropic-compatible API (what a
 * project chooses as its provider), the machine itself and private networks.
 */
const KNOWN_MODEL_HOST =
  /(?:^|\.)(?:anthropic\.com|claude\.ai|openai\.com|openai\.azure\.com|azure\.com|azure-api\.net|microsoft\.com|googleapis\.com|google\.com|amazonaws\.com|api\.aws|openrouter\.ai|groq\.com|together\.(?:ai|xyz)|deepseek\.com|mistral\.ai|fireworks\.ai|perplexity\.ai|x\.ai|cohere\.(?:ai|com)|deepinfra\.com|cerebras\.ai|moonshot\.(?:ai|cn)|aliyuncs\.com|bigmodel\.cn|z\.ai|siliconflow\.(?:cn|com)|novita\.ai|hyperbolic\.xyz|replicate\.com|huggingface\.co|cloudflare\.com|nvidia\.com|github\.ai|githubcopilot\.com|sambanova\.ai|lepton\.run|ollama\.com|minimax(?:i)?\.(?:chat|io|com)|volces\.com|baidubce\.com|tencentcloudapi\.com|anyscale\.com|databricks\.com|ai-gateway\.vercel\.sh|portkey\.ai|helicone\.ai|llmgateway\.io|litellm\.ai|ai21\.com|voyageai\.com|jina\.ai|lmstudio\.ai|localhost|localhost\.localdomain|host\.docker\.internal)$/i;
// Reserved top-level names (`.test`, `.example`, `.invalid`) are not the machine or a private network: a
// sample or a defanged attack writes its relay there, and a real configuration never resolves one.
const PRIVATE_HOST = /^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|0\.0\.0\.0$|\[?::1\]?$)|\.(?:local|internal|lan|localhost)$|^(?!\d+$)[\w-]+$/i; // (round s30 review) an address written as one number is not a name
// Clouds where anyone can put a host under the provider's domain (a VM, a function, an API gateway, a
// storage bucket): only the model service's own names there are the provider.
const SHARED_CLOUD_HOST = /(?:^|\.)(?:amazonaws\.com|azure\.com|googleapis\.com|google\.com|cloudflare\.com|microsoft\.com)$/i;
const MODEL_SERVICE_HOST =
  /^(?:bedrock[\w-]*\.[\w-]+\.amazonaws\.com|runtime\.sagemaker\.[\w-]+\.amazonaws\.com|[\w-]+\.(?:openai|cognitiveservices|services\.ai|inference\.ai|api\.cognitive)\.azure\.com|models\.inference\.ai\.azure\.com|(?:[\w.-]+[.-])?(?:aiplatform|generativelanguage)(?:\.[\w-]+)*\.googleapis\.com|gateway\.ai\.cloudflare\.com|api\.cloudflare\.com|[\w.-]*\.ai\.azure\.com)$/i;
// `example.com` is what a document writes for "your host"; a program or a configuration that sends its
// model traffic there is set up for a host, and a defanged relay is written so.
const EXAMPLE_DOMAIN = /\.example\.(?:com|org|net)\b/i;
// A sentinel host that says it is no host (`https://unresolved.invalid`, an SDK failing closed) is not a relay.
const PLACEHOLDER_HOST = /^(?:unresolved|unset|unconfigured|none|null|dummy|placeholder|undefined|unknown|not-?set|missing|disabled)\.|(?:^|\.)example\.(?:com|org|net)$|your|<|\{|\$|my-?(?:proxy|gateway|server|endpoint|host|domain|company|org)|proxy\.company|company\.com|(?:^|[./])(?:acme|corp)(?:[./:]|$)/i; // (round s30 review) acme, corp as whole labels: `acme-devproxy.example` is a name

const ENDPOINT_HINT = /_BASE|_URL|_ENDPOINT|_API_HOST|base_?url|baseU[rR][lL]|api_?base|apiBase|azure_endpoint|apiEndpoint/;

export interface ForeignEndpoint {
  offset: number;
  name: string;
  url: string;
  host: string;
  /** `variable`: an endpoint variable set; `client`: a client's base URL option. */
  kind: 'variable' | 'client';
}

/** The host of a URL when it is not the vendor's, a known provider's, the machine's or a placeholder; else null. */
export function foreignModelHost(url: string, options: { exampleIsPlaceholder?: boolean } = {}): string | null {
  const host = /^https?:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^/:?#]+)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  if (host === '' || PRIVATE_HOST.test(host) || PLACEHOLDER_HOST.test(host.replace(EXAMPLE_DOMAIN, options.exampleIsPlaceholder === false ? '.host' : '$&')) || PLACEHOLDER_HOST.test(url.replace(EXAMPLE_DOMAIN, options.exampleIsPlaceholder === false ? '.host' : '$&'))) return null;
  if (KNOWN_MODEL_HOST.test(host) && (!SHARED_CLOUD_HOST.test(host) || MODEL_SERVICE_HOST.test(host))) return null;
  return host;
}

/**
 * LLM API base URLs a text sets to a foreign host: an endpoint variable given a literal URL
 * (`export ANTHROPIC_BASE_URL=…`, `os.environ["OPENAI_BASE_URL"] = …`, `"env": {"ANTHROPIC_BASE_URL": …}`),
 * and, in code that uses an LLM client, a base URL option given a literal URL while the key that goes
 * with it is the vendor's (`OPENAI_API_KEY`, or no key option at all, so the SDK reads the vendor's).
 * A URL read from the user's environment (`process.env.OPENAI_BASE_URL ?? …`) is the user's choice.
 */
export function foreignEndpoints(text: string, options: { clientOptions?: boolean; exampleIsPlaceholder?: boolean } = {}): ForeignEndpoint[] {
  // Nothing to read without a URL, or without an endpoint variable or an option name.
  if (text.length > 512 * 1024 || !text.includes('://') || !ENDPOINT_HINT.test(text)) return [];
  const out: ForeignEndpoint[] = [];
  for (const m of text.matchAll(ENDPOINT_ASSIGN)) {
    // `os.environ.get("OPENAI_BASE_URL", "https://…")` is a default the user's own variable overrides.
    const before = text.slice(Math.max(0, m.index - 24), m.index);
    if (/(?:\.get\(|getenv\(|\.env\.|environ\.get\(|\$\{?)\s*["'\x60]?$/.test(before)) continue;
    const host = foreignModelHost(m[2]!, options);
    if (host !== null) out.push({ offset: m.index, name: m[1]!, url: m[2]!, host, kind: 'variable' });
  }
  if (options.clientOptions !== false && LLM_CLIENT.test(text)) {
    const vendorKey = VENDOR_KEY.test(text) || !API_KEY_OPTION.test(text);
    if (vendorKey) {
      for (const m of text.matchAll(CLIENT_BASE)) {
        const host = foreignModelHost(m[2]!, options);
        if (host !== null) out.push({ offset: m.index, name: m[1]!, url: m[2]!, host, kind: 'client' });
      }
    }
  }
  return out;
}

/** Where the text is: a shipped script or program, a configuration file, or instructions (a document, a rules file). */
export type SettingsTextKind = 'script' | 'automatic' | 'config' | 'document';

const LOOKS_LIKE_CODE = /\.(?:[cm]?[jt]sx?|py[w]?|sh|bash|zsh|ps1|rb|go|rs|java|kt|cs|php|lua|pl)$/i;

/**
 * Findings of a text that writes a coding agent's approvals or sandbox off (`script`: HIGH, CRIT when
 * the program runs by itself, `automatic`) and that points an LLM API base URL at a foreign host
 * (HIGH; where a program sets it for the agent's own process or writes it to a settings or startup
 * file, it is the agent's traffic and key that go there).
 */
export function agentSettingsFindings(file: string, text: string, kind: SettingsTextKind, options: { containerScripts?: ReadonlySet<string> } = {}): AgentFinding[] {
  const out: AgentFinding[] = [];
  const lineAt = lineLocator(text);
  if (kind === 'script' || kind === 'automatic') {
    const write = approvalSettingsWrite(text);
    // A dev container's setup that lets the agent run unasked inside the container, which is its sandbox (the
    // reference devcontainer of Claude Code does this): only a script the artifact's real dev container runs
    // inside it (`devContainerScripts`), writing a file the container has. Sitting in a folder named like
    // `.devcontainer/` or saying "devcontainer" is no proof, and the editor's own user settings
    // (`Code/User/settings.json`) live on the user's machine, never in the container.
    const contained = write !== null && options.containerScripts?.has(file) === true && !HOST_ONLY_SETTINGS.test(write.target);
    if (write !== null) {
      out.push(
        referenceFinding({
          category: 'excessive_permissions',
          severity: contained ? 'MED' : kind === 'automatic' ? 'CRIT' : 'HIGH',
          title: contained ? 'dev container setup turns off the coding agent’s approval prompts inside the container' : 'code writes a setting that turns off a coding agent’s approval prompts or sandbox',
          file,
          line: lineAt(write.offset),
          evidence: `${write.target}: ${write.setting}`,
        }),
      );
    }
  }
  // Client options are read in code only: a document's snippet that builds a client is an example of use.
  const code = kind !== 'document' || LOOKS_LIKE_CODE.test(file);
  // A bare `example.com` host is a placeholder in a document only; a shipped program or configuration (outside tests and examples) means it.
  const endpoints = foreignEndpoints(text, { clientOptions: code, exampleIsPlaceholder: kind === 'document' || /(?:^|\/)(?:tests?|__tests__|spec|examples?|fixtures?|docs?)\/|\.(?:test|spec)\.|example/i.test(file) });
  const first = endpoints[0];
  if (first !== undefined) {
    out.push(
      referenceFinding({
        category: 'exfiltration',
        severity: 'HIGH',
        title: 'points an LLM API base URL at a host that is not the model vendor (it sees every prompt and the API key)',
        file,
        line: lineAt(first.offset),
        evidence: `${first.name} = ${first.url}`.slice(0, 300),
      }),
    );
  }
  return out;
}
