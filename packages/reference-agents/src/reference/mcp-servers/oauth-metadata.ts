import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';

// A URL-valued field of OAuth authorization-server or protected-resource metadata (RFC 8414, RFC 9728)
// or of a client registration, as a key in code, JSON or configuration (snake_case as served, or the
// camelCase a server converts on the way out; `meta["authorization_endpoint"] =` too), followed by its
// value; a quoted name may also be followed by a comma (`params.set('authorization_endpoint', …)`).
const FIELD_NAMES = String.raw`authorization_endpoint|token_endpoint|registration_endpoint|userinfo_endpoint|revocation_endpoint|introspection_endpoint|end_session_endpoint|jwks_uri|issuer|redirect_uris?|authorization_servers?|resource|authorizationEndpoint|tokenEndpoint|registrationEndpoint|userinfoEndpoint|revocationEndpoint|introspectionEndpoint|endSessionEndpoint|jwksUri|redirectUris?|authorizationServers?`;
const FIELD = new RegExp(String.raw`["']?\b(${FIELD_NAMES})(?:["']\]?\s*(?::(?!:)|=(?!=)|,)|\s*(?::(?!:)|=(?!=)))\s*\[?\s*`, 'g');
/** Text that may hold OAuth metadata: a field name of it. */
export const OAUTH_FIELD = /_endpoint|[a-z]Endpoint\b|jwks_?[uU]ri|redirect_?[uU]ri|authorization_?[sS]erver/;
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

/** The index just past the bracket that closes the one at `open` (strings skipped), or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length && i < open + 2000; i++) {
    const literal = /["'`]/.test(text[i] ?? '') ? stringAt(text, i) : null;
    if (literal !== null) {
      i = literal.end - 1;
      continue;
    }
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

// Calls whose value is their first argument's (`new URL('…')`, `String(x)`, `str(x)`), and lookups
// whose value, when the setting is absent, is their second (`os.environ.get('X', '…')`, `getenv`).
const WRAPPER = /^(?:new\s+)?(?:URL|String|str|encodeURI|urljoin|AnyHttpUrl|AnyUrl|HttpUrl)\s*\(/;
const LOOKUP = /^(?:[A-Za-z_$][\w$]*\.)*(?:get|getenv|setdefault)\s*\(/;

/**
 * The text an expression evaluates to, read lexically: string literals (with the program's own
 * placeholders kept as such), `+` chains, names bound to such a value in the same file (`AUTH =
 * …`, `const AUTH = …`) or imported from another module of the server (folded there), wrappers
 * (`new URL('…')`, `str(…)`) by their first argument, a setting's default (`os.environ.get('X',
 * '…')`), and a fallback (`process.env.X || '…'`, `A ?? '…'`, `a or '…'`) when what comes before
 * it is a value the server cannot know (the setting is usually unset; the fallback is served).
 */
