import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignedVigilClient, VigilApiError, keypairFromSeed } from '@vigil/client';
import { AdminAdvisoryStatus, AdminRoundClosed, AdminRoundSchedule, AdminValidatorList, OutboxBacklog, ValidatorRegistration } from '@vigil/core';
import { afterEach, expect, it } from 'vitest';
import { runAdvisoriesCommand } from '../src/features/policies/advisories/advisories-command.js';
import { runValidatorsCommand } from '../src/features/network/validators/validators-command.js';
import { enqueueOutboxEvent } from '../src/platform/outbox.js';
import { describeEachDialect, type DialectContext } from '../src/test-support/databases.js';
import { HOUR, T0, attest, bundle, newKey, seedRound } from '../src/test-support/fixtures.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { call, shared, type Answer } from './admin-support.js';

const VALIDATOR = keypairFromSeed('c3'.repeat(32));
const OTHER = keypairFromSeed('d4'.repeat(32));
const SNAPSHOT = { netuid: 76, block: 10, taken_at: '2026-11-21T00:00:00Z', neurons: [{ uid: 1, hotkey: OTHER.hotkey, validator_permit: true }] };
const UNKNOWN_HOTKEY = keypairFromSeed('e5'.repeat(32)).hotkey;

const apps: NetworkApp[] = [];

async function refusal(promise: Promise<unknown>): Promise<{ status: number; detail: string }> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof VigilApiError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, detail: error.detail };
}

async function auditActions(ctx: DialectContext): Promise<{ action: string; actor: string; source_ip: string | null; target: string; detail: unknown }[]> {
  const rows = await ctx.db().selectFrom('audit_log').selectAll().orderBy('at').orderBy('entry_id').execute();
  return rows.map((r) => ({ action: r.action, actor: r.actor, source_ip: r.source_ip, target: r.target, detail: JSON.parse(r.detail) as unknown }));
}

