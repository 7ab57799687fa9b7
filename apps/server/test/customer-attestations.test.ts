import { startTestApp } from '../src/test-support/test-app.js';
import { formatOffsetTimestamp, type MetagraphSnapshot } from '@vigil/core';
import { verifyAttestation } from '@vigil/crypto';
import type { FastifyInstance } from 'fastify';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { Database } from '../src/platform/db/schema.js';
import { CachedMetagraph } from '../src/features/network/metagraph/index.js';
import { attestationPageQuery } from '../src/features/network/attestations/attestations-read.js';
import { claimTasks, recordLeasedAttestation, recordLeasedAttestations } from '../src/features/network/tasks/leases.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { describeEachDialect, type DialectContext } from '../src/test-support/databases.js';
import { attest, bundle, finding, findTask, HOUR, newKey, seedRound, signedEnvelope, T0, type TestKey } from '../src/test-support/fixtures.js';

interface Server {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const servers: Server[] = [];
/** Registered inside each dialect block, so servers stop (and flush key use) before the database closes. */
function closeServersAfterEach(): void {
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
}

function snapshotOf(withPermit: readonly TestKey[], withoutPermit: readonly TestKey[] = []): MetagraphSnapshot {
  return Object.freeze({
    netuid: 76,
    block: 4_512_001,
    taken_at: '2026-11-21T09:59:00.000+00:00',
    neurons: [
      ...withPermit.map((k, uid) => ({ uid, hotkey: k.hotkey, validator_permit: true })),
      ...withoutPermit.map((k, i) => ({ uid: withPermit.length + i, hotkey: k.hotkey, validator_permit: false })),
    ],
  });
}

async function start(ctx: DialectContext, snapshot: MetagraphSnapshot): Promise<Server> {
  const { app, url, close } = await startTestApp({
    env: { LOG_LEVEL: 'warn' },
    database: ctx,
    overrides: { metagraph: new CachedMetagraph({ source: { description: 'test snapshot', snapshot: async () => snapshot } }) },
  });
  const server = { app, url, close };
  servers.push(server);
  return server;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function call(server: Server, method: string, path: string, token?: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (token !== undefined) headers.authorization = token.startsWith('vgl_') ? `Bearer ${token}` : token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(server.url + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

type Item = { canonical_hash: string; verdict: string; findings: unknown; findings_withheld: boolean; recorded_at: string; artifact: { id: number; sha256: string; bundle_hash: string } } & Record<string, unknown>;
const items = (answer: Answer) => answer.body.attestations as Item[];

/** Every page of a list, following X-Vigil-Next-Page; returns the pages' items. */
async function allPages(server: Server, path: string, token: string, size: number): Promise<Item[][]> {
  const pages: Item[][] = [];
  let page: string | null = null;
  for (let i = 0; i < 100; i++) {
    const headers: Record<string, string> = { 'x-vigil-page-size': String(size) };
    if (page !== null) headers['x-vigil-page'] = page;
    const answer = await call(server, 'GET', path, token, { headers });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-vigil-page')).toBe(String(pages.length + 1));
    pages.push(items(answer));
    page = answer.headers.get('x-vigil-next-page');
    if (page === null) return pages;
  }
  throw new Error('too many pages');
}

const miners = [newKey(), newKey()];
const validators = [newKey(), newKey(), newKey()];
const outsider = newKey();
const ARTIFACTS = [
  { label: 'left-pad', sourceId: 'npm', kind: 'live' as const },
  { label: 'evil-skill', sourceId: 'gh', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
  { label: 'quiet-tool', sourceId: 'gh', kind: 'live' as const },
];
const [leftPad, evil, quiet] = ARTIFACTS.map((a) => bundle('skills', a)) as [string, string, string];

/**
 * 12 attestations through the real write path: 2 miners × 3 artifacts × 2 validators, an hour of
 * recorded time apart each, with verdicts and findings that make each filter select a known subset.
 */
async function seed(db: Kysely<Database>) {
  const seeded = await seedRound(db, { now: T0, miners, validators, artifacts: ARTIFACTS });
  const made: { hash: string; miner: TestKey; validator: TestKey; bundle: string; verdict: string; at: number }[] = [];
  let at = T0 + 2 * HOUR;
  for (const miner of miners) {
    for (const b of [leftPad, evil, quiet]) {
      for (const validator of validators.slice(0, 2)) {
        const verdict = b === evil ? 'BLOCK' : b === leftPad ? 'WARN' : 'ALLOW';
        const findings = b === evil ? [finding('exfiltration', 'CRIT', 'posts ssh keys to a webhook')] : b === leftPad ? [finding('install_script', 'MED')] : [];
        const task = findTask(seeded, miner, b);
        const envelope = signedEnvelope(seeded, task, validator, { verdict, findings, createdAt: at });
        await attest(db, seeded, miner, b, validator, { verdict, findings, now: at });
        made.push({ hash: envelope.canonical_hash, miner, validator, bundle: b, verdict, at });
      }
      // Both validators' attestations share a recorded time: pages must break the tie by id.
      at += HOUR;
    }
  }
  return { seeded, made };
}

describeEachDialect('customer API: attestations', (ctx) => {
  closeServersAfterEach();
  it('filters by every parameter, newest first, with findings for paid plans only', async () => {
    const { seeded, made } = await seed(ctx.db());
    const paid = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'read']);
    const free = await operatorKey(ctx.db(), ['--org', 'globex', '--scopes', 'read']);
    const server = await start(ctx, snapshotOf(validators));
    const newestFirst = [...made].reverse().map((m) => m.hash);
    const list = async (query: string) => {
      const answer = await call(server, 'GET', `/v1/attestations${query}`, paid);
      expect(answer.status).toBe(200);
      return items(answer).map((i) => i.canonical_hash);
    };
    expect(await list('')).toEqual(newestFirst);
    const evilRow = seeded.artifacts.get(evil)!;
    const pick = (f: (m: (typeof made)[number]) => boolean) => [...made].reverse().filter(f).map((m) => m.hash);
    expect(await list(`?artifact=${evilRow.id}`)).toEqual(pick((m) => m.bundle === evil));
    expect(await list(`?sha256=${evilRow.content_hash}`)).toEqual(pick((m) => m.bundle === evil));
    expect(await list(`?canonical_hash=${made[3]!.hash}`)).toEqual([made[3]!.hash]);
    expect(await list(`?validator=${validators[1]!.hotkey}`)).toEqual(pick((m) => m.validator === validators[1]));
    expect(await list(`?miner=${miners[0]!.hotkey}`)).toEqual(pick((m) => m.miner === miners[0]));
    expect(await list(`?round_id=${seeded.round.round_id}`)).toEqual(newestFirst);
    expect(await list(`?round_id=${'f'.repeat(16)}`)).toEqual([]);
    expect(await list('?verdict=BLOCK')).toEqual(pick((m) => m.verdict === 'BLOCK'));
    const since = made[3]!.at;
    const until = made[8]!.at;
    expect(await list(`?since=${encodeURIComponent(formatOffsetTimestamp(since))}&until=${encodeURIComponent(formatOffsetTimestamp(until))}`)).toEqual(
      pick((m) => m.at >= since && m.at < until),
    );
    expect(await list(`?verdict=WARN&miner=${miners[1]!.hotkey}&validator=${validators[0]!.hotkey}`)).toEqual(
      pick((m) => m.verdict === 'WARN' && m.miner === miners[1] && m.validator === validators[0]),
    );

    const paidItem = items(await call(server, 'GET', `/v1/attestations?artifact=${evilRow.id}`, paid))[0]!;
    expect(paidItem).toMatchObject({
      artifact: { id: evilRow.id, bundle_hash: evil, sha256: evilRow.content_hash },
      verdict: 'BLOCK',
      findings_count: 1,
      findings_withheld: false,
      findings: [{ category: 'exfiltration', severity: 'CRIT' }],
      track: 'skills',
    });
    const freeItem = items(await call(server, 'GET', `/v1/attestations?artifact=${evilRow.id}`, free))[0]!;
    expect(freeItem).toMatchObject({ findings_count: 1, findings_withheld: true, findings: null });
    // Never the benchmark's ground truth, nor whether the artifact is a labeled one.
    const text = JSON.stringify(paidItem);
    expect(text).not.toMatch(/ground_truth|labeled|"kind"/);
  });

  it('pages with a keyset: the next-page token follows a filtered page to the rest, and only page 1 is addressed by number', async () => {
    const { made } = await seed(ctx.db());
    const key = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read']);
    const server = await start(ctx, snapshotOf(validators));
    const blocks = [...made].reverse().filter((m) => m.verdict === 'BLOCK').map((m) => m.hash);
    expect(blocks).toHaveLength(4);
    // Filtered, 3 per page: a page of 3 that has a successor, then the last page of 1 with no X-Vigil-Next-Page.
    const pages = await allPages(server, '/v1/attestations?verdict=BLOCK', key, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 1]);
    expect(pages.flat().map((i) => i.canonical_hash)).toEqual(blocks);
    // Page size 1 over everything: 12 pages, the same order as one big page.
    const single = await allPages(server, '/v1/attestations', key, 1);
    expect(single).toHaveLength(12);
    expect(single.flat().map((i) => i.canonical_hash)).toEqual([...made].reverse().map((m) => m.hash));
    // A row recorded after the first page was read does not shift the pages that follow.
    const first = await call(server, 'GET', '/v1/attestations?verdict=BLOCK', key, { headers: { 'x-vigil-page-size': '2' } });
    const token = first.headers.get('x-vigil-next-page')!;
    expect(token).toMatch(/^c1\./);
    const second = await call(server, 'GET', '/v1/attestations?verdict=BLOCK', key, { headers: { 'x-vigil-page-size': '2', 'x-vigil-page': token } });
    expect(second.headers.get('x-vigil-page')).toBe('2');
    expect(items(second).map((i) => i.canonical_hash)).toEqual(blocks.slice(2));
    expect(second.headers.get('x-vigil-next-page')).toBeNull();

    const refused = async (headers: Record<string, string>, query = '?verdict=BLOCK') => {
      const answer = await call(server, 'GET', `/v1/attestations${query}`, key, { headers });
      expect(answer.status).toBe(422);
      return (answer.body.errors as { path: string }[]).map((e) => e.path);
    };
    expect(await refused({ 'x-vigil-page': '2' })).toEqual(['headers.x-vigil-page']);
    expect(await refused({ 'x-vigil-page': 'c1.bm9wZQ' })).toEqual(['headers.x-vigil-page']);
    expect(await refused({ 'x-vigil-page': token }, '?verdict=WARN')).toEqual(['headers.x-vigil-page']);
    expect(await refused({ 'x-vigil-page-size': '101' })).toEqual(['headers.x-vigil-page-size']);
    expect(await refused({ 'x-vigil-page-size': '0' })).toEqual(['headers.x-vigil-page-size']);
  });

  it('reads page 1 and a late page through the same index, without OFFSET', async () => {
    await seed(ctx.db());
    const db = ctx.db();
    const filters = { validator: validators[0]!.hotkey };
    for (const after of [null, { recordedAt: T0 + 8 * HOUR, id: 7 }]) {
      const query = attestationPageQuery(db, filters, after, 51);
      const compiled = query.compile();
      expect(compiled.sql.toLowerCase()).not.toContain('offset');
      if (ctx.dialect === 'sqlite') {
        const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
        const details = plan.rows.map((r) => r.detail).join('\n');
        expect(details).toMatch(/SEARCH a USING INDEX attestations_validator_recorded_idx \(validator_hotkey=\?/);
        // The order comes from the index: no sort of the matching rows.
        expect(details).not.toContain('TEMP B-TREE');
        // A late page seeks to its first row through the index: the keyset bound is part of the search.
        if (after !== null) expect(details).toMatch(/attestations_validator_recorded_idx \(validator_hotkey=\? AND recorded_at<\?\)/);
      } else {
        // The test table is tiny, so forbid the alternatives a planner would pick at this size.
        const plan = await db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          await sql`set local enable_bitmapscan = off`.execute(trx);
          return trx.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
        });
        const text = JSON.stringify(plan.rows[0]!['QUERY PLAN']);
        // The single table's index, or on the partitioned table (migration 0024) each month's copy of it.
        expect(text).toMatch(/"Index Name":"(attestations_validator_recorded_idx|attestations_(p\d{4}_\d{2}|default)_validator_hotkey_recorded_at_id_idx)"/);
        expect(text).not.toContain('"Node Type":"Sort"');
        // A late page seeks to its first row through the index: the keyset bound is an index condition.
        if (after !== null) expect(text).toMatch(/"Index Cond":"\(\(validator_hotkey = [^"]*ROW\(recorded_at, id\) < ROW\(/);
      }
    }
  });

  it('refuses each bad credential and each bad parameter with its exact answer', async () => {
    await seed(ctx.db());
    const read = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'read']);
    const keysOnly = await operatorKey(ctx.db(), ['--org', 'globex', '--plan', 'paid', '--scopes', 'keys']);
    const freeVerify = await operatorKey(ctx.db(), ['--org', 'initech', '--scopes', 'read,verify']);
    const server = await start(ctx, snapshotOf(validators));
    const hash = `sha256:${'a'.repeat(64)}`;
    for (const [method, path, scope] of [
      ['GET', '/v1/attestations', 'read'],
      ['GET', `/v1/attestations/${hash}`, 'read'],
      ['POST', '/v1/attestations/verify', 'verify'],
      ['GET', '/v1/search?q=pad', 'read'],
    ] as const) {
      const body = method === 'POST' ? {} : undefined;
      const cases: [string | undefined, number, string, string][] = [
        [undefined, 401, 'missing api key', 'missing_api_key'],
        ['Bearer nope', 401, 'malformed api key', 'malformed_api_key'],
        [`vgl_ffffffff_${'1'.repeat(48)}`, 401, 'invalid or revoked api key', 'invalid_api_key'],
        [scope === 'read' ? keysOnly : read, 403, `api key lacks '${scope}' scope`, 'scope_missing'],
      ];
      for (const [credential, status, detail, code] of cases) {
        const answer = await call(server, method, path, credential, { body });
        expect({ path, credential, status: answer.status, body: answer.body }).toEqual({ path, credential, status, body: { detail, code } });
      }
    }
    expect(await call(server, 'POST', '/v1/attestations/verify', freeVerify, { body: {} })).toMatchObject({
      status: 403,
      body: { detail: 'this endpoint requires a paid plan', code: 'paid_plan_required' },
    });
    const paths = async (query: string) => {
      const answer = await call(server, 'GET', `/v1/attestations${query}`, read);
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toBe('Validation error');
      return [...new Set((answer.body.errors as { path: string }[]).map((e) => e.path))];
    };
    expect(await paths('?verdict=MAYBE')).toEqual(['query.verdict']);
    expect(await paths('?artifact=abc')).toEqual(['query.artifact']);
    expect(await paths('?sha256=deadbeef')).toEqual(['query.sha256']);
    expect(await paths('?canonical_hash=sha256:XYZ')).toEqual(['query.canonical_hash']);
    expect(await paths('?validator=short')).toEqual(['query.validator']);
    expect(await paths('?miner=short')).toEqual(['query.miner']);
    expect(await paths('?round_id=NOT-HEX')).toEqual(['query.round_id']);
    expect(await paths('?since=yesterday')).toEqual(['query.since']);
    expect(await paths('?until=2026-11-21T10:00:00')).toEqual(['query.until']);
    expect(await paths('?verdicts=BLOCK')).toEqual(['query']);
    const search = await call(server, 'GET', '/v1/search?q=%20%20', read);
    expect(search.status).toBe(422);
    expect([...new Set((search.body.errors as { path: string }[]).map((e) => e.path))]).toEqual(['query.q']);
  });

