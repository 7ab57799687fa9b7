import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';

// A URL-valued field of OAuth authorization-server or protected-resource metadata (RFC 8414, RFC 9728)
// or of a client registration, as a key in code, JSON or configuration, followed by its value.
const FIELD = /["']?\b(authorization_endpoint|token_endpoint|registration_endpoint|userinfo_endpoint|revocation_endpoint|introspection_endpoint|end_session_endpoint|jwks_uri|issuer|redirect_uris?|authorization_servers?|resource)["']?\s*[:=]\s*\[?\s*/g;
// Command substitution runs wherever the text reaches a shell, URL or not.
const SUBSTITUTION = /\$\(|`/;
// A pipe or a chain into a command: shell syntax outside a plain URL.
const CHAIN = /\$\{[^}]*\}|\|\s*[a-z]|;\s*[a-z]|&&|\|\|/i;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/;
// A placeholder of the program's own (a template literal's `${…}`, an f-string's `{…}`, a name it
// cannot resolve) stands for a value the server chose, not for shell syntax.
const OWN_VALUE = '\uE000';

// A placeholder that is a bare name is kept by name (`\uE001NAME\uE002`) so its value can be looked up.
function placeholder(expression: string): string {
  const name = expression.trim();
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `\uE001${name}\uE002` : OWN_VALUE;
}

/** A string literal at `at` (JS quotes and template literals, Python prefixes and triple quotes): its text and end, or null. */
function stringAt(text: string, at: number): { value: string; end: number } | null {
  const prefix = /^[rRbBuUfF]{0,2}/.exec(text.slice(at, at + 2))?.[0] ?? '';
  let i = at + prefix.length;
  const quote = text[i];
  if (quote !== '"' && quote !== "'" && quote !== '`') return null;
  const triple = quote !== '`' && text.startsWith(quote.repeat(3), i);
  const close = triple ? quote.repeat(3) : quote;
  const template = quote === '`';
  const fString = /f/i.test(prefix);
  const raw = /r/i.test(prefix);
  i += close.length;
  let out = '';
  while (i < text.length && out.length < 4000) {
    if (text.startsWith(close, i)) return { value: out, end: i + close.length };
    const c = text[i] as string;
    if (!triple && !template && c === '\n') return null;
    if (c === '\\' && !raw) {
      out += text[i + 1] ?? '';
      i += 2;
      continue;
    }
    if (template && text.startsWith('${', i)) {
      const end = text.indexOf('}', i);
      if (end < 0) return null;
      out += placeholder(text.slice(i + 2, end));
      i = end + 1;
      continue;
    }
    if (fString && c === '{') {
      if (text[i + 1] === '{') {
        out += '{';
        i += 2;
        continue;
      }
      const end = text.indexOf('}', i);
      if (end < 0) return null;
      out += placeholder(text.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    out += c;
    i++;
  }
  return null;
}

/**
 * The text an expression evaluates to, read lexically: string literals (with the program's own
 * placeholders kept as such), `+` chains, and names bound to such a value in the same file (`AUTH =
 * …`, `const AUTH = …`) or imported from another module of the server (folded there).
 */
function valueAt(text: string, at: number, imported: ReadonlyMap<string, string> | null, depth = 0): string | null {
  let i = at;
  let out = '';
  let parts = 0;
  for (;;) {
    while (/[ \t(]/.test(text[i] ?? '')) i++;
    const literal = stringAt(text, i);
    if (literal !== null) {
      out += literal.value.replace(/\uE001([\w$]+)\uE002/g, (_, name: string) => (imported === null ? null : boundValue(text, name, imported, depth)) ?? OWN_VALUE);
      i = literal.end;
    } else {
      const name = IDENTIFIER.exec(text.slice(i, i + 200))?.[0];
      if (name === undefined) break;
      i += name.length;
      // A call (`buildUrl(x)`) is a value the server computes; its arguments are not read here.
      if (/^\s*\(/.test(text.slice(i, i + 20))) {
        out += OWN_VALUE;
        break;
      }
      out += (imported === null ? null : boundValue(text, name, imported, depth)) ?? OWN_VALUE;
    }
    parts++;
    while (/[ \t)]/.test(text[i] ?? '')) i++;
    if (text[i] !== '+' || parts > 32) break;
    i++;
  }
  return parts === 0 ? null : out;
}

function boundValue(text: string, name: string, imported: ReadonlyMap<string, string>, depth: number): string | null {
  if (imported.has(name)) return imported.get(name)!;
  if (depth >= 3 || name.includes('.')) return null;
  const escaped = name.replace(/\$/g, '\\$');
  const binding = new RegExp(`(?:^|\\n)[ \\t]*(?:export\\s+)?(?:(?:const|let|var)\\s+)?${escaped}\\s*(?::\\s*[\\w.\\[\\]|<> ]{1,60})?=(?!=)\\s*`).exec(text);
  return binding === null ? null : valueAt(text, binding.index + binding[0].length, new Map(), depth + 1);
}

/**
 * OAuth metadata whose endpoints are not web addresses: a client opens the authorization endpoint
 * in a browser or with the platform's `open` command, so a value like `a:$(curl …|sh)` runs on the
 * user's machine (mcp-remote, CVE-2025-6514). The value is followed through `+` chains, template
 * literals, f-strings and named constants (also imported ones), and read in the server's code and in
 * the metadata documents it serves (`.well-known/…`, JSON). Shell syntax there is an attack (CRIT);
 * another scheme than http(s) is HIGH.
 */
export function oauthMetadataFindings(file: string, text: string, imported: ReadonlyMap<string, string> = new Map()): AgentFinding[] {
  if (!/_endpoint|jwks_uri|redirect_uri|authorization_server/.test(text)) return [];
  const out: AgentFinding[] = [];
  for (const m of text.matchAll(FIELD)) {
    const raw = valueAt(text, m.index + m[0].length, imported);
    if (raw === null) continue;
    const value = raw.replace(/\uE000/g, 'x').trim();
    // Another scheme is judged where it is written in place; shell syntax wherever it comes from.
    const written = valueAt(text, m.index + m[0].length, null)?.replace(/\uE000/g, 'x').trim() ?? '';
    if (value === '' || value === 'x') continue;
    const plainUrl = /^(?:https?:\/\/|x\/|x$)[^\s]*$/.test(value);
    const shell = SUBSTITUTION.test(value) || (!plainUrl && CHAIN.test(value));
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(written)?.[1]?.toLowerCase();
    const foreign = scheme !== undefined && scheme !== 'http' && scheme !== 'https' && !/^(urn|com\.|app\.)/.test(written) && !written.includes('://localhost');
    if (!shell && !foreign) continue;
    out.push(referenceFinding({ category: 'remote_code_execution', severity: shell ? 'CRIT' : 'HIGH', title: shell ? 'OAuth metadata carries a shell command in an endpoint URL (runs where the client opens it)' : 'OAuth metadata gives an endpoint that is not an http(s) address', file, line: lineAt(text, m.index), evidence: `${m[1]}: ${value.slice(0, 200)}` }));
    if (out.length >= 2) break;
  }
  return out;
}
