import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { vendorOfEnvName } from '../packages/package-identity.js';
import { foldGoStrings } from '../repositories/go-init-findings.js';
import { SECRET_ENV, vendorHost } from './credential-foreign-host.js';

/**
 * The Go reading of `credential-foreign-host.ts`: a service credential read from the environment
 * (`os.Getenv("GITHUB_PERSONAL_ACCESS_TOKEN")`) that reaches the body or a header of a request to a
 * fixed host that is not that service. Look-alikes of official servers written in Go (GitHub MCP
 * server impersonation, 2025) keep the API client faithful and add a "diagnostics" call whose address
 * is spelled as bytes (`string([]byte{0x68, …})`), so the strings are folded first (`foldGoStrings`).
 *
 * The credential is followed the way Go code carries it: a variable assigned from the environment, handed
 * to a constructor in another package (`github.NewClient(token)`), whose parameter is stored in a struct
 * field (`Client{token: token}`); uses of that field (`c.token`) in the constructor's package carry it.
 * A request's body is followed back through the assignments of its function (`bytes.NewReader(b)` ←
 * `json.Marshal(payload)` ← `map[string]any{"t": c.token}`). An address from the environment or a flag
 * (GitHub Enterprise hosts) is not a fixed host and is not judged.
 */

export interface GoSource {
  path: string;
  text: string;
}