  it('serves one attestation with its envelope as signed; an unknown or malformed hash is 404', async () => {
    const { made } = await seed(ctx.db());
    const paid = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'read']);
    const free = await operatorKey(ctx.db(), ['--org', 'globex', '--scopes', 'read']);
    const snapshot = snapshotOf(validators);
    const server = await start(ctx, snapshot);
    const withFindings = made.find((m) => m.bundle === evil)!;
    const answer = await call(server, 'GET', `/v1/attestations/${withFindings.hash}`, paid);
    expect(answer.status).toBe(200);
    const envelope = answer.body.envelope as { canonical_hash: string };
    expect(envelope.canonical_hash).toBe(withFindings.hash);
    expect(verifyAttestation(envelope, snapshot)).toEqual({ ok: true, checks: { hash: true, signature: true, permit: true }, reason: null });
    // Recorded without a permit check (the fixture's direct write): nothing to show.
    expect(answer.body.checked_against).toEqual({ netuid: 76, block: null, taken_at: null });
    expect(answer.body).toMatchObject({ envelope_withheld: false, attestation: { canonical_hash: withFindings.hash, findings_withheld: false } });
    // A free plan: findings withheld, and the envelope with them.
    expect(await call(server, 'GET', `/v1/attestations/${withFindings.hash}`, free)).toMatchObject({
      status: 200,
      body: { envelope: null, envelope_withheld: true, attestation: { findings: null, findings_withheld: true, findings_count: 1 } },
    });
    const clean = made.find((m) => m.bundle === quiet)!;
    expect((await call(server, 'GET', `/v1/attestations/${clean.hash}`, free)).body).toMatchObject({ envelope_withheld: false, envelope: { canonical_hash: clean.hash } });
    for (const missing of [`sha256:${'0'.repeat(64)}`, 'sha256:nothex', 'x'.repeat(300)]) {
      expect(await call(server, 'GET', `/v1/attestations/${missing}`, paid)).toMatchObject({ status: 404, body: { detail: 'attestation not found', code: 'attestation_not_found' } });
    }
  });

  it('records the metagraph block each submission path checked the permit against', async () => {
    const db = ctx.db();
    const seeded = await seedRound(db, { now: T0, miners, validators, artifacts: ARTIFACTS });
    const now = T0 + 2 * HOUR;
    const checkedAgainst = { block: 4_512_001, takenAt: T0 - 60_000 };
    const [single, batch] = validators as [TestKey, TestKey];
    const claimedSingle = await claimTasks(db, { validatorHotkey: single.hotkey, max: 1, now });
    const claimedBatch = await claimTasks(db, { validatorHotkey: batch.hotkey, max: 2, now });
    const envelopeFor = (taskId: string, validator: TestKey) =>
      signedEnvelope(seeded, seeded.tasks.find((t) => t.taskId === taskId)!, validator, { verdict: 'ALLOW', createdAt: now });
    const one = envelopeFor(claimedSingle.tasks[0]!.taskId, single);
    expect((await recordLeasedAttestation(db, one, { validatorHotkey: single.hotkey, now, checkedAgainst })).status).toBe('recorded');
    const many = claimedBatch.tasks.map((t) => envelopeFor(t.taskId, batch));
    const results = await recordLeasedAttestations(db, many, { validatorHotkey: batch.hotkey, now, checkedAgainst });
    expect(results.map((r) => r.status === 'submitted' && r.outcome)).toEqual(['created', 'created']);
    const key = await operatorKey(db, ['--org', 'acme', '--plan', 'paid', '--scopes', 'read']);
    const server = await start(ctx, snapshotOf(validators));
    for (const envelope of [one, ...many]) {
      const answer = await call(server, 'GET', `/v1/attestations/${envelope.canonical_hash}`, key);
      expect(answer.body.checked_against).toEqual({ netuid: 76, block: 4_512_001, taken_at: formatOffsetTimestamp(T0 - 60_000) });
    }
  });

  it('verifies an envelope server-side exactly as verifyAttestation does offline', async () => {
    const seeded = await seedRound(ctx.db(), { now: T0, miners, validators: [...validators, outsider], artifacts: ARTIFACTS });
    const key = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'read,verify']);
    const snapshot = snapshotOf(validators, [outsider]);
    const server = await start(ctx, snapshot);
    const task = findTask(seeded, miners[0]!, leftPad);
    const valid = signedEnvelope(seeded, task, validators[0]!, { verdict: 'WARN', findings: [finding('install_script', 'MED')], createdAt: T0 });
    const wire = JSON.parse(JSON.stringify(valid)) as typeof valid;
    const tamperedHash = { ...wire, canonical_hash: `sha256:${'0'.repeat(64)}` };
    const tamperedPayload = { ...wire, payload: { ...wire.payload, risk_score: wire.payload.risk_score + 1 } };
    const badSignature = { ...wire, signature: wire.signature.slice(0, -1) + (wire.signature.endsWith('0') ? '1' : '0') };
    const noPermit = JSON.parse(JSON.stringify(signedEnvelope(seeded, task, outsider, { verdict: 'WARN', createdAt: T0 }))) as typeof valid;
    const extraField = JSON.parse(JSON.stringify(signedEnvelope(seeded, task, validators[1]!, { verdict: 'ALLOW', createdAt: T0 }))) as typeof valid;
    (extraField.payload as Record<string, unknown>).note = 'covered by the signature';
    for (const envelope of [wire, tamperedHash, tamperedPayload, badSignature, noPermit, extraField]) {
      const answer = await call(server, 'POST', '/v1/attestations/verify', key, { body: envelope });
      expect(answer.status).toBe(200);
      const offline = verifyAttestation(envelope, snapshot);
      expect(answer.body).toEqual({ ...offline, checked_against: { netuid: 76, block: 4_512_001, taken_at: '2026-11-21T09:59:00.000+00:00' } });
    }
    expect((await call(server, 'POST', '/v1/attestations/verify', key, { body: wire })).body.ok).toBe(true);
    expect((await call(server, 'POST', '/v1/attestations/verify', key, { body: noPermit })).body).toMatchObject({ ok: false, checks: { hash: true, signature: true, permit: false } });
    const malformed = await call(server, 'POST', '/v1/attestations/verify', key, { body: { ...wire, payload: { ...wire.payload, verdict: 'MAYBE' }, signature: 'xyz' } });
    expect(malformed.status).toBe(422);
    expect((malformed.body.errors as { path: string }[]).map((e) => e.path).sort()).toEqual(['body.payload.verdict', 'body.signature']);
  });
});

