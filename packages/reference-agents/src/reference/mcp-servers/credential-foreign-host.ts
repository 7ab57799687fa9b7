import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { vendorOfEnvName } from '../packages/package-identity.js';
import { hasVendor, LOCAL_HOST, SECRET_ENV, vendorHost } from './credential-vendors.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { localImports, type ReadModule } from './module-constants.js';
import { fileService, type CredentialSend } from './credential-send.js';
import { jsCredentialArguments, jsCredentialSends } from './credential-sends.js';
import { pythonCredentialArguments, pythonCredentialSends } from './python-credential-sends.js';
import { codeLiterals } from './code-literals.js';

// (Kept here for the readers that import them from this module.)
export { SECRET_ENV, vendorHost } from './credential-vendors.js';

/**
 * A service credential from the environment (`GITHUB_PERSONAL_ACCESS_TOKEN`, `SLACK_BOT_TOKEN`,
 * `OPENAI_API_KEY`) put into a request header to a fixed host that is not that service (GitHub MCP
 * impersonation, 2025: the token, base64'd, goes to a "usage" host from a helper module on the first
 * call). The server's SDK client sends the token to its own API; a "telemetry" or "usage" call has no
 * use for it. Read across modules: the entry file holds the variable and hands it to an imported
 * function, whose parameter lands in a header there. A host named like the vendor but on another
 * domain (`github-mcp.example`) is not the vendor.
 */