const ENV_READ = /\bos\.(?:Getenv|LookupEnv)\s*\(\s*"([A-Z][A-Z0-9_]+)"\s*\)/g;
const URL_HOST = /https?:\/\/([A-Za-z0-9.-]+\.[A-Za-z]{2,})(?=[:/"`\s]|$)/g;
/** Requests and where their address and body are among the arguments. */
const REQUESTS: ReadonlyArray<{ re: RegExp; address: number; body: number }> = [
  { re: /\bhttp\.NewRequestWithContext\s*\(/g, address: 2, body: 3 },
  { re: /\bhttp\.NewRequest\s*\(/g, address: 1, body: 2 },
  { re: /\b(?:http|\w+)\.Post\s*\(/g, address: 0, body: 2 },
  { re: /\b(?:http|\w+)\.PostForm\s*\(/g, address: 0, body: 1 },
];
const MAX_FILES = 60;
const MAX_BYTES = 256 * 1024;
const MAX_HOPS = 5;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function dirOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function secretEnvs(expr: string): string[] {
  return [...expr.matchAll(ENV_READ)].map((m) => m[1]!).filter((n) => SECRET_ENV.test(n) && vendorOfEnvName(n) !== null);
}

/** Top-level comma-separated arguments of the call whose `(` is at `open`. */
function callArguments(text: string, open: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length && i < open + 4000; i++) {
    const c = text[i];
    if (c === '"' || c === '`') {
      const close = text.indexOf(c, i + 1);
      if (close > 0) i = close;
      continue;
    }
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

/** The function (top-level `func … {` to the closing `}` at column 0) around an offset. */
function enclosingFunction(text: string, at: number): string {
  const start = text.lastIndexOf('\nfunc ', at);
  const end = text.indexOf('\n}', at);
  return text.slice(start < 0 ? 0 : start, end < 0 ? text.length : end + 2);
}

/** Right-hand sides assigned to `name` in `scope`: `name := …`, `name, err := …`, `_, name = …`, `var name = …`. */
function assignmentsTo(scope: string, name: string): string[] {
  const re = new RegExp(String.raw`(?:^|[\s(;{])(?:var\s+)?(?:\w+\s*,\s*)*${escapeRe(name)}(?:\s*,\s*\w+)*(?:\s+[\w.*\[\]]+)?\s*(?::=|=(?!=))\s*([^\n;]{1,400})`, 'gm');
  return [...scope.matchAll(re)].map((m) => m[1]!);
}

/** The expression with what its names were assigned, in the same function, a few assignments deep. */
function expandedExpression(scope: string, expr: string): string {
  let text = expr;
  const seen = new Set<string>();
  let frontier = [expr];
  for (let hop = 0; hop < MAX_HOPS && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const e of frontier) {
      for (const id of e.match(/(?<![\w."])[A-Za-z_]\w*(?![\w"])/g) ?? []) {
        if (seen.has(id) || /^(?:bytes|strings|json|http|fmt|nil|true|false|map|string|any|interface|byte)$/.test(id)) continue;
        seen.add(id);
        for (const rhs of assignmentsTo(scope, id)) next.push(rhs);
      }
    }
    text += `\n${next.join('\n')}`;
    frontier = next;
  }
  return text;
}

interface Taint {
  /** Per file: names holding a credential, with the variables they hold. */
  names: Map<string, Map<string, string[]>>;
  /** Per package directory: struct fields holding a credential. */
  fields: Map<string, Map<string, string[]>>;
}

function addTo(map: Map<string, Map<string, string[]>>, key: string, name: string, envs: string[]): void {
  const inner = map.get(key) ?? new Map<string, string[]>();
  inner.set(name, [...new Set([...(inner.get(name) ?? []), ...envs])]);
  map.set(key, inner);
}

function taintOf(files: readonly GoSource[]): Taint {
  const taint: Taint = { names: new Map(), fields: new Map() };
  for (const f of files) {
    for (const m of f.text.matchAll(/(?:^|[\s(;{])(?:var\s+)?(\w+)(?:\s*,\s*\w+)?(?:\s+string)?\s*(?::=|=(?!=))\s*([^\n;]*)/gm)) {
      const envs = secretEnvs(m[2]!);
      if (envs.length > 0) addTo(taint.names, f.path, m[1]!, envs);
    }
    for (const m of f.text.matchAll(/\b(\w+)\s*:\s*([^\n,}]*os\.(?:Getenv|LookupEnv)[^\n,}]*)/g)) {
      const envs = secretEnvs(m[2]!);
      if (envs.length > 0) addTo(taint.fields, dirOf(f.path), m[1]!, envs);
    }
  }
  // A holder handed to a function: that function's parameter, and the struct fields it is stored in.
  for (const f of files) {
    for (const [name, envs] of taint.names.get(f.path) ?? new Map<string, string[]>()) {
      for (const call of f.text.matchAll(/(?<![\w.])(?:\w+\.)?(\w+)\s*\(/g)) {
        if (/^(?:func|if|for|switch|return|Getenv|LookupEnv)$/.test(call[1]!)) continue;
        const args = callArguments(f.text, call.index + call[0].length - 1).map((a) => a.trim());
        const index = args.indexOf(name);
        if (index < 0) continue;
        for (const g of files) {
          const decl = new RegExp(String.raw`^func\s+(?:\([^)]*\)\s*)?${escapeRe(call[1]!)}\s*\(([^)]*)\)`, 'm').exec(g.text);
          if (decl === null) continue;
          const params = decl[1]!.split(',').map((p) => p.trim().split(/\s+/)[0] ?? '');
          const param = params[index];
          if (param === undefined || !/^\w+$/.test(param)) continue;
          const body = enclosingFunction(g.text, decl.index + decl[0].length);
          const p = escapeRe(param);
          for (const m of body.matchAll(new RegExp(String.raw`\b(\w+)\s*:\s*${p}\b(?!\s*\()|\w+\.(\w+)\s*=\s*${p}\b`, 'g'))) addTo(taint.fields, dirOf(g.path), (m[1] ?? m[2])!, envs);
        }
      }
    }
  }
  return taint;
}

/** The variables of the environment the text carries: read there, held in a name, or in a field. */
function carried(text: string, names: ReadonlyMap<string, string[]>, fields: ReadonlyMap<string, string[]>): string[] {
  const out = secretEnvs(text);
  for (const [name, envs] of names) if (new RegExp(String.raw`(?<![\w.])${escapeRe(name)}(?!\w)`).test(text)) out.push(...envs);
  for (const [field, envs] of fields) if (new RegExp(String.raw`\.${escapeRe(field)}(?!\w)`).test(text)) out.push(...envs);
  return [...new Set(out)];
}

/** Hosts of a request's address: a URL written there, or in a definition of the package the address names. */
function addressHosts(address: string, packageTexts: readonly string[]): string[] {
  const hosts = new Set([...address.matchAll(URL_HOST)].map((m) => m[1]!.toLowerCase()));
  if (hosts.size === 0) {
    for (const id of address.match(/(?<![\w."])[A-Za-z_]\w*/g) ?? []) {
      for (const t of packageTexts) {
        for (const rhs of assignmentsTo(t, id)) {
          // An address taken from the environment or a flag is the user's, not a fixed host.
          if (/\bos\.(?:Getenv|LookupEnv)\b|\bflag\./.test(rhs)) return [];
          for (const m of rhs.matchAll(URL_HOST)) hosts.add(m[1]!.toLowerCase());
        }
      }
    }
  }
  return [...hosts].filter((h) => !/^(?:localhost|127\.|0\.0\.0\.0)/.test(h));
}

export function goCredentialSendFindings(sources: readonly GoSource[]): AgentFinding[] {
  const files = sources.filter((f) => f.text.length <= MAX_BYTES).slice(0, MAX_FILES).map((f) => ({ path: f.path, text: foldGoStrings(f.text) }));
  if (!files.some((f) => secretEnvs(f.text).length > 0)) return [];
  const taint = taintOf(files);
  const out: AgentFinding[] = [];
  for (const f of files) {
    const dir = dirOf(f.path);
    const fields = taint.fields.get(dir) ?? new Map<string, string[]>();
    const names = taint.names.get(f.path) ?? new Map<string, string[]>();
    if (fields.size === 0 && names.size === 0 && secretEnvs(f.text).length === 0) continue;
    const packageTexts = files.filter((g) => dirOf(g.path) === dir).map((g) => g.text);
    for (const kind of REQUESTS) {
      for (const call of f.text.matchAll(kind.re)) {
        const args = callArguments(f.text, call.index + call[0].length - 1);
        const address = args[kind.address];
        if (address === undefined) continue;
        const hosts = addressHosts(address, packageTexts);
        if (hosts.length === 0 || hosts.length > 3) continue;
        const scope = enclosingFunction(f.text, call.index);
        const body = args[kind.body];
        let envs = body === undefined ? [] : carried(expandedExpression(scope, body), names, fields);
        let where = 'body';
        if (envs.length === 0) {
          // Headers set on the request this call made: `req.Header.Set("X-Token", c.token)`.
          const req = /(\w+)\s*(?:,\s*\w+\s*)?:?=\s*$/.exec(f.text.slice(Math.max(0, call.index - 80), call.index))?.[1];
          const headers = req === undefined ? [] : [...scope.matchAll(new RegExp(String.raw`\b${escapeRe(req)}\.Header\.(?:Set|Add)\s*\(([^\n]*)\)`, 'g'))].map((m) => m[1]!);
          envs = carried(expandedExpression(scope, headers.join('\n')), names, fields);
          where = 'header';
        }
        const env = envs.find((e) => !hosts.some((h) => vendorHost(h, e)));
        if (env === undefined) continue;
        out.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: `A service credential from the environment is sent in a request ${where} to a host that is not its service`, file: f.path, line: lineAt(f.text, call.index), evidence: `${env} → ${hosts.slice(0, 2).join(', ')} (Go)` }));
        break;
      }
      if (out.some((o) => o.file === f.path)) break;
    }
  }
  return out;
}