describeEachDialect('customer API: search', (ctx) => {
  closeServersAfterEach();
  it('finds artifacts and attestations by name, hash, verdict, track and finding category, ranked, with kinds', async () => {
    const { seeded, made } = await seed(ctx.db());
    const paid = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'read']);
    const free = await operatorKey(ctx.db(), ['--org', 'globex', '--scopes', 'read']);
    const server = await start(ctx, snapshotOf(validators));
    type Result = { type: string; kind: string; id: string; canonical_hash?: string; title: string; snippet: string; score: number; href: string };
    const find = async (q: string, token = paid, extra = '') => {
      const answer = await call(server, 'GET', `/v1/search?q=${encodeURIComponent(q)}${extra}`, token);
      expect(answer.status).toBe(200);
      return answer.body.results as Result[];
    };
    const leftPadRow = seeded.artifacts.get(leftPad)!;
    // By name: the artifact first (an identifier match), then its attestations (which mention it).
    const byName = await find('left-pad');
    expect(byName[0]).toEqual({ type: 'artifact', kind: 'artifact', id: `art_${leftPadRow.id}`, title: leftPad, href: `/v1/artifacts/art_${leftPadRow.id}`, snippet: expect.any(String), score: expect.any(Number) });
    expect(byName.slice(1).map((r) => r.kind)).toEqual(Array(4).fill('attestation'));
    expect(byName[0]!.score).toBeGreaterThan(byName[1]!.score);
    for (let i = 1; i < byName.length; i++) expect(byName[i - 1]!.score).toBeGreaterThanOrEqual(byName[i]!.score);
    // By content hash, and by a prefix of it.
    expect((await find(leftPadRow.content_hash))[0]).toMatchObject({ type: 'artifact', id: `art_${leftPadRow.id}` });
    expect((await find(leftPadRow.content_hash.slice(7, 19)))[0]).toMatchObject({ type: 'artifact', id: `art_${leftPadRow.id}` });
    // By canonical hash: that attestation, first.
    const target = made[5]!;
    const byHash = await find(target.hash);
    expect(byHash[0]).toMatchObject({ type: 'attestation', kind: 'attestation', id: target.hash, canonical_hash: target.hash, href: `/v1/attestations/${target.hash}` });
    expect(byHash).toHaveLength(1);
    // Each result's href is a read that answers.
    for (const result of [byName[0]!, byHash[0]!]) expect((await call(server, 'GET', result.href, paid)).status).toBe(200);
    // By finding category: the four attestations that carry it and the artifact that has it.
    const byCategory = await find('exfiltration');
    expect(byCategory.filter((r) => r.kind === 'attestation').map((r) => r.id).sort()).toEqual(made.filter((m) => m.bundle === evil).map((m) => m.hash).sort());
    expect(byCategory.filter((r) => r.kind === 'artifact').map((r) => r.title)).toEqual([evil]);
    expect(byCategory.find((r) => r.kind === 'attestation')!.snippet).toContain('category: exfiltration');
    // By verdict, narrowed to a kind, and by verdict and track together.
    expect((await find('BLOCK', paid, '&kind=attestation')).map((r) => r.id).sort()).toEqual(made.filter((m) => m.verdict === 'BLOCK').map((m) => m.hash).sort());
    expect((await find('block skills', paid, '&kind=artifact')).map((r) => r.title)).toEqual([evil]);
    // Finding text: shown to paid plans, not in a free plan's snippet.
    expect((await find('ssh keys', paid, '&kind=attestation'))[0]!.snippet).toContain('posts ssh keys');
    // A free plan cannot match on finding text at all: a hit or a miss would tell what withheld
    // findings say, even combined with a record's hash (probe finding).
    expect(await find('ssh keys', free, '&kind=attestation')).toEqual([]);
    expect(await find(`${target.hash.slice(7, 19)} ssh`, free)).toEqual([]);
    expect(await find('exfiltration', free)).toEqual([]);
    expect((await find(target.hash, free))[0]).toMatchObject({ type: 'attestation', id: target.hash });
    expect((await find('left-pad', free))[0]).toMatchObject({ type: 'artifact', id: `art_${leftPadRow.id}` });
    // Severities, types and titles are findings too: no free hit through them, and no free snippet shows one.
    expect(await find('CRIT', free)).toEqual([]);
    expect(await find('posts', free)).toEqual([]);
    for (const result of await find('BLOCK', free)) expect(result.snippet).not.toMatch(/category|severity|finding|file|type:/);
    expect((await find('CRIT', paid, '&kind=attestation')).length).toBeGreaterThan(0);
    expect(await find('nothing-matches-this')).toEqual([]);
    // Nothing of a benchmark's ground truth or kind is searchable.
    expect(await find('labeled')).toEqual([]);
  });

  it('pages search results with the same keyset headers', async () => {
    await seed(ctx.db());
    const key = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read']);
    const server = await start(ctx, snapshotOf(validators));
    const whole = await call(server, 'GET', '/v1/search?q=skills', key, { headers: { 'x-vigil-page-size': '100' } });
    const everything = (whole.body.results as { id: string; kind: string }[]).map((r) => `${r.kind}:${r.id}`);
    expect(everything).toHaveLength(15);
    const seen: string[] = [];
    let page: string | null = null;
    do {
      const headers: Record<string, string> = { 'x-vigil-page-size': '4' };
      if (page !== null) headers['x-vigil-page'] = page;
      const answer = await call(server, 'GET', '/v1/search?q=skills', key, { headers });
      seen.push(...(answer.body.results as { id: string; kind: string }[]).map((r) => `${r.kind}:${r.id}`));
      page = answer.headers.get('x-vigil-next-page');
    } while (page !== null);
    expect(seen).toEqual(everything);
  });
});
