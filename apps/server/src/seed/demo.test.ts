import {
  AgentEligibility,
  FINDING_CATEGORIES,
  Leaderboard,
  NetworkDashboard,
  RoundsStatusResponse,
  SEVERITIES,
  ThreatTrends,
  TRACKS,
} from '@vigil/core';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { createFileBlobStore } from '../platform/blobs/index.js';
import { openDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { createPublicReadService } from '../features/network/public-reads/public-read-service.js';
import { describeEachDialect } from '../test-support/databases.js';
import { DemoSeedError, seedDemo } from './demo.js';

const NOW = new Date(Date.UTC(2026, 10, 21, 10, 30, 0));
const blobDir = mkdtempSync(join(tmpdir(), 'vigil-demo-blobs-'));
afterAll(() => rmSync(blobDir, { recursive: true, force: true }));
const sha256Of = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describeEachDialect('seedDemo', ({ db }) => {
  it('fills an empty database with a network that exercises every public endpoint', { timeout: 600_000 }, async () => {
    const blobs = createFileBlobStore(join(blobDir, String(Math.random()).slice(2)));
    const result = await seedDemo(db(), { now: NOW, blobs });
    expect(result.validators).toBe(6);
    expect(result.miners).toBe(36);
    expect(result.attestations).toBeGreaterThan(5_000);

    const read = createPublicReadService(db());

    // One track accepting submissions, one evaluating, none double-open; next_round_opens_at null while any is open.
    const status = RoundsStatusResponse.parse(await read.roundsStatus(NOW));
    expect(status.tracks.map((t) => t.track).sort()).toEqual([...TRACKS].sort());
    const phases = status.tracks.map((t) => `${t.status}/${t.phase}`);
    expect(phases).toContain('open/submission');
    expect(phases).toContain('open/evaluation');
    expect(status.tracks.find((t) => t.phase === 'submission')!.accepting_submissions).toBe(true);
    expect(status.tracks.find((t) => t.phase === 'evaluation')!.accepting_submissions).toBe(false);
    expect(status.next_round_opens_at).toBeNull();

    // At least three closed rounds per track, each with scores and up to five winners.
    const closed = await read.closedRounds(200);
    for (const track of TRACKS) {
      const rounds = closed.rounds.filter((r) => r.track === track);
      expect(rounds.length).toBeGreaterThanOrEqual(3);
      expect(rounds[0]!.winners.length).toBeGreaterThan(0);
      expect(rounds[0]!.winners.length).toBeLessThanOrEqual(5);
    }
    const firstRound = closed.rounds.at(-1)!;
    const scores = await read.roundScores(firstRound.round_id);
    // The agent that answers one verdict to everything is in the early rounds and scores 0.
    expect(scores.scores.at(-1)!.score).toBe(0);

    // Agents that resubmitted mid round: null score and resubmitted_since on the leaderboard.
    const leaderboard = Leaderboard.parse(await read.leaderboard(NOW));
    expect(leaderboard.rows.some((r) => r.score === null && r.resubmitted_since && r.current_version > r.version)).toBe(true);
    expect(leaderboard.rows.some((r) => r.score !== null && !r.resubmitted_since)).toBe(true);

    // Findings across every severity and category; 30+ days of history in the trends.
    const trends = ThreatTrends.parse(await read.threatTrends(180, NOW));
    for (const severity of SEVERITIES) expect(trends.severity[severity]).toBeGreaterThan(0);
    expect(trends.categories.map((c) => c.category).sort()).toEqual([...FINDING_CATEGORIES].sort());
    const activeDays = trends.series.filter((d) => d.scanned > 0).length;
    expect(activeDays).toBeGreaterThanOrEqual(30);
    expect(trends.totals.flagged_artifacts).toBeLessThan(trends.scanned);

    const dashboard = NetworkDashboard.parse(await read.networkDashboard(NOW));
    expect(dashboard.validators).toEqual({ active: 5, total: 6 });
    expect(dashboard.throughput.filter((n) => n > 0).length).toBeGreaterThan(12);
    expect(dashboard.reruns_24h).toBeGreaterThan(0);

    const someWinner = closed.rounds[0]!.winners[0]!;
    const eligibility = AgentEligibility.parse(await read.agentEligibility(someWinner.hotkey, closed.rounds[0]!.track));
    expect(eligibility.hotkey).toBe(someWinner.hotkey);

    // Every artifact's bytes and every agent version's bundle are in the blob store, under their hash.
    const artifacts = await db().selectFrom('artifacts').select(['content_hash', 'kind']).execute();
    for (const artifact of artifacts) {
      const bytes = await blobs.get(artifact.content_hash);
      expect(bytes, artifact.content_hash).toBeDefined();
      expect(sha256Of(bytes!)).toBe(artifact.content_hash);
      // A real .tar.gz: gunzips, and holds ustar entries.
      expect(gunzipSync(bytes!).subarray(257, 262).toString('latin1')).toBe('ustar');
    }
    const codeHashes = await db().selectFrom('agent_versions').select('code_hash').execute();
    for (const { code_hash: hash } of codeHashes) {
      const bytes = await blobs.get(hash);
      expect(bytes, hash).toBeDefined();
      expect(JSON.parse(Buffer.from(bytes!).toString('utf8'))).toMatchObject({ format: 'vigil-agent-bundle/1', entrypoint: 'agent.py' });
    }

    await expect(seedDemo(db(), { now: NOW, blobs })).rejects.toThrow(DemoSeedError);
  });

  it('writes a shorter history on request, with every kind of row the full one has (what the SDK and CLI suites seed)', { timeout: 600_000 }, async () => {
    const blobs = createFileBlobStore(join(blobDir, String(Math.random()).slice(2)));
    await expect(seedDemo(db(), { now: NOW, blobs, historyDays: 7 })).rejects.toThrow(DemoSeedError);
    // The least it accepts: still every kind of row (the SDK and CLI suites' servers seed 9 days).
    const result = await seedDemo(db(), { now: NOW, blobs, historyDays: 8 });
    expect(result.validators).toBe(6);
    expect(result.miners).toBe(36);
    expect(result.attestations).toBeGreaterThan(1_000);
    expect(result.attestations).toBeLessThan(5_000);

    const read = createPublicReadService(db());
    const status = RoundsStatusResponse.parse(await read.roundsStatus(NOW));
    const phases = status.tracks.map((t) => `${t.status}/${t.phase}`);
    expect(phases).toContain('open/submission');
    expect(phases).toContain('open/evaluation');
    const closed = await read.closedRounds(200);
    for (const track of TRACKS) {
      const rounds = closed.rounds.filter((r) => r.track === track);
      expect(rounds.length).toBeGreaterThanOrEqual(1);
      expect(rounds[0]!.winners.length).toBeGreaterThan(0);
    }
    const leaderboard = Leaderboard.parse(await read.leaderboard(NOW));
    expect(leaderboard.rows.some((r) => r.score === null && r.resubmitted_since && r.current_version > r.version)).toBe(true);
    const trends = ThreatTrends.parse(await read.threatTrends(30, NOW));
    for (const severity of SEVERITIES) expect(trends.severity[severity]).toBeGreaterThan(0);
    expect(trends.totals.flagged_artifacts).toBeLessThan(trends.scanned);
    const dashboard = NetworkDashboard.parse(await read.networkDashboard(NOW));
    expect(dashboard.validators).toEqual({ active: 5, total: 6 });
    expect(dashboard.reruns_24h).toBeGreaterThan(0);
  });

  it('leaves the database empty when it fails part way, so the seed can be run again', { timeout: 600_000 }, async () => {
    const store = createFileBlobStore(join(blobDir, String(Math.random()).slice(2)));
    let puts = 0;
    // Fails in the second track, after the first track's rounds, attestations and closes were written.
    const failing = { ...store, put: async (bytes: Uint8Array) => (++puts > 100 ? Promise.reject(new Error('disk full')) : store.put(bytes)) };
    await expect(seedDemo(db(), { now: NOW, blobs: failing, historyDays: 8 })).rejects.toThrow('disk full');
    for (const table of ['validators', 'miners', 'artifacts', 'rounds', 'attestations', 'log_entries', 'outbox_events', 'search_entries'] as const) {
      const { n } = await db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(n), table).toBe(0);
    }
    const result = await seedDemo(db(), { now: NOW, blobs: store, historyDays: 8 });
    expect(result.validators).toBe(6);
  });
});

