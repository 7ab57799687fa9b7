import {
  FINDING_CATEGORIES,
  NETUID,
  TRACKS,
  formatOffsetTimestamp,
  type AttestationSubmission,
  type AttestationPayload,
  type Finding,
  type FindingCategory,
  type Severity,
  type Track,
  type Verdict,
} from '@vigil/core';
import { getPublicKey, ss58Encode } from '@vigil/crypto';
import { createHash } from 'node:crypto';
import { writeSnapshotFile } from '../features/network/index.js';
import { demoAgentBundle, demoArtifactBytes } from './demo-content.js';
import { DEMO_HISTORY_DAYS, MIN_DEMO_HISTORY_DAYS } from './demo-history.js';
import { createDemoSigner, type DemoSigner } from './demo-signer.js';
import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema.js';
import type { BlobStore } from '../platform/blobs/index.js';
import { inTransaction } from '../platform/db/transaction.js';
import { storeAgentBundle } from '../features/network/index.js';
import { submitAgent } from '../features/network/index.js';
import { storeArtifact } from '../features/artifacts/index.js';
import { recordAttestations } from '../features/network/index.js';
import { deregisterMiner, registerMiner } from '../features/network/index.js';
import { closeRound, openRound, shortenSchedule, startEvaluation } from '../features/network/index.js';
import { createTasks, type CreatedTask } from '../features/network/index.js';
import { registerValidator, setValidatorStatus } from '../features/network/index.js';

/**
 * A realistic synthetic network, written through the same service modules the API uses, so every
 * invariant and aggregate holds exactly as for real traffic. Deterministic for a given `seed`.
 *
 * Shape: 6 validators (one suspended), 9 miners per track with agents of varied accuracy (one per
 * track answers the same verdict to everything, scores 0 and deregisters after three rounds), labeled and live artifacts
 * per track; rounds every 4 days for the last `historyDays` (default 36: ~5 weeks; 1 day of submissions, 2 of evaluation, 1 idle),
 * staggered so that at `now` one track is in its submission phase, two are evaluating and one is
 * between rounds; two agents per track resubmit during an evaluation.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CYCLE = 4 * DAY;
const SUBMISSION = 1 * DAY;
const EVALUATION = 2 * DAY;
const POLICY_VERSION = 'vigil-policy-2026.11';

export interface SeedDemoOptions {
  now: Date;
  /**
   * Where the artifacts' bytes and the agents' bundles go: the server's blob store, so a validator
   * leasing a demo task can download both and run it.
   */
  blobs: BlobStore;
  /** PRNG seed; the same seed, `now` and `historyDays` give the same network. */
  seed?: number;
  /**
   * Days of rounds before `now` (default 36, at least 8): fewer days, fewer closed rounds and
   * attestations, the same kinds of data (VIGIL_DEMO_HISTORY_DAYS).
   */
  historyDays?: number;
  /** Reports each phase, for the command line. */
  progress?: (message: string) => void;
  /**
   * Where to write a metagraph snapshot (netuid 76) in which the demo's active validators hold
   * permits, so signed validator requests work against the demo out of the box.
   */
  metagraphFile?: string;
  /**
   * The scheduler's round timings (VIGIL_ROUND_SUBMISSION_S, …_EVALUATION_S, …_GAP_S). Where they are
   * shorter than the demo's own (1 day of submissions, 2 of evaluation), the rounds open at `now` and
   * the next openings are pulled in to them, so a short round can be watched on demo data.
   */
  schedule?: { submissionMs: number; evaluationMs: number; gapMs: number };
}

export interface SeedDemoResult {
  validators: number;
  miners: number;
  rounds: number;
  attestations: number;
}

export class DemoSeedError extends Error {
  override name = 'DemoSeedError';
}