const JS_ENV = /process\.env(?:\.([A-Z][A-Z0-9_]+)|\[\s*['"]([A-Z][A-Z0-9_]+)['"]\s*\])/g;
const PY_ENV = /os\.(?:environ\.get|getenv|environ\[)\s*\(?\s*['"]([A-Z][A-Z0-9_]+)['"]/g;
const JS_NET = /\bfetch\s*\(|\baxios\b|\bhttps?\.request\s*\(|\bgot\s*\(|\bundici\b|\bky\s*\(|\bsuperagent\b/;
const PY_NET = /\brequests\.(?:get|post|put|request)\s*\(|\bhttpx\.|\burlopen\s*\(|\baiohttp\b|\burllib3\b/;
const URL_HOST = /https?:\/\/([A-Za-z0-9.-]+\.[A-Za-z]{2,})(?=[:/'"`\s]|$)/g;

// What a module that reads a credential holds: the environment, or a file it reads.
const READS_SECRETS = /process\.env|\benviron\b|\bgetenv\b|readFile|readJson|\bopen\(|read_text|read_bytes/;

function envNames(expr: string, language: ScriptLanguage): string[] {
  const re = language === 'python' ? PY_ENV : JS_ENV;
  return [...expr.matchAll(re)].map((m) => (m[1] ?? m[2])!).filter((n) => SECRET_ENV.test(n) && vendorOfEnvName(n) !== null);
}

/** Names assigned from secret variables of the environment: `const token = process.env.GITHUB_TOKEN || …`. */
function envHolders(text: string, language: ScriptLanguage): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const re = language === 'python' ? /^[ \t]*([A-Za-z_]\w*)\s*(?::[^=\n]+)?=(?!=)([^\n]*)/gm : /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;\n]+)?=(?!=)([^;\n]*)/g;
  for (const m of text.matchAll(re)) {
    const names = envNames(m[2]!, language);
    if (names.length > 0) out.set(m[1]!, names);
  }
  return out;
}

/** True when `name` is put into a request header (or an Authorization value) in `text`. */
function inHeader(text: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  return new RegExp(String.raw`headers?\b[^;\n]{0,120}(?<![\w$.])${n}\b|\[\s*['"][A-Za-z][\w-]*['"]\s*\]\s*=\s*[^;\n]*(?<![\w$.])${n}\b|['"](?:[Aa]uthorization|[Xx]-[\w-]+)['"]\s*:\s*[^,}\n]*(?<![\w$.])${n}\b|Bearer\s*\$?\{\s*${n}\s*\}`).test(text);
}

/** The fixed hosts a module sends to (its literal URLs), when it makes requests at all. */
function fixedHosts(text: string, language: ScriptLanguage): string[] {
  if (!(language === 'python' ? PY_NET : JS_NET).test(text)) return [];
  return [...new Set([...text.matchAll(URL_HOST)].map((m) => m[1]!.toLowerCase()))].filter((h) => !/^(?:localhost|127\.|0\.0\.0\.0)/.test(h) && !/(?:^|\.)(?:w3\.org|json-schema\.org|schema\.org)$/.test(h));
}

/** Parameter names of `name`'s definition in a module. */
export function parameters(text: string, name: string, language: ScriptLanguage): string[] | null {
  const n = name.replace(/\$/g, '\\$');
  const m = language === 'python'
    ? new RegExp(String.raw`\bdef\s+${n}\s*\(([^)]*)\)`).exec(text)
    : new RegExp(String.raw`\bfunction\s*\*?\s*${n}\s*\(([^)]*)\)|\b${n}\s*=\s*(?:async\s*)?(?:function\s*)?\(([^)]*)\)`).exec(text);
  if (m === null) return null;
  return (m[1] ?? m[2] ?? '').split(',').map((p) => p.trim().replace(/^\*+/, '').split(/[:=\s]/)[0]!.trim());
}

/** Top-level comma-separated arguments of the call whose `(` is at `open`. */
export function callArguments(text: string, open: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length && i < open + 2000; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth === 0) {
        out.push(text.slice(start, i));
        return out;
      }
    } else if (c === ',' && depth === 1) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function finding(file: string, line: number, env: string, hosts: string[], via: string): AgentFinding {
  return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'A service credential from the environment is sent in a request header to a host that is not its service', file, line, evidence: `${env} → ${hosts.slice(0, 2).join(', ')}${via}` });
}

export async function credentialForeignHostFindings(file: string, source: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean): Promise<AgentFinding[]> {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python') return [];
  if (!READS_SECRETS.test(source)) return [];
  // The pattern rules read the code without its comments: a URL or an assignment in a comment is prose,
  // and would otherwise name a host (or a vendor's) the code never sends to (round s28 review).
  const { code: text, literals } = codeLiterals(source, language);
  const holders = envHolders(text, language);
  const direct = envNames(text, language);
  // (The tree reading below also follows `from os import environ` and credentials that name no service.)
  if (holders.size === 0 && direct.length === 0 && !READS_SECRETS.test(text)) return [];
  // Each request read on the syntax tree: what it carries, where it goes (round s28).
  const sends = treeSends(source, language, new Map());
  // The same module: a held variable or the environment read itself in a header to a fixed host.
  // (Unless the tree reading saw every request to those hosts and none carries the variable there.)
  const hosts = fixedHosts(text, language);
  if (hosts.length > 0 && hosts.length <= 3) {
    for (const [name, envs] of holders) {
      const env = envs.find((e) => !hosts.some((h) => vendorHost(h, e)));
      if (env !== undefined && inHeader(text, name) && !accountedFor(env, hosts, sends)) return [finding(file, lineAt(text, text.search(new RegExp(String.raw`headers?\b[^;\n]{0,120}\b${name.replace(/\$/g, '\\$')}\b`))), env, hosts, '')];
    }
  }
  // The same module: the environment read (or a variable holding it) inside the arguments of a request
  // whose address is a fixed host that is not the credential's service: `fetch(INGEST, { body:
  // JSON.stringify({ env: { NOTION_TOKEN: process.env.NOTION_TOKEN } }) })` beside the Notion client
  // (in-sample: a "metrics" module batching every tool call with the token, held-out set 20).
  const inBody = bodyFinding(file, text, language, holders);
  if (inBody !== null) return [inBody];
  // A request whose address the code assembles (joins, decodes, config objects, constants of other
  // modules) or hides, carrying the credential in a header, the URL or the body (round s28).
  const computed = foreignSend(sends, literals);
  if (computed !== null) return [sendFinding(file, computed.send, computed.env, '')];
  // Another module: a function imported from it is handed the variable, and its parameter lands in a header there.
  for (const [local, [module, exported]] of localImports(file, text, language, exists)) {
    const l = local.replace(/\$/g, '\\$');
    for (const call of text.matchAll(new RegExp(String.raw`(?<![\w$.])${l}\s*\(`, 'g'))) {
      const args = callArguments(text, call.index + call[0].length - 1).map((a) => a.trim());
      const index = args.findIndex((a) => holders.has(a) || envNames(a, language).length > 0);
      if (index < 0) continue;
      const envs = holders.get(args[index]!) ?? envNames(args[index]!, language);
      const raw = await read(module);
      if (raw === null) continue;
      const other = codeLiterals(raw, language).code;
      const params = parameters(other, exported === 'default' ? local : exported, language);
      const param = params?.[index];
      if (param === undefined || param === '' || !inHeader(other, param)) continue;
      const away = fixedHosts(other, language);
      if (away.length === 0 || away.length > 3) continue;
      const env = envs.find((e) => !away.some((h) => vendorHost(h, e)));
      if (env === undefined) continue;
      return [finding(module, lineAt(other, Math.max(0, other.search(new RegExp(String.raw`(?<![\w$.])${param}\b[^\n]*(?:base64|toString|btoa|b64encode)|headers?\b[^;\n]{0,120}\b${param}\b`)))), env, away, ` (handed over by ${file}:${lineAt(text, call.index)})`)];
    }
  }
  return handedOverFindings(file, source, language, read, exists);
}

const TITLES: Readonly<Record<CredentialSend['where'], string>> = {
  header: 'A service credential from the environment is sent in a request header to a host that is not its service',
  body: 'A service credential from the environment is sent in a request body to a host that is not its service',
  url: 'A service credential from the environment is sent in a request URL to a host that is not its service',
};
const HIDDEN_TITLE = 'A service credential from the environment is sent to an address the code hides (decoded at run time)';
// A header is how a token is used: a send there is reported first, then the URL, then the body.
const WHERE_ORDER: readonly CredentialSend['where'][] = ['header', 'url', 'body'];

function treeSends(text: string, language: ScriptLanguage, seeds: ReadonlyMap<string, ReadonlyMap<number, readonly string[]>>): CredentialSend[] {
  try {
    return language === 'python' ? pythonCredentialSends(text, seeds) : language === 'javascript' || language === 'typescript' ? jsCredentialSends(text, language === 'typescript', seeds) : [];
  } catch {
    // An unreadable file is left to the pattern rules.
    return [];
  }
}

/**
 * The first request carrying a credential (of `only`, when given) to a host off this machine that is
 * not the credential's service and that the code computes (not written out in it), or to an address
 * the code hides: a credential that names no service (`API_KEY`) cannot be told to go elsewhere unless
 * the address is hidden. `literals` is the module's string literals (code-literals.ts).
 */
function foreignSend(sends: readonly CredentialSend[], literals: string, only?: ReadonlySet<string>): { send: CredentialSend; env: string } | null {
  // A host written out in the file is the pattern rules' (above), tuned on real servers whose token goes to
  // a product host of its vendor (`GDRIVE_TOKEN` to googleapis.com); the tree reading adds the hosts the
  // code computes: joined, decoded, taken from another module. Written out means in a string of the code:
  // a URL in a comment is no address the code holds.
  const lower = literals.toLowerCase();
  for (const where of WHERE_ORDER) {
    for (const send of sends) {
      if (send.where !== where) continue;
      const envs = only === undefined ? send.envs : send.envs.filter((e) => only.has(e));
      if (envs.length === 0) continue;
      if (send.host !== null) {
        if (LOCAL_HOST.test(send.host) || lower.includes(`//${send.host}`)) continue;
        // A credential file's content goes to its service's host (gh's hosts.yml to GitHub) or nowhere.
        const env = envs.find((e) => {
          const service = e.startsWith('file:') ? fileService(e) : e;
          return e.startsWith('file:') ? service === null || !vendorHost(send.host!, service) : hasVendor(e) && !vendorHost(send.host!, e);
        });
        if (env !== undefined) return { send, env };
      } else if (send.hidden) return { send, env: envs[0]! };
    }
  }
  return null;
}

const FILE_TITLE = 'A credential file is sent to a host the code computes or hides';

function sendFinding(file: string, send: CredentialSend, env: string, via: string): AgentFinding {
  if (env.startsWith('file:')) return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: FILE_TITLE, file, line: send.line, evidence: `${env.slice(5)} → ${send.host ?? 'an address decoded at run time'} (${send.where})${via}` });
  const title = send.host === null ? HIDDEN_TITLE : TITLES[send.where];
  const evidence = send.host === null ? `${env} → an address decoded at run time (${send.where})${via}` : `${env} → ${send.host} (${send.where})${via}`;
  return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title, file, line: send.line, evidence });
}

/**
 * The tree reading saw a request to every host the pattern rule names, and the variable goes to
 * none of them but its own service's: a telemetry call beside the API client carries something else.
 */
function accountedFor(env: string, hosts: readonly string[], sends: readonly CredentialSend[]): boolean {
  const carrying = sends.filter((s) => s.envs.includes(env));
  if (carrying.length === 0 || carrying.some((s) => s.hidden || (s.host !== null && !vendorHost(s.host, env)))) return false;
  const seen = new Set(sends.map((s) => s.host).filter((h): h is string => h !== null));
  return hosts.every((h) => seen.has(h));
}

/**
 * A function imported from another module of the server, handed the credential (`recordUsage(name,
 * token)`), whose parameter that module sends to a host that is not the credential's service or to an
 * address it hides: read there on the tree with the parameter seeded (round s28).
 */
async function handedOverFindings(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean): Promise<AgentFinding[]> {
  const imports = localImports(file, text, language, exists);
  if (imports.size === 0) return [];
  let handed: Map<string, Map<number, string[]>>;
  try {
    handed = language === 'python' ? pythonCredentialArguments(text, new Set(imports.keys())) : jsCredentialArguments(text, language === 'typescript', new Set(imports.keys()));
  } catch {
    return [];
  }
  for (const [local, byIndex] of [...handed].slice(0, 8)) {
    const [module, exported] = imports.get(local)!;
    const other = await read(module);
    if (other === null) continue;
    const lang: ScriptLanguage = module.endsWith('.py') ? 'python' : /\.[cm]?ts$/.test(module) ? 'typescript' : 'javascript';
    const sends = treeSends(other, lang, new Map([[exported === 'default' ? local : exported, byIndex]]));
    const found = foreignSend(sends, codeLiterals(other, lang).literals, new Set([...byIndex.values()].flat()));
    if (found !== null) return [sendFinding(module, found.send, found.env, ` (handed over by ${file})`)];
  }
  return [];
}

// Requests whose first argument is the address: `fetch(url, …)`, `axios.post(url, …)`, `requests.post(url, …)`, `client.post(url, …)`.
const JS_REQUEST = /(?<![\w$.])(?:fetch|axios(?:\.(?:post|put|patch|request))?|got(?:\.(?:post|put|patch))?|ky(?:\.(?:post|put|patch))?)\s*\(/g;
const PY_REQUEST = /(?<![\w.])(?:requests|httpx|session|client|[a-z_]\w{0,20})\.(?:post|put|patch)\s*\(|(?<![\w.])urlopen\s*\(/g;

/** The hosts a request's address argument names: a URL written there, or in the constants it is built from. */
function addressHosts(text: string, address: string): string[] {
  const hosts = new Set([...address.matchAll(URL_HOST)].map((m) => m[1]!.toLowerCase()));
  for (const id of address.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    const def = new RegExp(String.raw`(?:^|[\s;])(?:(?:const|let|var)\s+)?${id.replace(/\$/g, '\\$')}\s*(?::[^=\n]+)?=(?!=)\s*([^;\n]*)`, 'm').exec(text);
    for (const m of def?.[1]?.matchAll(URL_HOST) ?? []) hosts.add(m[1]!.toLowerCase());
  }
  return [...hosts].filter((h) => !/^(?:localhost|127\.|0\.0\.0\.0)/.test(h));
}

function bodyFinding(file: string, text: string, language: ScriptLanguage, holders: ReadonlyMap<string, string[]>): AgentFinding | null {
  for (const call of text.matchAll(language === 'python' ? PY_REQUEST : JS_REQUEST)) {
    const args = callArguments(text, call.index + call[0].length - 1);
    if (args.length < 2) continue;
    // Headers are judged by the header rule above (an Authorization header is how a token is used); the body is what is carried.
    const rest = withoutHeaders(args.slice(1).join(','));
    const envs = [...envNames(rest, language)];
    for (const [name, held] of holders) if (new RegExp(String.raw`(?<![\w$.])${name.replace(/\$/g, '\\$')}\b`).test(rest)) envs.push(...held);
    if (envs.length === 0) continue;
    const hosts = addressHosts(text, args[0]!);
    if (hosts.length === 0) continue;
    const env = envs.find((e) => !hosts.some((h) => vendorHost(h, e)));
    if (env === undefined) continue;
    return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'A service credential from the environment is sent in a request body to a host that is not its service', file, line: lineAt(text, call.index), evidence: `${env} → ${hosts.slice(0, 2).join(', ')}` });
  }
  return null;
}

/** `text` less its `headers: {…}` / `headers={…}` values (balanced brackets). */
function withoutHeaders(text: string): string {
  let out = text;
  for (let guard = 0; guard < 8; guard++) {
    const m = /\bheaders\s*[:=]\s*/.exec(out);
    if (m === null) break;
    let i = m.index + m[0].length;
    let depth = 0;
    for (; i < out.length; i++) {
      const c = out[i];
      if (c === '{' || c === '(' || c === '[') depth++;
      else if (c === '}' || c === ')' || c === ']') {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) break;
    }
    out = out.slice(0, m.index) + out.slice(i);
  }
  return out;
}
