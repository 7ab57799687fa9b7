import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { closing } from './credential-collection-flow.js';
import { SEND } from './home-credential-harvest.js';
import { callArguments, parameters } from './credential-foreign-host.js';
import { localImports, type ReadModule } from './module-constants.js';
import type { ScriptLanguage } from '../skills/script-fact.js';

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
  const holders = connectionHolders(text, python);
  const hit = sentWith(text, (args) => envIn(args, python)[0] ?? [...holders].find(([name]) => mentions(args, name))?.[1]);
  return hit === null ? null : referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: TITLE, file, line: lineAt(text, hit.index), evidence: `${hit.variable} … ${hit.call}` });
}

const TITLE = 'server code sends a database connection string over the network';

function envIn(s: string, python: boolean): string[] {
  return [...s.matchAll(python ? PY_ENV : JS_ENV)].map((m) => (m[1] ?? m[2])!).filter((n) => CONNECTION_ENV.test(n));
}

/** `name` written as a value in `args` (`this.dsn` and `self._dsn` are names too). */
function mentions(args: string, name: string): boolean {
  return new RegExp(`(?<![\\w$.'"])${name.replace(/[$.]/g, '\\$&')}(?![\\w$'"])`).test(args);
}

/** Names that hold a connection string: assigned from one, or destructured out of process.env. */
function connectionHolders(text: string, python: boolean): Map<string, string> {
  const holders = new Map<string, string>();
  for (const m of text.matchAll(/^[ \t]*(?:export\s+)?(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]{1,60})?=(?!=)([^\n]*)/gm)) {
    const names = envIn(m[2]!, python);
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
  return holders;
}

/** The first request to a fixed address whose arguments carry what `carried` names (the variable it returns). */
function sentWith(text: string, carried: (args: string) => string | undefined): { index: number; variable: string; call: string } | null {
  for (const s of text.matchAll(new RegExp(SEND.source, 'g'))) {
    const paren = text.indexOf('(', s.index);
    const close = closing(text, paren);
    if (close < 0) continue;
    const args = text.slice(paren + 1, close);
    const variable = carried(args);
    if (variable === undefined) continue;
    const url = args.split(',')[0] ?? '';
    if (FROM_SETTINGS.test(url)) continue;
    return { index: s.index, variable, call: text.slice(s.index, Math.min(close + 1, s.index + 200)) };
  }
  return null;
}

/** Parameter names of a class's constructor (`constructor(private readonly dsn: string)`, `def __init__(self, dsn)`), `self` dropped. */
function constructorParameters(text: string, name: string, python: boolean): string[] | null {
  const n = name.replace(/\$/g, '\\$');
  const head = new RegExp(python ? `^class\\s+${n}\\b[^\\n]*:` : `\\bclass\\s+${n}\\b[^{]*\\{`, 'm').exec(text);
  if (head === null) return null;
  const body = text.slice(head.index, head.index + 6000);
  const m = (python ? /\bdef\s+__init__\s*\(([^)]*)\)/ : /\bconstructor\s*\(([^)]*)\)/).exec(body);
  if (m === null) return [];
  const params = m[1]!.split(',').map((p) => p.trim().replace(/^(?:(?:private|public|protected|readonly)\s+)+|^\*+/g, '').split(/[:=\s?]/)[0]!.trim());
  return python ? params.slice(1) : params;
}

/** What a parameter is kept as in its module: itself, `this.p` (a TypeScript parameter property), `this.x = p`, `self.x = p`. */
function keptAs(text: string, param: string, python: boolean): string[] {
  const out = [param];
  if (!python && new RegExp(`\\b(?:private|public|protected|readonly)\\s+(?:readonly\\s+)?${param.replace(/\$/g, '\\$')}\\b`).test(text)) out.push(`this.${param}`);
  const self = python ? 'self' : 'this';
  for (const m of text.matchAll(new RegExp(`\\b${self}\\.([A-Za-z_$#][\\w$]*)\\s*=(?!=)\\s*${param.replace(/\$/g, '\\$')}\\b`, 'g'))) out.push(`${self}.${m[1]!}`);
  return out;
}

/**
 * The same, one module away: the entry file hands the connection string to a class or function
 * imported from another module of the server (`new QueryStats(process.env.DATABASE_URL)`,
 * `report(dsn)`, `Telemetry(db_url)`), and that module puts the parameter, or the field it keeps it
 * in (`this.dsn`, `self._dsn`), into a request to a fixed host. The pool gets the string to connect;
 * a "stats" class has no use for the password (held-out set 21: "query insights" posting the DSN
 * and result rows every few seconds).
 */
export async function connectionStringHandedOverFinding(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean): Promise<AgentFinding | null> {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python') return null;
  const python = language === 'python';
  if (!/URL|URI|DSN|CONNECTION/.test(text)) return null;
  const holders = connectionHolders(text, python);
  if (holders.size === 0 && envIn(text, python).length === 0) return null;
  for (const [local, [module, exported]] of localImports(file, text, language, exists)) {
    const l = local.replace(/\$/g, '\\$');
    for (const call of text.matchAll(new RegExp(`(?<![\\w$.])(new\\s+)?${l}\\s*\\(`, 'g'))) {
      const args = callArguments(text, call.index + call[0].length - 1).map((a) => a.trim());
      const index = args.findIndex((a) => holders.has(a) || envIn(a, python).length > 0);
      if (index < 0) continue;
      const variable = holders.get(args[index]!) ?? envIn(args[index]!, python)[0]!;
      const other = await read(module);
      if (other === null || !SEND.test(other)) continue;
      const name = exported === 'default' ? local : exported;
      // A class (`new X(…)` in JavaScript; any call of a class in Python) or a function.
      const params = constructorParameters(other, name, python) ?? parameters(other, name, language);
      const param = params?.[index];
      if (param === undefined || param === '') continue;
      const names = keptAs(other, param, python);
      const hit = sentWith(other, (a) => (names.some((n) => mentions(a, n)) ? variable : undefined));
      if (hit === null) continue;
      return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: TITLE, file: module, line: lineAt(other, hit.index), evidence: `${variable} (handed over by ${file}:${lineAt(text, call.index)}) … ${hit.call}`.slice(0, 300) });
    }
  }
  return null;
}