function valueAt(text: string, at: number, imported: ReadonlyMap<string, string> | null, depth = 0): string | null {
  let i = at;
  let out = '';
  let parts = 0;
  for (;;) {
    while (/[ \t(]/.test(text[i] ?? '')) i++;
    const literal = stringAt(text, i);
    const head = text.slice(i, i + 200);
    const wrapper = WRAPPER.exec(head);
    const lookup = wrapper === null ? LOOKUP.exec(head) : null;
    if (literal !== null) {
      out += literal.value.replace(/\uE001([\w$]+)\uE002/g, (_, name: string) => (imported === null ? null : boundValue(text, name, imported, depth)) ?? OWN_VALUE);
      i = literal.end;
    } else if ((wrapper !== null || lookup !== null) && depth < 4) {
      const open = i + (wrapper ?? lookup)![0].length - 1;
      const end = closing(text, open);
      if (end < 0) break;
      let from = open + 1;
      if (lookup !== null) {
        // The default: what follows the first argument's comma.
        const first = stringAt(text, from + (/^\s*/.exec(text.slice(from))?.[0].length ?? 0));
        const comma = first === null ? -1 : text.slice(first.end, end).search(/^\s*,/);
        from = first === null || comma < 0 ? -1 : first.end + text.slice(first.end).indexOf(',') + 1;
      }
      out += (from < 0 ? null : valueAt(text, from, imported, depth + 1)) ?? OWN_VALUE;
      i = end;
      // `.href`, `.toString()` of the URL is the URL.
      i += /^(?:\.href\b|\.toString\(\))?/.exec(text.slice(i))?.[0].length ?? 0;
    } else {
      let name = IDENTIFIER.exec(head)?.[0];
      if (name === undefined) break;
      i += name.length;
      // A call (`buildUrl(x)`) is a value the server computes; its arguments are not read here.
      if (/^\s*\(/.test(text.slice(i, i + 20))) {
        if (/^\s*\(\s*\)/.test(text.slice(i, i + 20)) && /\.toString$/.test(name)) {
          name = name.slice(0, -'.toString'.length);
          i = text.indexOf(')', i) + 1;
        } else {
          // A helper of the same file (`"authorization_endpoint": _auth_endpoint(request)`) serves what it returns.
          const returned = imported === null || name.includes('.') || depth >= 3 ? null : returnedValue(text, name, depth);
          out += returned ?? OWN_VALUE;
          if (returned === null) break;
          i = closing(text, i + (/^\s*/.exec(text.slice(i))?.[0].length ?? 0));
          if (i < 0) break;
          name = '';
        }
      }
      if (name !== '') out += (imported === null ? null : boundValue(text, name.replace(/\.href$/, ''), imported, depth)) ?? OWN_VALUE;
    }
    parts++;
    while (/[ \t)]/.test(text[i] ?? '')) i++;
    const fallback = /^(?:\|\||\?\?|or\b)/.exec(text.slice(i, i + 3));
    if (fallback !== null && out.replace(/\uE000/g, '').trim() === '') {
      // What came before is unknown: the fallback is the value.
      out = '';
      i += fallback[0].length;
      continue;
    }
    if (text[i] !== '+' || parts > 32) break;
    i++;
  }
  return parts === 0 ? null : out;
}

function boundValue(text: string, name: string, imported: ReadonlyMap<string, string>, depth: number): string | null {
  if (imported.has(name)) return imported.get(name)!;
  if (depth >= 3 || name.includes('.')) return null;
  const escaped = name.replace(/\$/g, '\\$');
  // Every assignment of the name counts (`let authz = base + "/authorize"; if (…) authz = "a:$(…)"`): the
  // value a client may get is any of them, so one that is not a web address is the one to judge.
  let first: string | null = null;
  for (const binding of text.matchAll(new RegExp(`(?:^|[\\n;{)]|\\belse\\b)[ \\t]*(?:export\\s+)?(?:(?:const|let|var)\\s+)?${escaped}\\s*(?::\\s*[\\w.\\[\\]|<> ]{1,60})?=(?!=)\\s*`, 'g'))) {
    const value = valueAt(text, binding.index + binding[0].length, new Map(), depth + 1);
    if (value === null) continue;
    first ??= value;
    if (!/^\s*(?:https?:\/\/|\uE000|\/)/.test(value)) return value;
  }
  return first;
}

/**
 * What a function defined in the same file returns (`def _auth_endpoint(request): … return f"a:$(…)"`,
 * `function authEndpoint(req) { … return \`…\` }`), read as `boundValue` reads a name: every
 * `return` counts, and one that is not a web address is the one to judge (the branch a client of
 * one platform gets). Null when the file defines no such function or it returns nothing readable.
 */
function returnedValue(text: string, name: string, depth: number): string | null {
  const escaped = name.replace(/\$/g, '\\$');
  const def = new RegExp(`^([ \\t]*)(?:async\\s+)?def\\s+${escaped}\\s*\\(|(?:^|[\\n;{}])[ \\t]*(?:export\\s+)?(?:async\\s+)?function\\s*\\*?\\s*${escaped}\\s*\\(`, 'm').exec(text);
  if (def === null) return null;
  let body: string;
  const start = def.index + def[0].length;
  if (def[1] !== undefined) {
    // To the next line indented no deeper than the `def`.
    const indent = (def[1] ?? '').length;
    const lines = text.slice(start).split('\n');
    let end = lines[0]!.length;
    for (const line of lines.slice(1)) {
      if (line.trim() !== '' && /^[ \t]*/.exec(line)![0].length <= indent) break;
      end += line.length + 1;
    }
    body = text.slice(start, start + end);
  } else {
    const open = text.indexOf('{', closing(text, start - 1));
    const end = open < 0 ? -1 : closing(text, open);
    if (end < 0) return null;
    body = text.slice(open, end);
  }
  let first: string | null = null;
  for (const r of body.matchAll(/\breturn\s+/g)) {
    // Names the function binds are looked up in the whole file (a local `enc = …` is assigned there too).
    const value = valueAt(body, r.index + r[0].length, new Map(), depth + 1);
    if (value === null) continue;
    const resolved = value.replace(/\uE001([\w$]+)\uE002/g, (_, n: string) => boundValue(text, n, new Map(), depth + 1) ?? OWN_VALUE);
    first ??= resolved;
    if (!/^\s*(?:https?:\/\/|\uE000|\/)/.test(resolved)) return resolved;
  }
  return first;
}

// Schemes whose URL opens a local file or program, or runs script, where the client hands it to the
// desktop's opener (`file:/c:/windows/system32/calc.exe`, `search-ms:`, `ms-msdt:`, `javascript:`).
const RUNNING_SCHEME = /^(?:file|javascript|vbscript|data|search-ms|search|ms-[\w-]+|smb|cifs|nfs|jar|shell)$/;
// A command line or a program rather than an address: a shell or launcher named first, a Windows
// or UNC path, a file with a program's extension.
const COMMAND_VALUE = /^(?:(?:cmd|powershell|pwsh|bash|sh|zsh|calc|open|xdg-open|start|rundll32|mshta|wscript|cscript|regsvr32|curl|wget|python3?|node|osascript)(?:\.exe)?(?:\s|$)|[a-z]:\\|\\\\)|\.(?:exe|bat|cmd|com|ps1|vbs|scr|lnk|hta|msi|jar|sh|app|command)(?:\s|$)/i;

/**
 * OAuth metadata whose endpoints are not web addresses: a client opens the authorization endpoint
 * in a browser or with the platform's `open` command, so a value like `a:$(curl …|sh)` runs on the
 * user's machine (mcp-remote, CVE-2025-6514). The value is followed through `+` chains, template
 * literals, f-strings, named constants (also imported ones), `new URL(…)`, a setting's default and a
 * fallback after `||`/`??`/`or`, and read in the server's code and in the metadata documents it
 * serves (`.well-known/…`, JSON, YAML: `plain` reads an unquoted value to the end of its line).
 * Shell syntax, a command line or a program, or a scheme that opens a local file or runs script is
 * an attack (CRIT); another scheme than http(s) is HIGH.
 */
export function oauthMetadataFindings(file: string, text: string, imported: ReadonlyMap<string, string> = new Map(), plain = false): AgentFinding[] {
  if (!OAUTH_FIELD.test(text)) return [];
  const out: AgentFinding[] = [];
  // `resource` is a protected-resource field only beside the rest of that document (an MCP resource is another thing).
  const protectedResource = /authorization_?[sS]ervers|oauth-protected-resource/.test(text);
  for (const m of text.matchAll(FIELD)) {
    if (m[1] === 'resource' && !protectedResource) continue;
    const at = m.index + m[0].length;
    // A YAML or TOML scalar written without quotes: the rest of the line.
    // `${AUTH_BASE}` there is the loader's placeholder for a setting, not shell syntax.
    const scalar = plain && !/["'`]/.test(text[at] ?? '') ? (/^[^\n#]*/.exec(text.slice(at))?.[0] ?? '').trim().replace(/\$\{\w+\}/g, OWN_VALUE) : null;
    const raw = scalar !== null && scalar !== '' ? scalar : valueAt(text, at, imported);
    if (raw === null) continue;
    const value = raw.replace(/\uE000/g, 'x').trim();
    // Another scheme is judged where it is written in place; shell syntax wherever it comes from.
    const written = scalar !== null && scalar !== '' ? scalar : (valueAt(text, at, null)?.replace(/\uE000/g, 'x').trim() ?? '');
    if (value === '' || value === 'x') continue;
    const plainUrl = /^(?:https?:\/\/|x\/|x$)[^\s]*$/.test(value);
    const command = !plainUrl && !value.startsWith('/') && COMMAND_VALUE.test(value);
    const shell = SUBSTITUTION.test(value) || (!plainUrl && CHAIN.test(value));
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(written)?.[1]?.toLowerCase();
    const foreign = scheme !== undefined && scheme !== 'http' && scheme !== 'https' && !/^(urn|com\.|app\.)/.test(written) && !written.includes('://localhost');
    // A scheme that opens a file or a program counts wherever the value comes from (a constant, `new URL(…)`).
    const resolvedScheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase() ?? '';
    const running = command || RUNNING_SCHEME.test(resolvedScheme) || /^[a-z]$/.test(resolvedScheme);
    if (!shell && !foreign && !running) continue;
    const title = shell
      ? 'OAuth metadata carries a shell command in an endpoint URL (runs where the client opens it)'
      : running
        ? 'OAuth metadata gives an endpoint that opens a local file or program (runs where the client opens it)'
        : 'OAuth metadata gives an endpoint that is not an http(s) address';
    out.push(referenceFinding({ category: 'remote_code_execution', severity: shell || running ? 'CRIT' : 'HIGH', title, file, line: lineAt(text, m.index), evidence: `${m[1]}: ${value.slice(0, 200)}` }));
    if (out.length >= 2) break;
  }
  return out;
}
