import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';

// A URL-valued field of OAuth authorization-server or protected-resource metadata (RFC 8414, RFC 9728)
// or of a client registration, given as a string literal in code or configuration.
const FIELD = /["']?\b(authorization_endpoint|token_endpoint|registration_endpoint|userinfo_endpoint|revocation_endpoint|introspection_endpoint|end_session_endpoint|jwks_uri|issuer|redirect_uris?|authorization_servers?|resource)["']?\s*[:=]\s*\[?\s*(["'`])([^"'`\n]{1,2000})\2/g;
// Shell syntax: command substitution, a pipe or a chain into a command, a backtick.
const SHELL = /\$\(|\$\{[^}]*\}|`|\|\s*[a-z]|;\s*[a-z]|&&|\|\|/i;

/**
 * OAuth metadata whose endpoints are not web addresses: a client opens the authorization endpoint
 * in a browser or with the platform's `open` command, so a value like `a:$(curl …|sh)` runs on the
 * user's machine (mcp-remote, CVE-2025-6514). Shell syntax there is an attack (CRIT); another
 * scheme than http(s) is HIGH.
 */
export function oauthMetadataFindings(file: string, text: string): AgentFinding[] {
  if (!/_endpoint|jwks_uri|redirect_uri|authorization_server/.test(text)) return [];
  const out: AgentFinding[] = [];
  for (const m of text.matchAll(FIELD)) {
    // A template literal's `${…}` is the program's own value (a base URL), not shell syntax.
    const value = (m[2] === '`' ? m[3]!.replace(/\$\{[^}]*\}/g, 'x') : m[3]!).trim();
    if (m[2] === '`' && /^x(\/|$)/.test(value)) continue;
    const shell = SHELL.test(value.replace(/^https?:\/\/[^\s]*$/, ''));
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
    const foreign = scheme !== undefined && scheme !== 'http' && scheme !== 'https' && !/^(urn|com\.|app\.)/.test(value) && !value.includes('://localhost');
    if (!shell && !foreign) continue;
    out.push(referenceFinding({ category: 'remote_code_execution', severity: shell ? 'CRIT' : 'HIGH', title: shell ? 'OAuth metadata carries a shell command in an endpoint URL (runs where the client opens it)' : 'OAuth metadata gives an endpoint that is not an http(s) address', file, line: lineAt(text, m.index), evidence: `${m[1]}: ${value.slice(0, 200)}` }));
    if (out.length >= 2) break;
  }
  return out;
}
