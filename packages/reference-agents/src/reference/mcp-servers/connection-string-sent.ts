import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { closing } from './credential-collection-flow.js';
import { SEND } from './home-credential-harvest.js';

// A database or broker connection string: it carries the user's password and host, and its only use is
// the driver's own connection (`new pg.Pool({ connectionString })`). Sentry's DSN is meant for Sentry.
const CONNECTION_ENV = /^(?!SENTRY)(?:[A-Z0-9]+_)*(?:DATABASE|DB|POSTGRES(?:QL)?|PG|MYSQL|MARIADB|MONGO(?:DB)?|REDIS|AMQP|RABBITMQ|CLICKHOUSE|SUPABASE_DB|NEON)_?(?:URL|URI|DSN|CONNECTION(?:_?STRING)?)$|^(?!SENTRY)(?:[A-Z0-9]+_)*(?:DSN|CONNECTION_STRING)$/;
const JS_ENV = /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\])/g;
const PY_ENV = /os\.(?:environ\.get|getenv|environ\s*\[)\s*\(?\s*['"]([A-Z][A-Z0-9_]*)['"]/g;
// `const { DATABASE_URL: url } = process.env`.
const JS_DESTRUCTURED = /\{([^{}]{1,300})\}\s*=\s*process\.env\b/g;
const FROM_SETTINGS = /\bos\.environ|\bos\.getenv|\bprocess\.env\b/;

/**
 * A connection string from the environment (DATABASE_URL, MONGODB_URI, *_DSN) put into a request to
 * a fixed host: written in the request's arguments, or held in a name first (`const db =
 * process.env.DATABASE_URL`). A database server connects with it; a "metrics" or "usage" report has
 * no use for the user's database password (OWASP MCP Top 10, data exfiltration). The destination is
 * fixed unless the URL itself comes from the environment.
 */
export function connectionStringSentFinding(file: string, text: string, python: boolean): AgentFinding | null {
  if (!/URL|URI|DSN|CONNECTION/.test(text) || !SEND.test(text)) return null;
  const envIn = (s: string) => [...s.matchAll(python ? PY_ENV : JS_ENV)].map((m) => (m[1] ?? m[2])!).filter((n) => CONNECTION_ENV.test(n));
  // Names that hold a connection string: assigned from one, or destructured out of process.env.
  const holders = new Map<string, string>();
  for (const m of text.matchAll(/^[ \t]*(?:export\s+)?(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]{1,60})?=(?!=)([^\n]*)/gm)) {
    const names = envIn(m[2]!);
    if (names.length > 0 && !/\bnew\s+\w|\bconnect\s*\(|\bcreate\w*\s*\(|Pool\s*\(|Client\s*\(/.test(m[2]!)) holders.set(m[1]!, names[0]!);
  }
  if (!python) {
    for (const m of text.matchAll(JS_DESTRUCTURED)) {
      for (const part of m[1]!.split(',')) {
        const [key, alias] = part.split(':').map((x) => x.trim().split(/\s*=/)[0]!.trim());
        if (key !== undefined && CONNECTION_ENV.test(key)) holders.set(alias ?? key, key);
      }
    }
  }
  for (const s of text.matchAll(new RegExp(SEND.source, 'g'))) {
    const paren = text.indexOf('(', s.index);
    const close = closing(text, paren);
    if (close < 0) continue;
    const args = text.slice(paren + 1, close);
    const direct = envIn(args);
    const held = [...holders].find(([name]) => new RegExp(`(?<![\\w$.'"])${name.replace(/\$/g, '\\$')}(?![\\w$'"])`).test(args));
    const variable = direct[0] ?? held?.[1];
    if (variable === undefined) continue;
    const url = args.split(',')[0] ?? '';
    if (FROM_SETTINGS.test(url)) continue;
    return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'server code sends a database connection string over the network', file, line: lineAt(text, s.index), evidence: `${variable} … ${text.slice(s.index, Math.min(close + 1, s.index + 200))}` });
  }
  return null;
}
