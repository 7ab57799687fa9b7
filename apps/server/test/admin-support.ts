import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import type { VigilDatabase } from '../src/platform/db/database.js';
import type { DialectContext } from '../src/test-support/databases.js';
import type { NetworkApp } from '../src/test-support/network-app.js';

/** Issues a key the way an operator does (`vigil-server keys create …`), created at `now`, and returns its token. */
export async function operatorKey(db: Parameters<typeof runKeysCommand>[0], args: string[], now = Date.now()): Promise<string> {
  const lines = await runKeysCommand(db, 'keys', ['create', ...args], now);
  const token = lines.find((line) => line.startsWith('vgl_'));
  if (!token) throw new Error(`no token in ${lines.join('\n')}`);
  return token;
}

/** The dialect's database, served by a network app that leaves it open. */
export function shared(ctx: DialectContext): VigilDatabase {
  return { db: ctx.db(), dialect: ctx.dialect, close: async () => {} };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

export async function call(app: NetworkApp, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const all: Record<string, string> = { authorization: `Bearer ${token}`, ...headers };
  if (body !== undefined) all['content-type'] = 'application/json';
  const response = await fetch(app.baseUrl + path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

