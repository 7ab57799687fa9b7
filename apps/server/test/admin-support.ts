import type { VigilDatabase } from '../src/platform/db/database.js';
import type { DialectContext } from '../src/test-support/databases.js';
import type { NetworkApp } from '../src/test-support/network-app.js';

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

