import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import type { Config } from '../src/config.js';
import type { Database, OutboxKind } from '../src/platform/db/schema.js';
import { startTestApp } from '../src/test-support/test-app.js';
import { enqueueOutboxEvent } from '../src/platform/outbox.js';
import { inTransaction } from '../src/platform/db/transaction.js';
import type { HostResolver } from '../src/features/webhooks/dispatch/address-policy.js';
import { createWebhookWorker, type CreateWebhookWorkerOptions, type WebhookWorker } from '../src/features/webhooks/dispatch/create-webhook-worker.js';

/** A worker's options, any settings left out taken from the harness's configuration. */
export type WorkerOverrides = Partial<Omit<CreateWebhookWorkerOptions, 'settings'>> & { settings?: Partial<CreateWebhookWorkerOptions['settings']> };

export interface Harness {
  app: FastifyInstance;
  config: Config;
  db: Kysely<Database>;
  clock: { t: number };
  worker(overrides?: WorkerOverrides): Promise<WebhookWorker>;
  key(org: string, scopes?: string): Promise<string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers field by field
  call(method: string, path: string, init?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  close(): Promise<void>;
}

/** An app on an injectable clock, keys from the operator command, and workers built on the same server key. */
export async function startHarness(
  db: Kysely<Database>,
  env: Record<string, string> = {},
  options: { resolver?: HostResolver; /** Another harness's data directory: the same server key (left in place at close). */ dataDir?: string } = {},
): Promise<Harness> {
  const clock = { t: Date.now() };
  const server = await startTestApp({
    env: { VIGIL_WEBHOOK_ALLOW_HTTP: 'true', VIGIL_WEBHOOK_ALLOW_PRIVATE: 'true', VIGIL_WEBHOOK_TIMEOUT_MS: '400', ...env },
    database: db,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    listen: false,
    overrides: { clock: () => clock.t, ...(options.resolver ? { webhookResolver: options.resolver } : {}) },
  });
  const { app, config } = server;
  // Workers seal and open secrets with the server's own key, as `serve` and `worker` do.
  const secrets = server.runtime.secrets;
  const workers: WebhookWorker[] = [];
  return {
    app,
    config,
    db,
    clock,
    async worker(overrides = {}) {
      const { settings, ...rest } = overrides;
      const worker = createWebhookWorker({ db, secrets, settings: { ...config.webhooks, ...settings }, now: () => clock.t, random: () => 0.5, ...rest });
      workers.push(worker);
      return worker;
    },
    async key(org, scopes = 'webhooks') {
      const lines = await runKeysCommand(db, 'keys', ['create', '--org', org, '--scopes', scopes], Date.now());
      const token = lines.find((line) => line.startsWith('vgl_'));
      if (!token) throw new Error(`no token in ${lines.join('\n')}`);
      return token;
    },
    async call(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      // As a real client must (spec part 7: 411 otherwise), a body-less POST says its length.
      if (init.body === undefined && method !== 'GET' && method !== 'DELETE') headers['content-length'] = '0';
      if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
      const res = await app.inject({
        method: method as 'GET',
        url: path,
        headers,
        ...(init.body !== undefined ? { payload: JSON.stringify(init.body), headers: { ...headers, 'content-type': 'application/json' } } : {}),
      });
      return { status: res.statusCode, headers: res.headers, body: res.body === '' ? null : (JSON.parse(res.body) as unknown) };
    },
    async close() {
      for (const w of workers) await w.stop();
      await server.close();
    },
  };
}

let counter = 0;

/** A valid `verdict.changed` payload for a fresh artifact (or `bundle`). */
export function verdictPayload(bundle = `skills/demo-${++counter}/src-${counter}`, verdict: 'ALLOW' | 'WARN' | 'BLOCK' = 'BLOCK') {
  return {
    bundle_hash: bundle,
    track: 'skills',
    verdict,
    previous_verdict: null,
    risk_score: 80,
    round_id: 'aaaaaaaabbbbbbbb',
    changed_at: new Date().toISOString().replace('Z', '+00:00'),
  };
}

/** Enqueues an event the way a service does: in its own transaction, at the harness clock. */
export async function emit(
  h: Harness,
  kind: OutboxKind = 'verdict.changed',
  payload: Record<string, unknown> = verdictPayload(),
  audience: { resource?: string; accountId?: string | null } = {},
): Promise<string> {
  const resource = audience.resource ?? `artifact:${String(payload.bundle_hash)}`;
  return inTransaction(h.db, (trx) => enqueueOutboxEvent(trx, kind, payload, h.clock.t, { resource, accountId: audience.accountId ?? null }));
}

/** A valid `repository.verified` payload. */
export function repositoryPayload(repository: string) {
  return {
    repository,
    url: `https://github.com/acme/${repository}.git`,
    verification: 'rver_1',
    ref: 'refs/heads/main',
    commit: 'a'.repeat(40),
    policy: 'default',
    verdict: 'ALLOW',
    previous_verdict: null,
    worse: false,
    complete: true,
    summary: { packages: 1, direct: 1, allowed: 1, warned: 0, blocked: 0, pending: 0, skipped: 0, unreadable_files: 0 },
    changes: null,
    verified_at: new Date().toISOString().replace('Z', '+00:00'),
  };
}

/** A valid `round.closed` payload. */
export function roundClosedPayload(roundId: string) {
  return {
    round_id: roundId,
    track: 'skills',
    round_number: 1,
    closed_at: new Date().toISOString().replace('Z', '+00:00'),
    scored_agents: 0,
    winner_hotkey: null,
    verdict_changes: 0,
  };
}