describeEachDialect('admin API: validators, metagraph, rounds, outbox', (ctx) => {
  // Registered inside the dialect's block: runs before its database is closed.
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function start(options: { clock?: number; snapshot?: typeof SNAPSHOT } = {}): Promise<{ app: NetworkApp; admin: string; keyId: string }> {
    const admin = await operatorKey(ctx.db(), ['--org', 'vigil-ops', '--scopes', 'admin']);
    const app = await startNetworkApp({
      snapshot: options.snapshot ?? SNAPSHOT,
      database: shared(ctx),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      config: { adminAllowlist: ['127.0.0.0/8', '::1'] },
    });
    apps.push(app);
    return { app, admin, keyId: admin.slice(4, 12) };
  }

  it('lists validators and applies suspend, revoke, restore and approve with the command line’s rules, audited', async () => {
    const { app, admin, keyId } = await start({ snapshot: { ...SNAPSHOT, neurons: [{ uid: 3, hotkey: VALIDATOR.hotkey, validator_permit: true }] } });
    const client = new SignedVigilClient({ baseUrl: app.baseUrl, keypair: VALIDATOR });
    await client.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });

    const listed = await call(app, 'GET', '/v1/admin/validators', admin);
    expect(listed.status).toBe(200);
    expect(AdminValidatorList.parse(listed.body).validators).toEqual([
      expect.objectContaining({ hotkey: VALIDATOR.hotkey, uid: 3, status: 'active', allowed_ips: ['127.0.0.1'] }),
    ]);

    const path = (action: string) => `/v1/admin/validators/${VALIDATOR.hotkey}/${action}`;
    expect(await call(app, 'POST', path('restore'), admin)).toMatchObject({
      status: 409,
      body: { detail: `hotkey: ${VALIDATOR.hotkey} is active; restore applies to suspended or revoked validators` },
    });
    expect(await call(app, 'POST', path('approve'), admin)).toMatchObject({
      status: 409,
      body: { detail: `hotkey: ${VALIDATOR.hotkey} is active; approve applies to pending validators` },
    });
    expect(await call(app, 'POST', path('suspend'), admin)).toMatchObject({ status: 200, body: { hotkey: VALIDATOR.hotkey, status: 'suspended' } });
    expect(await refusal(client.request('POST', '/v1/validators/tasks/claim', { max: 1 }))).toEqual({ status: 403, detail: 'validator access has been revoked' });
    expect(await call(app, 'POST', path('revoke'), admin)).toMatchObject({ status: 200, body: { status: 'revoked' } });
    expect(await call(app, 'POST', path('revoke'), admin)).toMatchObject({
      status: 409,
      body: { detail: `hotkey: ${VALIDATOR.hotkey} is revoked; revoke applies to pending or active or suspended validators` },
    });
    expect(await call(app, 'POST', path('restore'), admin)).toMatchObject({ status: 200, body: { status: 'active' } });
    expect(((await client.request('POST', '/v1/validators/tasks/claim', { max: 1 })) as { tasks: unknown[] }).tasks).toEqual([]);

    // Unknown and malformed hotkeys name no validator; an unknown action is no route.
    expect(await call(app, 'POST', `/v1/admin/validators/${UNKNOWN_HOTKEY}/suspend`, admin)).toMatchObject({ status: 404, body: { detail: 'validator not found', code: 'unknown_validator' } });
    expect(await call(app, 'POST', '/v1/admin/validators/not-a-hotkey/suspend', admin)).toMatchObject({ status: 404, body: { detail: 'validator not found', code: 'unknown_validator' } });
    expect(await call(app, 'POST', path('promote'), admin)).toMatchObject({ status: 404, body: { detail: 'not found', code: 'route_not_found' } });

    // The command line runs the same rules, and is audited as the operator.
    await expect(runValidatorsCommand(ctx.db(), ['restore', VALIDATOR.hotkey], Date.now())).rejects.toThrow(/is active; restore applies to suspended or revoked/);
    expect(await runValidatorsCommand(ctx.db(), ['suspend', VALIDATOR.hotkey], Date.now())).toEqual([`${VALIDATOR.hotkey}: active -> suspended`]);

    const audit = (await auditActions(ctx)).filter((e) => e.action.startsWith('validator.'));
    expect(audit.map((e) => [e.action, e.actor, e.detail])).toEqual([
      ['validator.suspend', `key:${keyId}`, { from: 'active', to: 'suspended' }],
      ['validator.revoke', `key:${keyId}`, { from: 'suspended', to: 'revoked' }],
      ['validator.restore', `key:${keyId}`, { from: 'revoked', to: 'active' }],
      ['validator.suspend', 'operator', { from: 'active', to: 'suspended' }],
    ]);
    expect(audit[0]).toMatchObject({ target: VALIDATOR.hotkey, source_ip: expect.stringMatching(/127\.0\.0\.1|::1/) });
  });

  it('replaces a validator’s allowlist with validated addresses, up to the registration limit', async () => {
    const { app, admin, keyId } = await start({ snapshot: { ...SNAPSHOT, neurons: [{ uid: 3, hotkey: VALIDATOR.hotkey, validator_permit: true }] } });
    const client = new SignedVigilClient({ baseUrl: app.baseUrl, keypair: VALIDATOR });
    await client.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
    const path = `/v1/admin/validators/${VALIDATOR.hotkey}/allowlist`;

    const bad = await call(app, 'POST', path, admin, { allowed_ips: ['203.0.113.7', '999.1.1.1', 'example.com'] });
    expect(bad.status).toBe(422);
    expect((bad.body?.errors as { path: string }[]).map((e) => e.path)).toEqual(['body.allowed_ips.1', 'body.allowed_ips.2']);
    expect((await call(app, 'POST', path, admin, { allowed_ips: [] })).body?.errors).toEqual([expect.objectContaining({ path: 'body.allowed_ips' })]);
    const tooMany = Array.from({ length: 33 }, (_, i) => `10.0.0.${i + 1}`);
    expect((await call(app, 'POST', path, admin, { allowed_ips: tooMany })).body?.errors).toEqual([expect.objectContaining({ path: 'body.allowed_ips' })]);
    expect(await call(app, 'POST', `/v1/admin/validators/${UNKNOWN_HOTKEY}/allowlist`, admin, { allowed_ips: ['10.0.0.1'] })).toMatchObject({
      status: 404,
      body: { detail: 'validator not found', code: 'unknown_validator' },
    });

    const moved = await call(app, 'POST', path, admin, { allowed_ips: ['203.0.113.7', '2001:db8::1', '203.0.113.7'] });
    expect(moved).toMatchObject({ status: 200, body: { allowed_ips: ['203.0.113.7', '2001:db8::1'], status: 'active' } });
    // The validator's own address is no longer allowed.
    expect(await refusal(client.request('POST', '/v1/validators/tasks/claim', { max: 1 }))).toEqual({
      status: 403,
      detail: 'source IP 127.0.0.1 is not registered in the validator allowlist',
    });
    expect((await call(app, 'POST', path, admin, { allowed_ips: ['127.0.0.1'] })).status).toBe(200);
    expect(((await client.request('POST', '/v1/validators/tasks/claim', { max: 1 })) as { tasks: unknown[] }).tasks).toEqual([]);

    const audit = (await auditActions(ctx)).filter((e) => e.action === 'validator.allowlist');
    expect(audit).toEqual([
      expect.objectContaining({ actor: `key:${keyId}`, target: VALIDATOR.hotkey, detail: { from: ['127.0.0.1'], to: ['203.0.113.7', '2001:db8::1'] } }),
      expect.objectContaining({ detail: { from: ['203.0.113.7', '2001:db8::1'], to: ['127.0.0.1'] } }),
    ]);
  });

  it('uploads a metagraph snapshot into the file the permit check reads', async () => {
    const { app, admin, keyId } = await start();
    const client = new SignedVigilClient({ baseUrl: app.baseUrl, keypair: VALIDATOR });
    const register = () => client.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
    expect(await refusal(register())).toEqual({ status: 403, detail: 'hotkey not registered on netuid 76' });

    const upload = {
      netuid: 76,
      block: 11,
      taken_at: '2026-11-22T00:00:00.000+00:00',
      neurons: [
        { uid: 1, hotkey: OTHER.hotkey, validator_permit: true },
        { uid: 2, hotkey: VALIDATOR.hotkey, validator_permit: false },
      ],
    };
    expect(await call(app, 'POST', '/v1/admin/metagraph', admin, upload)).toMatchObject({ status: 200, body: { netuid: 76, block: 11, neurons: 2, validator_permits: 1 } });
    expect(await refusal(register())).toEqual({ status: 403, detail: 'hotkey does not hold a validator permit on netuid 76' });

    // Refused: another subnet, a repeated uid, a body that is no snapshot. The file keeps the last good one.
    const wrong = await call(app, 'POST', '/v1/admin/metagraph', admin, { ...upload, netuid: 1 });
    expect(wrong).toMatchObject({ status: 422, body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'body.netuid' }] } });
    const repeated = await call(app, 'POST', '/v1/admin/metagraph', admin, { ...upload, neurons: [...upload.neurons, { uid: 2, hotkey: UNKNOWN_HOTKEY, validator_permit: true }] });
    expect(repeated).toMatchObject({ status: 422, body: { errors: [{ path: 'body.neurons.2.uid' }] } });
    expect((await call(app, 'POST', '/v1/admin/metagraph', admin, { netuid: 76, neurons: 'all' })).status).toBe(422);

    upload.neurons[1]!.validator_permit = true;
    expect((await call(app, 'POST', '/v1/admin/metagraph', admin, { ...upload, block: 12 })).status).toBe(200);
    expect((await register()).status).toBe('active');

    const audit = (await auditActions(ctx)).filter((e) => e.action === 'metagraph.upload');
    expect(audit.map((e) => [e.actor, e.target, (e.detail as { block: number }).block])).toEqual([
      [`key:${keyId}`, 'netuid:76', 11],
      [`key:${keyId}`, 'netuid:76', 12],
    ]);
  });

  it('refuses a metagraph nested deeper than 64 levels with 400 before parsing it, and takes one of exactly 64 (probe finding: 2,500 levels were a 500)', async () => {
    const { app, admin } = await start();
    const post = (body: string) =>
      fetch(`${app.baseUrl}/v1/admin/metagraph`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body });
    // The snapshot object is level 1; `extra` (more fields are allowed) holds the rest.
    const snapshot = (levels: number) =>
      `{"netuid":76,"block":${levels},"taken_at":"2026-11-22T00:00:00.000+00:00","neurons":[],"extra":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const before = await readFile(app.metagraphFile, 'utf8');
    for (const levels of [65, 2_500, 10_000]) {
      const refused = await post(snapshot(levels));
      expect(refused.status, `${levels} levels`).toBe(400);
      expect(await refused.json()).toEqual({ detail: 'malformed JSON body', code: 'bad_request' });
    }
    expect(await readFile(app.metagraphFile, 'utf8')).toBe(before);
    expect((await auditActions(ctx)).filter((e) => e.action === 'metagraph.upload')).toEqual([]);

    const taken = await post(snapshot(64));
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual({ netuid: 76, block: 64, neurons: 0, validator_permits: 0 });
    expect(JSON.parse(await readFile(app.metagraphFile, 'utf8'))).toMatchObject({ block: 64 });
  });

  it('shows the round schedule and force-closes a round through the scheduler’s close, scoring it', async () => {
    const good = newKey();
    const bad = newKey();
    const validators = [newKey(), newKey()];
    const artifacts = [
      { label: 'bench', sourceId: 'mal-1', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
      { label: 'bench', sourceId: 'ok-1', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
    ];
    const seeded = await seedRound(ctx.db(), { now: T0, miners: [good, bad], validators, artifacts });
    for (const spec of artifacts) {
      for (const v of validators) {
        await attest(ctx.db(), seeded, good, bundle('skills', spec), v, { verdict: spec.groundTruth, now: T0 + HOUR });
        await attest(ctx.db(), seeded, bad, bundle('skills', spec), v, { verdict: spec.groundTruth === 'BLOCK' ? 'ALLOW' : 'BLOCK', now: T0 + HOUR });
      }
    }
    const roundId = seeded.round.round_id;
    // Evaluation runs until T0 + 3 h; the server's clock is at T0 + 2 h.
    const { app, admin, keyId } = await start({ clock: T0 + 2 * HOUR });

    const schedule = AdminRoundSchedule.parse((await call(app, 'GET', '/v1/admin/rounds', admin)).body);
    expect(schedule.tracks.map((t) => t.track)).toEqual(['skills', 'mcp_servers', 'packages', 'repositories']);
    expect(schedule.tracks[0]).toEqual({
      track: 'skills',
      current: expect.objectContaining({
        round_id: roundId,
        status: 'open',
        phase: 'evaluation',
        submission_closes_at: '2026-11-21T11:00:00.000+00:00',
        closes_at: '2026-11-21T13:00:00.000+00:00',
        closed_at: null,
        overdue: false,
      }),
      // The planned close plus the gap (VIGIL_ROUND_GAP_S, 3600 by default).
      next_round_opens_at: '2026-11-21T14:00:00.000+00:00',
    });
    expect(schedule.tracks[1]).toEqual({ track: 'mcp_servers', current: null, next_round_opens_at: null });
    expect(schedule.server_time).toBe('2026-11-21T12:00:00.000+00:00');

    const close = (id: string, body?: unknown) => call(app, 'POST', `/v1/admin/rounds/${id}/close`, admin, body);
    expect(await close(roundId)).toMatchObject({
      status: 409,
      body: { detail: `round_id: round ${roundId} closes at 2026-11-21T13:00:00.000+00:00; send {"force": true} to close it now` },
    });
    expect(await close(roundId, { force: false })).toMatchObject({ status: 409 });
    expect(await close('00000000000000ff')).toMatchObject({ status: 404, body: { detail: 'round not found', code: 'round_not_found' } });
    expect(await close('NOT-HEX')).toMatchObject({ status: 404, body: { detail: 'round not found', code: 'round_not_found' } });
    expect((await close(roundId, { force: 'yes' })).status).toBe(422);
    // Nothing changed yet.
    expect((await ctx.db().selectFrom('rounds').select('status').where('round_id', '=', roundId).executeTakeFirstOrThrow()).status).toBe('open');

    const closed = await close(roundId, { force: true });
    expect(closed.status).toBe(200);
    expect(AdminRoundClosed.parse(closed.body)).toEqual({
      round_id: roundId,
      track: 'skills',
      round_number: 1,
      status: 'closed',
      phase: 'complete',
      closed_at: '2026-11-21T12:00:00.000+00:00',
      next_round_opens_at: '2026-11-21T13:00:00.000+00:00',
      forced: true,
      scored: 2,
      winners: [good.hotkey],
      verdict_changes: 0,
    });
    // Scored exactly as the scheduler scores: the public scores show the ranking.
    const scores = (await (await fetch(`${app.baseUrl}/v1/rounds/${roundId}/scores`)).json()) as { scores: { hotkey: string; rank: number }[] };
    expect(scores.scores.map((s) => [s.rank, s.hotkey])).toEqual([
      [1, good.hotkey],
      [2, bad.hotkey],
    ]);
    expect(await close(roundId, { force: true })).toMatchObject({ status: 409, body: { detail: `round_id: round ${roundId} is already closed` } });

    const audit = (await auditActions(ctx)).filter((e) => e.action === 'round.close');
    expect(audit).toEqual([
      expect.objectContaining({ actor: `key:${keyId}`, target: roundId, detail: { track: 'skills', round_number: 1, forced: true, scored: 2, winners: [good.hotkey] } }),
    ]);
    const after = AdminRoundSchedule.parse((await call(app, 'GET', '/v1/admin/rounds', admin)).body);
    expect(after.tracks[0]).toMatchObject({ current: { status: 'closed', phase: 'complete' }, next_round_opens_at: '2026-11-21T13:00:00.000+00:00' });
  });

  it('closes an overdue round without force, and refuses one in submission or while the scheduler holds its lock', async () => {
    const seeded = await seedRound(ctx.db(), { now: T0, miners: [newKey()], validators: [newKey()], artifacts: [{ label: 'b', sourceId: 'x', kind: 'labeled', groundTruth: 'ALLOW' }] });
    const roundId = seeded.round.round_id;
    const { app, admin } = await start({ clock: T0 + 4 * HOUR });
    const schedule = AdminRoundSchedule.parse((await call(app, 'GET', '/v1/admin/rounds', admin)).body);
    expect(schedule.tracks[0]?.current).toMatchObject({ overdue: true });

    // A scheduler step in progress elsewhere holds the single-runner lock: the close waits for nothing and changes nothing.
    const { runExclusively, ROUND_SCHEDULER_LOCK } = await import('../src/features/network/rounds/scheduler/index.js');
    let answer: Answer | undefined;
    await runExclusively(ctx.db(), { name: ROUND_SCHEDULER_LOCK, holderId: 'other-process', now: T0 + 4 * HOUR, leaseMs: HOUR }, async () => {
      answer = await call(app, 'POST', `/v1/admin/rounds/${roundId}/close`, admin, {});
    });
    expect(answer).toMatchObject({ status: 409, body: { detail: 'the round scheduler is running a step; try again in a few seconds', code: 'round_scheduler_busy' } });

    expect(await call(app, 'POST', `/v1/admin/rounds/${roundId}/close`, admin, {})).toMatchObject({ status: 200, body: { forced: false, scored: 0 } });

    const { openRound } = await import('../src/features/network/rounds/rounds.js');
    const next = await openRound(ctx.db(), { track: 'skills', now: T0 + 4 * HOUR, submissionMs: HOUR, evaluationMs: HOUR, policyVersion: 'p' });
    expect(await call(app, 'POST', `/v1/admin/rounds/${next.round_id}/close`, admin, { force: true })).toMatchObject({
      status: 409,
      body: { detail: `round_id: round ${next.round_id} is in its submission phase; only a round in evaluation can be closed` },
    });
  });

  it('reports the outbox backlog and the delivery backlog', async () => {
    const { app, admin } = await start();
    const none = { 'verdict.changed': 0, 'attestation.created': 0, 'repository.verified': 0, 'round.closed': 0, 'webhook.disabled': 0 };
    const empty = OutboxBacklog.parse((await call(app, 'GET', '/v1/admin/outbox', admin)).body);
    expect(empty).toEqual({
      total: 0,
      undelivered: 0,
      undelivered_by_kind: none,
      oldest_undelivered_at: null,
      deliveries: { pending: 0, delivering: 0, failed: 0, oldest_pending_at: null },
    });
    const enqueue = (kind: 'verdict.changed' | 'attestation.created', n: number, at: number) =>
      enqueueOutboxEvent(ctx.db(), kind, { n }, at, { resource: `artifact:${n}`, accountId: null });
    await enqueue('verdict.changed', 1, T0 + 5);
    await enqueue('verdict.changed', 2, T0 + 9);
    const delivered = await enqueue('attestation.created', 3, T0 + 1);
    await enqueue('attestation.created', 4, T0 + 7);
    await ctx.db().updateTable('outbox_events').set({ delivered_at: T0 + 2 }).where('id', '=', delivered).execute();
    const backlog = OutboxBacklog.parse((await call(app, 'GET', '/v1/admin/outbox', admin)).body);
    expect(backlog).toEqual({
      total: 4,
      undelivered: 3,
      undelivered_by_kind: { ...none, 'verdict.changed': 2, 'attestation.created': 1 },
      oldest_undelivered_at: '2026-11-21T10:00:00.005+00:00',
      deliveries: { pending: 0, delivering: 0, failed: 0, oldest_pending_at: null },
    });
  });

  it('reports what the advisory import stored, and the last import', async () => {
    const { app, admin } = await start();
    expect(AdminAdvisoryStatus.parse((await call(app, 'GET', '/v1/admin/advisories', admin)).body)).toEqual({ advisories: 0, withdrawn: 0, packages: { npm: 0, pypi: 0 }, last_import: null });
    const fixtures = join(import.meta.dirname, 'fixtures/osv');
    const output = await runAdvisoriesCommand(ctx.db(), ['import', fixtures], () => T0);
    expect(output.exitCode).toBe(0);
    const status = await call(app, 'GET', '/v1/admin/advisories', admin);
    expect(status.status).toBe(200);
    expect(AdminAdvisoryStatus.parse(status.body)).toEqual({
      advisories: 7,
      withdrawn: 0,
      packages: { npm: 6, pypi: 2 },
      last_import: {
        source: fixtures,
        started_at: '2026-11-21T10:00:00.000+00:00',
        finished_at: '2026-11-21T10:00:00.000+00:00',
        counts: { files: 7, read: 7, imported: 7, updated: 0, unchanged: 0, older: 0, withdrawn: 0, other_ecosystems: 0, invalid: 0 },
      },
    });
  });
});
