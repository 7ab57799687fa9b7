import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Vigil } from '@vigil/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from '../../../test-support/vigil-server.js';
import { CLI_BIN, json, vigil, type CliResult } from './support/cli.js';

// `vigil webhooks …` and `vigil events tail` (the built command) against a real server that
// delivers to a receiver on this machine (VIGIL_WEBHOOK_ALLOW_HTTP and VIGIL_WEBHOOK_ALLOW_PRIVATE).

let server: VigilServer;
let sdk: Vigil;
let env: Record<string, string>;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const run = (args: string[]): Promise<CliResult> => vigil(args, { env });

async function eventually<T>(read: () => Promise<T | undefined>, tries = 300): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not there after the wait');
}

describe.skipIf(!serverBuilt)('vigil webhooks and vigil events against a real server', () => {
  beforeAll(async () => {
    server = await startVigilServer({ env: { VIGIL_WEBHOOK_ALLOW_HTTP: 'true', VIGIL_WEBHOOK_ALLOW_PRIVATE: 'true', VIGIL_WEBHOOK_POLL_MS: '50' } });
    const made = await server.command(['keys', 'create', '--org', 'acme', '--plan', 'paid', '--scopes', 'webhooks,admin']);
    const token = made.split('\n').find((line) => line.startsWith('vgl_'))!.trim();
    env = { VIGIL_BASE_URL: server.baseUrl, VIGIL_API_TOKEN: token };
    sdk = new Vigil({ baseUrl: server.baseUrl, apiKey: token });
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.writeHead(202).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  }, 660_000);
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  // About twenty runs of the built CLI, each a fresh Node process: on a loaded two-core machine
  // that alone can pass the default 30 s.
  it('create, list, get, update, test, deliveries, redeliver, recover, rotate, delete: tables, --json and refusals', { timeout: 180_000 }, async () => {
    const created = await run(['webhooks', 'create', receiverUrl, '--events', 'round.closed', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const hook = json<{ data: { id: string; secret: string; created_at: string } }>(created).data;
    expect(hook.secret).toMatch(/^whsec_/);
    // As the server sent it: the offset form, not a re-serialized Date.
    expect(hook.created_at).toMatch(/\+00:00$/);

    const table = await run(['webhooks', 'list']);
    expect(table.stdout).toContain(hook.id);
    expect(table.stdout).toMatch(new RegExp(`${hook.id}.*round\\.closed.*active`));
    expect(json<{ data: { id: string }[] }>(await run(['webhooks', 'list', '--json'])).data.map((w) => w.id)).toContain(hook.id);
    expect((await run(['webhooks', 'get', hook.id])).stdout).toMatch(/status\s+active/);

    const bad = await run(['webhooks', 'create', receiverUrl, '--events', 'round.opened']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--events: expected a comma-separated list of');

    const paused = await run(['webhooks', 'update', hook.id, '--pause', '--events', 'round.closed,verdict.changed']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toMatch(/status\s+paused/);
    expect(paused.stdout).toContain('round.closed, verdict.changed');
    const refused = await run(['webhooks', 'test', hook.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('409 webhook is paused or disabled');
    expect((await run(['webhooks', 'update', hook.id, '--resume'])).stdout).toMatch(/status\s+active/);

    const test = json<{ data: { id: string; state: string } }>(await run(['webhooks', 'test', hook.id, '--json'])).data;
    const delivered = await eventually(async () => received.find((r) => r.headers['x-vigil-delivery'] === test.id));
    const mac = createHmac('sha256', hook.secret).update(`${String(delivered.headers['x-vigil-timestamp'])}.${delivered.body}`).digest('hex');
    expect(delivered.headers['x-vigil-signature']).toBe(`sha256=${mac}`);

    await eventually(async () => {
      const list = json<{ data: { id: string; state: string }[] }>(await run(['webhooks', 'deliveries', hook.id, '--state', 'succeeded', '--json']));
      return list.data.some((d) => d.id === test.id) ? true : undefined;
    }, 100);
    const detail = await run(['webhooks', 'deliveries', hook.id, test.id]);
    expect(detail.stdout).toMatch(/state\s+succeeded/);
    expect(detail.stdout).toMatch(/\|\s*1\s*\|.*\|\s*202\s*\|/);
    expect((await run(['webhooks', 'deliveries', hook.id])).stdout).toMatch(new RegExp(`${test.id}.*webhook\\.test.*succeeded`));

    expect((await run(['webhooks', 'redeliver', hook.id, test.id])).stdout).toContain(`Redelivering ${test.id} (webhook.test)`);
    await eventually(async () => (received.filter((r) => r.headers['x-vigil-delivery'] === test.id).length === 2 ? true : undefined));
    expect((await run(['webhooks', 'recover', hook.id, '--since', '2026-01-01T00:00:00+00:00'])).stdout).toBe(`Requeued 0 failed deliveries of webhook ${hook.id}.\n`);
    expect((await run(['webhooks', 'recover', hook.id, '--since', 'yesterday'])).code).toBe(2);

    const rotated = await run(['webhooks', 'rotate', hook.id, '--overlap', '600']);
    expect(rotated.stdout).toMatch(/secret\s+whsec_/);
    expect(rotated.stdout).not.toContain(hook.secret);
    expect(rotated.stdout).toMatch(/previous secret until\s+\d{4}-/);
    expect((await run(['webhooks', 'rotate', hook.id, '--revoke-previous'])).stdout).toContain('only the current secret signs');
    expect((await run(['webhooks', 'get', hook.id])).stdout).toMatch(/previous secret until\s+-/);

    const deleted = await run(['webhooks', 'delete', hook.id]);
    expect(deleted.stdout).toBe(`Deleted webhook ${hook.id}.\n`);
    const gone = await run(['webhooks', 'get', hook.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('404 webhook not found');
  });

  it('events tail: reads to the newest and names the cursor; --follow prints, and webhooks listen relays, an event the test causes', async () => {
    // The feed lists events once a worker handed them out: wait until the demo's thousands are.
    await eventually(async () => ((await sdk.admin.outbox.get()).undelivered === 0 ? true : undefined), 4800);
    const caughtUp = await run(['events', 'tail', '--types', 'round.closed']);
    expect(caughtUp.code, caughtUp.stderr).toBe(0);
    expect(caughtUp.stdout).toMatch(/round\.closed\s+round:[0-9a-f]{16}\s+#1/);
    const cursor = /Next: --after (evc_\S+)/.exec(caughtUp.stderr)?.[1];
    expect(cursor).toBeDefined();
    const nothingNew = await run(['events', 'tail', '--after', cursor!, '--types', 'round.closed', '--json']);
    expect(nothingNew.stdout).toBe('');
    // --from-now skips what the feed holds: nothing printed, a cursor to go on from.
    const fromNow = await run(['events', 'tail', '--from-now', '--types', 'round.closed']);
    expect(fromNow).toMatchObject({ code: 0, stdout: '' });
    const nowCursor = /Next: --after (evc_\S+)/.exec(fromNow.stderr)?.[1];
    expect(nowCursor).toBeDefined();

    const follow = spawn(process.execPath, [CLI_BIN, 'events', 'tail', '--after', cursor!, '--types', 'round.closed', '--follow', '--interval', '1', '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'vigil-cli-home-')), ...env },
    });
    let followed = '';
    follow.stdout.on('data', (c: Buffer) => (followed += c.toString()));
    const listen = spawn(process.execPath, [CLI_BIN, 'webhooks', 'listen', '--forward-to', receiverUrl, '--types', 'round.closed', '--interval', '1'], {
      env: { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'vigil-cli-home-')), ...env },
    });
    let listened = '';
    listen.stdout.on('data', (c: Buffer) => (listened += c.toString()));
    try {
      // Listen starts from now: once it has printed its secret, it has skipped what the feed held.
      const secret = await eventually(async () => /Session secret: (whsec_[A-Za-z0-9]{40})\n/.exec(listened)?.[1], 600);
      const schedule = await sdk.admin.rounds.schedule();
      const evaluating = schedule.tracks.find((t) => t.current?.phase === 'evaluation')?.current;
      expect(evaluating).toBeDefined();
      await sdk.admin.rounds.close(evaluating!.round_id, { force: true });
      const line = await eventually(async () => (followed.includes('\n') ? followed.split('\n')[0] : undefined));
      // JSON Lines, each event exactly as the server sent it.
      expect(JSON.parse(line)).toMatchObject({ type: 'round.closed', resource: `round:${evaluating!.round_id}`, data: { round_id: evaluating!.round_id } });
      expect(JSON.parse(line).created_at).toMatch(/\+00:00$/);

      // The relayed copy: the event's bytes as the feed had them, signed with the session secret.
      const relayed = await eventually(async () => received.find((r) => r.headers['x-vigil-event'] === 'round.closed'));
      expect(relayed.body).toBe(line);
      expect(relayed.headers['x-vigil-delivery']).toMatch(/^[0-9a-f-]{36}$/);
      const mac = createHmac('sha256', secret).update(`${String(relayed.headers['x-vigil-timestamp'])}.${relayed.body}`).digest('hex');
      expect(relayed.headers['x-vigil-signature']).toBe(`sha256=${mac}`);
      await eventually(async () => (listened.includes(`round.closed  ${JSON.parse(line).id as string}  -> 202`) ? true : undefined));
      // Only what came after it started: the demo's closed rounds were not relayed.
      expect(received.filter((r) => r.headers['x-vigil-event'] === 'round.closed')).toHaveLength(1);
    } finally {
      follow.kill('SIGTERM');
      listen.kill('SIGTERM');
    }
    const sinceNow = await run(['events', 'tail', '--after', nowCursor!, '--types', 'round.closed', '--json']);
    expect(sinceNow.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['round.closed']);
    const table = await run(['events', 'tail', '--after', cursor!]);
    expect(table.stdout).toMatch(/round\.closed\s+round:/);
  }, 600_000);
});
