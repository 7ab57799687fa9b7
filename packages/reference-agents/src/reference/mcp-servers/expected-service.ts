import { registrableDomain, vendorOfEnvName } from '../packages/package-identity.js';
import { CREDENTIAL_ENV, hasVendor, LOCAL_HOST, vendorHost } from './credential-vendors.js';
import { TRACKING_HOST } from './effect-patterns.js';

/**
 * The service a tool is expected to talk to: the one its server is named for (`new McpServer({ name:
 * 'github' })`, `FastMCP("GitHub")`), the one its description names ("Create a task in Asana"), or the
 * one whose credential the request presents (a GITHUB_TOKEN to api.github.com). A GitHub server's
 * "Create a new issue" posts the issue to GitHub: that is the tool's job, not a hidden send. A host
 * named for tracking or collection is never expected this way, and a hyphenated look-alike
 * (`github-stats.example`) is not the service.
 */

// Words of a server's name that name no service.
const GENERIC_WORD = /^(?:mcp|server|servers|tools?|api|apis|the|client|official|community|plus|pro|lite|next|model|context|protocol|local|remote|simple|my|app|bot|agent|assistant|helper|integration|connector|bridge|service|v\d+|node|py|python|js|ts)$/;
const SERVER_NAME = /\b(?:McpServer|Server|FastMCP|FastMcp|MCPServer)\s*\(\s*(?:\{[^}]{0,300}?\bname\s*:\s*|name\s*=\s*)?(['"`])([^'"`\n]{2,80})\1/g;

// Every tool of a file asks for its server's words: read them once per file.
let lastWords: { text: string; words: string[] } | null = null;

/** The words of the names the file gives its MCP server(s), less the generic ones. */
export function serverServiceWords(text: string): string[] {
  if (lastWords !== null && lastWords.text === text) return lastWords.words;
  const words = serverWordsOf(text);
  lastWords = { text, words };
  return words;
}

function serverWordsOf(text: string): string[] {
  const words = new Set<string>();
  for (const m of text.matchAll(SERVER_NAME)) {
    for (const w of m[2]!.toLowerCase().split(/[^a-z0-9]+/)) if (w.length >= 3 && !GENERIC_WORD.test(w)) words.add(w);
    if (words.size >= 8) break;
  }
  return [...words];
}

/** The host is the service a word names: its registrable domain's first label is the word (or starts with it), with no hyphen. */
export function hostNamedBy(host: string, word: string): boolean {
  const label = registrableDomain(host).split('.')[0] ?? '';
  const w = word.toLowerCase();
  return !label.includes('-') && label.length >= 3 && (label === w || (w.length >= 4 && label.startsWith(w)));
}

/**
 * The services a description names: words written as names are (capitalised or camel-cased, not
 * the first word of a sentence: "Create a task in Asana", "List Jira issues", "GitHub"), lowercased.
 * A verb or noun that opens a sentence ("Format this text") names no service.
 */
export function namedServices(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.slice(0, 4000).matchAll(/(^|[.!?:;\n]\s*|\s)([A-Z][A-Za-z0-9]{3,}|[a-z]{1,20}[A-Z][A-Za-z0-9]*)\b/g)) {
    // At a sentence's start only a word capitalised inside ("GitHub") is a name.
    const sentenceStart = m[1] === '' || /[.!?:;\n]/.test(m[1]!);
    if (sentenceStart && !/[A-Z]/.test(m[2]!.slice(1))) continue;
    const w = m[2]!.toLowerCase();
    if (!GENERIC_WORD.test(w)) out.add(w);
    if (out.size >= 40) break;
  }
  return [...out];
}

/** The host is exactly the service a word names (its registrable domain's first label). */
export function hostIs(host: string, word: string): boolean {
  return (registrableDomain(host).split('.')[0] ?? '') === word;
}

/**
 * A request to the service the server is named for, or one presenting a credential of the host's own
 * service (or, the host not known, a credential of the service the server is named for).
 */
export function expectedService(host: string | null, credentials: readonly string[], serverWords: readonly string[]): boolean {
  if (host !== null) {
    if (LOCAL_HOST.test(host) || TRACKING_HOST.test(host)) return false;
    return serverWords.some((w) => hostNamedBy(host, w)) || credentials.some((e) => hasVendor(e) && vendorHost(host, e));
  }
  return credentials.some((e) => {
    const vendor = vendorOfEnvName(e)?.vendor;
    return vendor !== undefined && serverWords.some((w) => w === vendor || w.startsWith(vendor));
  });
}

/** A credential sent to a known host that is not its service: what the handler read leaves with it. */
export function credentialElsewhere(host: string | null, credentials: readonly string[]): boolean {
  return host !== null && !LOCAL_HOST.test(host) && credentials.some((e) => hasVendor(e) && !vendorHost(host, e));
}

/** Names of environment variables a JavaScript or Python expression reads one by one, and whether it takes the whole environment. */
export function environmentReads(code: string, language: 'javascript' | 'python'): { credentials: string[]; whole: boolean; config: boolean } {
  const named = language === 'python'
    ? /\b(?:os\.)?(?:environ\.get|getenv|environ\.setdefault)\s*\(\s*f?['"]([^'"]+)['"]|\b(?:os\.)?environ\s*\[\s*['"]([^'"]+)['"]\s*\]/g
    : /\bprocess\.env(?:\.([A-Za-z_]\w*)|\[\s*['"`]([^'"`]+)['"`]\s*\])/g;
  const names = [...code.matchAll(named)].map((m) => (m[1] ?? m[2])!);
  const rest = code.replace(named, ' ');
  const whole = language === 'python' ? /\benviron\b|\bgetenv\b/.test(rest) : /\bprocess\.env\b/.test(rest);
  const credentials = names.filter((n) => CREDENTIAL_ENV.test(n));
  return { credentials, whole, config: names.length > credentials.length };
}
