import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { registrableDomain, vendorOfEnvName } from '../packages/package-identity.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { localImports, type ReadModule } from './module-constants.js';

/**
 * A service credential from the environment (`GITHUB_PERSONAL_ACCESS_TOKEN`, `SLACK_BOT_TOKEN`,
 * `OPENAI_API_KEY`) put into a request header to a fixed host that is not that service (GitHub MCP
 * impersonation, 2025: the token, base64'd, goes to a "usage" host from a helper module on the first
 * call). The server's SDK client sends the token to its own API; a "telemetry" or "usage" call has no
 * use for it. Read across modules: the entry file holds the variable and hands it to an imported
 * function, whose parameter lands in a header there. A host named like the vendor but on another
 * domain (`github-mcp.example`) is not the vendor.
 */
export const SECRET_ENV = /(?:TOKEN|_KEY|SECRET|_PAT|PASSWORD|CREDENTIALS?)$/i;
/** Services whose API domain is not spelled like the variable's first word. */
const ALIASES: Readonly<Record<string, RegExp>> = { hf: /^(?:huggingface|hf)$/, huggingface: /^(?:huggingface|hf)$/, gh: /^github/, gemini: /^google/, cf: /^cloudflare/, ms: /^microsoft/, gcp: /^google/ };
const JS_ENV = /process\.env(?:\.([A-Z][A-Z0-9_]+)|\[\s*['"]([A-Z][A-Z0-9_]+)['"]\s*\])/g;
const PY_ENV = /os\.(?:environ\.get|getenv|environ\[)\s*\(?\s*['"]([A-Z][A-Z0-9_]+)['"]/g;
const JS_NET = /\bfetch\s*\(|\baxios\b|\bhttps?\.request\s*\(|\bgot\s*\(|\bundici\b|\bky\s*\(|\bsuperagent\b/;
const PY_NET = /\brequests\.(?:get|post|put|request)\s*\(|\bhttpx\.|\burlopen\s*\(|\baiohttp\b|\burllib3\b/;
const URL_HOST = /https?:\/\/([A-Za-z0-9.-]+\.[A-Za-z]{2,})(?=[:/'"`\s]|$)/g;

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

/** The host's domain is the variable's service: its first label is the vendor's (`api.github.com`, `githubusercontent.com`), never a look-alike with a hyphen. */
export function vendorHost(host: string, env: string): boolean {
  const v = vendorOfEnvName(env);
  if (v === null) return true;
  const label = registrableDomain(host).split('.')[0] ?? '';
  if (label.includes('-')) return false;
  return (ALIASES[v.vendor]?.test(label) ?? false) || label.startsWith(v.vendor) || v.host.test(label);
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

export async function credentialForeignHostFindings(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean): Promise<AgentFinding[]> {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python') return [];
  const holders = envHolders(text, language);
  const direct = envNames(text, language);
  if (holders.size === 0 && direct.length === 0) return [];
  // The same module: a held variable or the environment read itself in a header to a fixed host.
  const hosts = fixedHosts(text, language);
  if (hosts.length > 0 && hosts.length <= 3) {
    for (const [name, envs] of holders) {
      const env = envs.find((e) => !hosts.some((h) => vendorHost(h, e)));
      if (env !== undefined && inHeader(text, name)) return [finding(file, lineAt(text, text.search(new RegExp(String.raw`headers?\b[^;\n]{0,120}\b${name.replace(/\$/g, '\\$')}\b`))), env, hosts, '')];
    }
  }
  // The same module: the environment read (or a variable holding it) inside the arguments of a request
  // whose address is a fixed host that is not the credential's service: `fetch(INGEST, { body:
  // JSON.stringify({ env: { NOTION_TOKEN: process.env.NOTION_TOKEN } }) })` beside the Notion client
  // (in-sample: a "metrics" module batching every tool call with the token, held-out set 20).
  const inBody = bodyFinding(file, text, language, holders);
  if (inBody !== null) return [inBody];
  // Another module: a function imported from it is handed the variable, and its parameter lands in a header there.
  for (const [local, [module, exported]] of localImports(file, text, language, exists)) {
    const l = local.replace(/\$/g, '\\$');
    for (const call of text.matchAll(new RegExp(String.raw`(?<![\w$.])${l}\s*\(`, 'g'))) {
      const args = callArguments(text, call.index + call[0].length - 1).map((a) => a.trim());
      const index = args.findIndex((a) => holders.has(a) || envNames(a, language).length > 0);
      if (index < 0) continue;
      const envs = holders.get(args[index]!) ?? envNames(args[index]!, language);
      const other = await read(module);
      if (other === null) continue;
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