/** mulberry32: tiny, fast, deterministic; quality is ample for synthetic data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Key {
  hotkey: string;
  secretKey: Uint8Array;
}

function keyFrom(random: () => number): Key {
  const secretKey = new Uint8Array(32);
  for (let i = 0; i < 32; i++) secretKey[i] = Math.floor(random() * 256);
  return { hotkey: ss58Encode(getPublicKey(secretKey)), secretKey };
}

const AGENT_NAMES = [
  'sentinel', 'tripwire', 'warden', 'lookout', 'bastion', 'gatekeeper', 'picket', 'watchtower', 'outrider',
  'vanguard', 'rampart', 'beacon', 'custodian', 'aegis', 'harbor', 'keystone', 'palisade', 'sextant',
];
const PROVIDERS = ['anthropic', 'openai', 'google', 'mistral', 'self-hosted'];

const SOURCES: Record<Track, { label: string; source: (i: number) => string; files: string[] }> = {
  skills: {
    label: 'skill',
    source: (i) => `github.com/agent-skills/skill-${i.toString(36)}`,
    files: ['SKILL.md', 'scripts/setup.sh', 'scripts/run.py', 'reference/usage.md'],
  },
  mcp_servers: {
    label: 'mcp',
    source: (i) => `pkg:npm/mcp-server-tool-${i.toString(36)}@1.${i % 7}.0`,
    files: ['server.json', 'src/tools.ts', 'src/index.ts', 'package.json'],
  },
  packages: {
    label: 'npm',
    source: (i) => `pkg:npm/agent-util-${i.toString(36)}@${1 + (i % 3)}.${i % 10}.${i % 4}`,
    files: ['package.json', 'scripts/postinstall.js', 'lib/index.js', 'dist/bundle.min.js'],
  },
  repositories: {
    label: 'repo',
    source: (i) => `github.com/example-org/service-${i.toString(36)}`,
    files: ['.github/workflows/release.yml', 'Makefile', 'package-lock.json', 'scripts/bootstrap.sh'],
  },
};

const TITLES: Record<FindingCategory, string> = {
  prompt_injection: 'instructions that tell the model to ignore its system prompt',
  tool_poisoning: 'tool description carries hidden instructions for the model',
  instruction_override: 'skill rewrites the agent’s safety instructions',
  install_script: 'install script downloads and runs a remote payload',
  typosquat: 'name is one edit away from a popular package',
  dependency_confusion: 'internal package name published to the public registry',
  malware: 'known malicious payload signature',
  exfiltration: 'reads credentials and posts them to a remote host',
  credential_access: 'reads ~/.ssh and cloud credential files',
  obfuscation: 'heavily obfuscated code evaluated at runtime',
  remote_code_execution: 'evaluates strings received over the network',
  excessive_permissions: 'requests filesystem and network access it never uses',
  vulnerability: 'depends on a version with a known critical advisory',
};

interface ArtifactSpec {
  bundleHash: string;
  contentHash: string;
  truth: Verdict;
  kind: 'labeled' | 'live';
  /** Consistent threat profile, so independent runs report the same kind of findings. */
  categories: FindingCategory[];
}