// Suites against a real server (the CLI's and the SDK's) pick demo packages by their published
// verdicts at whatever time they run. With one random stream for all tracks, the packages track's
// closed rounds depended on the minute of `now` (at 22:00:30 it published no BLOCK; CI failed on it).
it('publishes the same verdicts, every one of ALLOW, WARN and BLOCK on every track, at any time of day', { timeout: 600_000 }, async () => {
  const published = async (now: Date): Promise<string[]> => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-demo-time-'));
    const database = await openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(database.db);
      await seedDemo(database.db, { now, blobs: createFileBlobStore(join(dir, 'blobs')), historyDays: 9 });
      const rows = await database.db
        .selectFrom('published_verdicts')
        .innerJoin('artifacts', 'artifacts.id', 'published_verdicts.artifact_id')
        .select(['artifacts.bundle_hash', 'published_verdicts.verdict'])
        .orderBy('artifacts.bundle_hash')
        .execute();
      return rows.map((r) => `${r.bundle_hash} ${r.verdict}`);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const before = await published(new Date(Date.UTC(2026, 10, 29, 21, 59, 30)));
  const after = await published(new Date(Date.UTC(2026, 10, 29, 22, 0, 30)));
  expect(after).toEqual(before);
  for (const track of TRACKS) {
    for (const verdict of ['ALLOW', 'WARN', 'BLOCK']) {
      expect(before.some((row) => row.startsWith(`${track}/`) && row.endsWith(` ${verdict}`)), `${track} ${verdict}`).toBe(true);
    }
  }
});