interface AgentModel {
  key: Key;
  name: string;
  provider: string;
  /** Probability of the right verdict on any artifact. */
  accuracy: number;
  /** An agent that answers the same verdict to everything. */
  constant: Verdict | null;
  version: number;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function sample<T>(random: () => number, items: readonly T[], n: number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

function truthFor(random: () => number): Verdict {
  const r = random();
  return r < 0.6 ? 'ALLOW' : r < 0.8 ? 'WARN' : 'BLOCK';
}

function agentVerdict(random: () => number, agent: AgentModel, truth: Verdict): Verdict {
  if (agent.constant) return agent.constant;
  if (truth === 'ALLOW') {
    // False positives are rare for any agent worth running; misses on malicious code are the common error.
    if (random() < 1 - (1 - agent.accuracy) / 6) return 'ALLOW';
    return random() < 0.7 ? 'WARN' : 'BLOCK';
  }
  if (random() < agent.accuracy) return truth;
  return random() < 0.75 ? 'ALLOW' : truth === 'WARN' ? 'BLOCK' : 'WARN';
}

function findingsFor(random: () => number, verdict: Verdict, artifact: ArtifactSpec, files: string[]): Finding[] {
  if (verdict === 'ALLOW') return [];
  const count = 1 + Math.floor(random() * 3);
  const pool = artifact.categories.length > 0 ? artifact.categories : [pick(random, FINDING_CATEGORIES)];
  const severities: Severity[] = verdict === 'BLOCK' ? ['CRIT', 'HIGH', 'HIGH', 'MED'] : ['MED', 'LOW', 'LOW', 'HIGH'];
  return Array.from({ length: count }, () => {
    const category = pick(random, pool);
    return {
      type: pick(random, ['static', 'dynamic', 'heuristic']),
      category,
      severity: pick(random, severities),
      title: TITLES[category],
      file: pick(random, files),
    };
  });
}

/** What every step of the seed shares: where it writes, the one PRNG stream, and the clock. */
interface DemoContext {
  db: Kysely<Database>;
  blobs: BlobStore;
  random: () => number;
  progress: (message: string) => void;
  now: number;
  /** `now` rounded down to the hour: round boundaries fall on whole hours, like a scheduled network. */
  anchor: number;
  historyStart: number;
  activeValidators: Key[];
  /** Signs each round's attestations (on a second core where there is one). */
  signer: DemoSigner;
}

/** One track being seeded: its agents, its artifacts and the bundle hash of each agent version. */
interface DemoTrack {
  track: Track;
  source: (typeof SOURCES)[Track];
  agents: AgentModel[];
  labeled: ArtifactSpec[];
  live: ArtifactSpec[];
  agentHash: (agent: AgentModel, version: number) => Promise<string>;
}

interface DemoTally {
  rounds: number;
  attestations: number;
  miners: number;
  /** Numbers the artifacts across tracks, so every source id is distinct. */
  artifacts: number;
}

/** One validator's execution of one task, at a time within the evaluation phase. */
interface DemoRun {
  at: number;
  validator: Key;
  taskId: string;
  miner: AgentModel;
  artifact: ArtifactSpec;
  verdict: Verdict;
}

/**
 * Fills an empty database with the demo network. Refuses a database that already has rounds.
 *
 * One transaction: every service joins it (inTransaction), so the thousands of writes are committed
 * once instead of some six hundred times (each commit flushed the full-text index and the WAL), and a
 * seed that fails leaves the database empty rather than half filled.
 */
export async function seedDemo(db: Kysely<Database>, options: SeedDemoOptions): Promise<SeedDemoResult> {
  const historyDays = options.historyDays ?? DEMO_HISTORY_DAYS;
  if (!Number.isInteger(historyDays) || historyDays < MIN_DEMO_HISTORY_DAYS) {
    throw new DemoSeedError(`historyDays: expected an integer ≥ ${MIN_DEMO_HISTORY_DAYS}, got ${historyDays}`);
  }
  const seed = options.seed ?? 76;
  const random = prng(seed);
  const now = options.now.getTime();
  const anchor = Math.floor(now / HOUR) * HOUR;
  const historyStart = anchor - historyDays * DAY;
  const progress = options.progress ?? (() => {});
  const signer = createDemoSigner();
  const { validators, tally, ctx } = await inTransaction(db, async (trx) => {
    const existing = await trx.selectFrom('rounds').select('round_id').limit(1).executeTakeFirst();
    if (existing !== undefined) throw new DemoSeedError('database: already holds rounds; the demo seed fills an empty database only');
    const validators = await seedValidators(trx, random, historyStart);
    const ctx: DemoContext = {
      db: trx,
      blobs: options.blobs,
      random,
      progress,
      now,
      anchor,
      historyStart,
      activeValidators: validators.slice(0, 5),
      signer,
    };
    const tally: DemoTally = { rounds: 0, attestations: 0, miners: 0, artifacts: 0 };
    // Each track draws from a stream of its own. With one shared stream, a track's closed rounds
    // depended on how many draws the tracks before it had spent on their open rounds, which depends on
    // the minute of `now`: at some hours the packages track published no BLOCK at all.
    for (const [trackIndex, track] of TRACKS.entries()) {
      await seedTrack({ ...ctx, random: prng(seed ^ Math.imul(trackIndex + 1, 0x9e3779b9)) }, track, trackIndex, tally);
    }
    if (options.schedule !== undefined) await shortenSchedule(trx, { now, ...options.schedule });
    return { validators, tally, ctx };
  }).finally(() => signer.close());
  if (options.metagraphFile !== undefined) await writeDemoMetagraph(ctx, validators, options.metagraphFile);
  progress(`seeded ${tally.rounds} rounds, ${tally.attestations} attestations`);
  return { validators: validators.length, miners: tally.miners, rounds: tally.rounds, attestations: tally.attestations };
}

/** Six validators; the last is suspended before the history starts: counted in the total, never active. */
async function seedValidators(db: Kysely<Database>, random: () => number, historyStart: number): Promise<Key[]> {
  const validators = Array.from({ length: 6 }, () => keyFrom(random));
  for (const [uid, v] of validators.entries()) {
    await registerValidator(db, { hotkey: v.hotkey, uid, allowedIps: ['127.0.0.1', '::1'], now: historyStart });
  }
  await setValidatorStatus(db, { hotkey: validators[5]!.hotkey, status: 'suspended', now: historyStart });
  return validators;
}

/** A snapshot in which the first five validators hold permits, so signed validator requests work on the demo. */
async function writeDemoMetagraph(ctx: DemoContext, validators: readonly Key[], file: string): Promise<void> {
  await writeSnapshotFile(file, {
    netuid: NETUID,
    block: 4_000_000 + Math.floor((ctx.now - ctx.historyStart) / 12_000),
    taken_at: formatOffsetTimestamp(ctx.now),
    neurons: validators.map((v, uid) => ({ uid, hotkey: v.hotkey, validator_permit: uid < 5 })),
  });
  ctx.progress(`wrote a metagraph snapshot with ${ctx.activeValidators.length} permitted validators to ${file}`);
}

/** A track's miners, artifacts and rounds from the start of the history up to `now`. */
async function seedTrack(ctx: DemoContext, track: Track, trackIndex: number, tally: DemoTally): Promise<void> {
  ctx.progress(`seeding ${track}`);
  const source = SOURCES[track];
  const agents = demoAgents(ctx.random, trackIndex);
  tally.miners += agents.length;
  const artifacts = await storeDemoArtifacts(ctx, track, tally);
  const state: DemoTrack = {
    track,
    source,
    agents,
    labeled: artifacts.filter((a) => a.kind === 'labeled'),
    live: artifacts.filter((a) => a.kind === 'live'),
    agentHash: agentHashes(ctx.blobs),
  };

  // Staggered cycles: at `now`, track i is (0.5 + i) days into a round cycle.
  let opensAt = ctx.anchor - (0.5 + trackIndex) * DAY;
  while (opensAt - CYCLE >= ctx.historyStart) opensAt -= CYCLE;

  await registerDemoMiners(ctx, state, opensAt - DAY);
  for (let roundIndex = 0; opensAt <= ctx.now; opensAt += CYCLE, roundIndex++) {
    const closed = await seedRound(ctx, state, opensAt, roundIndex, tally);
    if (!closed) break;
  }
}

/** Nine agents: most good and in agreement, two mediocre, one answering the same verdict to everything. */
function demoAgents(random: () => number, trackIndex: number): AgentModel[] {
  return sample(random, AGENT_NAMES, 9).map((name, i) => ({
    key: keyFrom(random),
    name,
    provider: pick(random, PROVIDERS),
    // Real networks look like this after a few rounds.
    accuracy: i < 6 ? 0.86 + random() * 0.13 : 0.65 + random() * 0.15,
    constant: i === 8 ? (trackIndex % 2 === 0 ? 'BLOCK' : 'ALLOW') : null,
    version: 0,
  }));
}

/**
 * The order in which a track's 64 artifacts are numbered and registered: by a hash of the track and
 * the index, so labeled and live ones interleave (and the seed's random stream is untouched).
 * Numbered and registered labeled-first, a source id's number, the archive's folder name or an
 * artifact's id would tell which tasks are scored.
 */
function registrationOrder(track: Track): number[] {
  const rank = (i: number) => createHash('sha256').update(`${track}\n${i}`).digest('hex');
  return Array.from({ length: 64 }, (_, i) => i).sort((a, b) => (rank(a) < rank(b) ? -1 : 1));
}

/** 64 artifacts of the track (24 labeled, 40 live, interleaved in number and registration), bytes in the blob store. */
async function storeDemoArtifacts(ctx: DemoContext, track: Track, tally: DemoTally): Promise<ArtifactSpec[]> {
  const { random } = ctx;
  const source = SOURCES[track];
  const drawn = Array.from({ length: 64 }, (_, i) => {
    const kind: ArtifactSpec['kind'] = i < 24 ? 'labeled' : 'live';
    const truth = truthFor(random);
    const categories = truth === 'ALLOW' ? [] : sample(random, FINDING_CATEGORIES, 2);
    return { kind, truth, categories };
  });
  const order = registrationOrder(track);
  // One label, one byte generator for both kinds: nothing a validator sees says which is which.
  const made = order.map((i) => {
    const n = tally.artifacts++;
    return { i, sourceId: source.source(n), bytes: demoArtifactBytes(track, `${source.label}-${n.toString(36)}`, drawn[i]!.categories) };
  });
  // The blobs are written all at once, so their fsyncs overlap instead of queueing one by one;
  // storeArtifact then finds each in place (a put of stored bytes writes nothing) and registers
  // the artifacts in their order.
  await Promise.all(made.map(({ bytes }) => ctx.blobs.put(bytes)));
  const artifacts: ArtifactSpec[] = new Array<ArtifactSpec>(64);
  for (const { i, sourceId, bytes } of made) {
    const { kind, truth, categories } = drawn[i]!;
    const base = { track, label: source.label, sourceId, bytes, now: ctx.historyStart };
    const row = await storeArtifact(ctx.db, ctx.blobs, kind === 'labeled' ? { ...base, kind, groundTruth: truth } : { ...base, kind });
    artifacts[i] = { bundleHash: row.bundle_hash, contentHash: row.content_hash, truth, kind, categories };
  }
  return artifacts;
}

/**
 * The agent hash of each version is that of a real bundle in the blob store, stored once. The cache
 * holds the stores in flight, so the versions a step needs can be stored at once (their fsyncs
 * overlap) and then read in order.
 */
function agentHashes(blobs: BlobStore): (agent: AgentModel, version: number) => Promise<string> {
  const hashes = new Map<string, Promise<string>>();
  return (agent, version) => {
    const key = `${agent.key.hotkey} ${version}`;
    let hash = hashes.get(key);
    if (hash === undefined) {
      hash = storeAgentBundle(blobs, demoAgentBundle(agent.name, version, agent.key.hotkey)).then((stored) => stored.agentHash);
      hashes.set(key, hash);
    }
    return hash;
  };
}

async function registerDemoMiners(ctx: DemoContext, state: DemoTrack, at: number): Promise<void> {
  await Promise.all(state.agents.map((agent) => state.agentHash(agent, 1)));
  for (const agent of state.agents) {
    await registerMiner(ctx.db, { hotkey: agent.key.hotkey, track: state.track, now: at });
    await submitAgent(ctx.db, {
      hotkey: agent.key.hotkey,
      track: state.track,
      name: agent.name,
      provider: agent.provider,
      codeHash: await state.agentHash(agent, 1),
      now: at,
    });
    agent.version = 1;
  }
}

/**
 * One round opened at `opensAt`, taken as far as `now` allows: evaluation, the validators'
 * attestations, the close. Returns whether the round closed (an unfinished round is the track's last).
 */
async function seedRound(ctx: DemoContext, state: DemoTrack, opensAt: number, roundIndex: number, tally: DemoTally): Promise<boolean> {
  const { db, random, now } = ctx;
  if (roundIndex === 3) {
    const quitter = state.agents.find((a) => a.constant !== null)!;
    await deregisterMiner(db, { hotkey: quitter.key.hotkey, track: state.track, now: opensAt - HOUR });
  }
  const round = await openRound(db, {
    track: state.track,
    now: opensAt,
    submissionMs: SUBMISSION,
    evaluationMs: EVALUATION,
    policyVersion: POLICY_VERSION,
    roundId: Array.from({ length: 16 }, () => Math.floor(random() * 16).toString(16)).join(''),
  });
  tally.rounds++;
  const evaluationStart = opensAt + SUBMISSION;
  if (evaluationStart > now) return false;
  await startEvaluation(db, { roundId: round.round_id, now: evaluationStart });

  const roundArtifacts = [...sample(random, state.labeled, 10), ...sample(random, state.live, 14)];
  const tasks = await createTasks(db, { roundId: round.round_id, bundleHashes: roundArtifacts.map((a) => a.bundleHash), now: evaluationStart });
  const frozen = new Map<string, string>();
  for (const a of state.agents) frozen.set(a.key.hotkey, await state.agentHash(a, a.version));

  // Two agents resubmit mid-evaluation: what is scored stays the frozen version.
  const resubmitAt = evaluationStart + 6 * HOUR;
  const resubmitters = resubmitAt <= now ? sample(random, state.agents.slice(0, 8), 2) : [];
  const runs = planRuns(ctx, state, tasks, roundArtifacts, evaluationStart).filter((run) => run.at <= now);
  // Each validator signs what it ran; the service records them in batches, each at its own time, as
  // if each had arrived alone then (recordAttestations' `recordedAt`).
  const envelopes = await ctx.signer.sign(
    runs.map((run) => ({ payload: demoAttestation(random, state, round.round_id, run, frozen.get(run.miner.key.hotkey)!), secretKey: run.validator.secretKey })),
  );
  const firstAfterResubmit = runs.findIndex((run) => run.at >= resubmitAt);
  if (firstAfterResubmit === -1) {
    await recordDemoAttestations(ctx, runs, envelopes);
  } else {
    await recordDemoAttestations(ctx, runs.slice(0, firstAfterResubmit), envelopes.slice(0, firstAfterResubmit));
    await resubmitAgents(ctx, state, resubmitters, resubmitAt);
    await recordDemoAttestations(ctx, runs.slice(firstAfterResubmit), envelopes.slice(firstAfterResubmit));
  }
  tally.attestations += envelopes.length;
  const closesAt = opensAt + SUBMISSION + EVALUATION;
  if (closesAt > now) return false;
  await closeRound(db, { roundId: round.round_id, now: closesAt, nextRoundOpensAt: opensAt + CYCLE });
  return true;
}

/** Records the envelopes of `runs` at the runs' times; every one must be accepted, or the demo is wrong. */
async function recordDemoAttestations(ctx: DemoContext, runs: readonly DemoRun[], envelopes: readonly AttestationSubmission[]): Promise<void> {
  if (envelopes.length === 0) return;
  const results = await recordAttestations(ctx.db, envelopes, { now: runs.at(-1)!.at, recordedAt: runs.map((run) => run.at) });
  const refused = results.find((r) => r.outcome !== 'created');
  if (refused !== undefined) throw new DemoSeedError(`attestation ${refused.canonical_hash}: ${refused.outcome} (${refused.error?.message ?? 'already recorded'})`);
}

/** Who runs which task when, and with what verdict, in time order. */
function planRuns(
  ctx: DemoContext,
  state: DemoTrack,
  tasks: readonly CreatedTask[],
  roundArtifacts: readonly ArtifactSpec[],
  evaluationStart: number,
): DemoRun[] {
  const { random, activeValidators } = ctx;
  const byHash = new Map(roundArtifacts.map((a) => [a.bundleHash, a]));
  const byHotkey = new Map(state.agents.map((a) => [a.key.hotkey, a]));
  const runs: DemoRun[] = [];
  for (const task of tasks) {
    const artifact = byHash.get(task.bundleHash)!;
    const miner = byHotkey.get(task.hotkey)!;
    // Validators re-execute the same agent on the same artifact: they mostly reproduce one verdict.
    const reproduced = agentVerdict(random, miner, artifact.truth);
    // Independent re-executions: each active validator takes a task with probability 0.45, at least one does.
    const takers = activeValidators.filter(() => random() < 0.45);
    if (takers.length === 0) takers.push(pick(random, activeValidators));
    for (const validator of takers) {
      const verdict = random() < 0.96 ? reproduced : agentVerdict(random, miner, artifact.truth);
      runs.push({ at: evaluationStart + Math.floor(random() * (EVALUATION - HOUR)), validator, taskId: task.taskId, miner, artifact, verdict });
    }
  }
  return runs.sort((a, b) => a.at - b.at);
}

async function resubmitAgents(ctx: DemoContext, state: DemoTrack, agents: readonly AgentModel[], at: number): Promise<void> {
  await Promise.all(agents.map((agent) => state.agentHash(agent, agent.version + 1)));
  for (const agent of agents) {
    agent.version += 1;
    await submitAgent(ctx.db, {
      hotkey: agent.key.hotkey,
      track: state.track,
      name: agent.name,
      provider: agent.provider,
      codeHash: await state.agentHash(agent, agent.version),
      now: at,
    });
  }
}

/** The payload a validator signs for `run`: findings that fit the verdict, a risk score in its band. */
function demoAttestation(random: () => number, state: DemoTrack, roundId: string, run: DemoRun, agentHash: string): AttestationPayload {
  const verdict = run.verdict;
  const findings = findingsFor(random, verdict, run.artifact, state.source.files);
  return {
    round_id: roundId,
    task_id: run.taskId,
    track: state.track,
    miner_hotkey: run.miner.key.hotkey,
    agent_hash: agentHash,
    artifact: { bundle_hash: run.artifact.bundleHash, sha256: run.artifact.contentHash },
    verdict,
    risk_score: riskScoreFor(random, verdict),
    findings,
    policy_version: POLICY_VERSION,
    validator_hotkey: run.validator.hotkey,
    created_at: formatOffsetTimestamp(run.at),
  };
}

function riskScoreFor(random: () => number, verdict: Verdict): number {
  return verdict === 'ALLOW' ? Math.floor(random() * 20) : verdict === 'WARN' ? 35 + Math.floor(random() * 35) : 70 + Math.floor(random() * 31);
}
