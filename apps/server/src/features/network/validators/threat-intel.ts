import { MAX_THREAT_INTEL_FINDINGS, canonicalJson, type Finding } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database, VerdictName } from '../../../platform/db/schema.js';

export interface ThreatIntelRecord {
  sha256: string;
  bundleHashes: string[];
  verdict: VerdictName | null;
  verdictUpdatedAt: number | null;
  findings: Finding[];
}

/** Attestations read to collect distinct findings: enough for 50 distinct ones in practice, bounded per lookup. */
const ATTESTATIONS_SCANNED = 500;

/** Ties of the consensus go to the more severe verdict. */
const SEVERITY: Record<VerdictName, number> = { BLOCK: 2, WARN: 1, ALLOW: 0 };

/**
 * What Vigil already knows about an artifact's content, from closed rounds only and by one rule for
 * every artifact whatever its kind: the artifacts carrying it, the consensus verdict of the latest
 * closed round that evaluated it (majority of its attestations; ties to the more severe) with that
 * round's close time, and the distinct findings of attestations in closed rounds, most recent first.
 * Benchmark (labeled) and live artifacts answer alike, so a lookup cannot tell a validator which
 * tasks are scored against ground truth; attestations of open rounds are left out, so a validator
 * cannot copy another's result for a task it is running, and so are those of fast tasks (attested
 * after their round closed, docs/rounds.md). Ground truth is never shown.
 */
export async function threatIntel(db: Kysely<Database>, sha256: string): Promise<ThreatIntelRecord> {
  const artifacts = await db
    .selectFrom('artifacts')
    .select(['id', 'bundle_hash'])
    .where('content_hash', '=', sha256)
    .orderBy('bundle_hash')
    .execute();
  if (artifacts.length === 0) return { sha256, bundleHashes: [], verdict: null, verdictUpdatedAt: null, findings: [] };
  const ids = artifacts.map((a) => a.id);
  const closedAttestations = db
    .selectFrom('attestations')
    .innerJoin('rounds', 'rounds.round_id', 'attestations.round_id')
    .innerJoin('tasks', 'tasks.task_id', 'attestations.task_id')
    .where('attestations.artifact_id', 'in', ids)
    .where('rounds.status', '=', 'closed')
    // Fast tasks are attested after their round closed, while other validators may still be running
    // them, and only some artifacts have them: they stay out, so the answer is a round's alone.
    .where('tasks.fast', '=', 0);
  const latest = await closedAttestations
    .select(['rounds.round_id', 'rounds.closed_at'])
    .orderBy('rounds.closed_at', 'desc')
    .orderBy('rounds.round_id')
    .limit(1)
    .executeTakeFirst();
  let verdict: VerdictName | null = null;
  if (latest !== undefined) {
    const votes = await closedAttestations
      .select(['attestations.verdict', (eb) => eb.fn.countAll<number>().as('n')])
      .where('rounds.round_id', '=', latest.round_id)
      .groupBy('attestations.verdict')
      .execute();
    for (const vote of votes) {
      const n = Number(vote.n);
      const best = votes.find((v) => v.verdict === verdict);
      const bestN = best === undefined ? -1 : Number(best.n);
      if (verdict === null || n > bestN || (n === bestN && SEVERITY[vote.verdict] > SEVERITY[verdict])) verdict = vote.verdict;
    }
  }
  const attestations = await closedAttestations
    .select('attestations.findings')
    .orderBy('attestations.recorded_at', 'desc')
    .orderBy('attestations.id', 'desc')
    .limit(ATTESTATIONS_SCANNED)
    .execute();
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const row of attestations) {
    for (const f of JSON.parse(row.findings) as Finding[]) {
      const finding: Finding = { type: f.type, category: f.category, severity: f.severity, title: f.title, file: f.file };
      const key = canonicalJson(finding);
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(finding);
      if (findings.length === MAX_THREAT_INTEL_FINDINGS) break;
    }
    if (findings.length === MAX_THREAT_INTEL_FINDINGS) break;
  }
  return {
    sha256,
    bundleHashes: artifacts.map((a) => a.bundle_hash),
    verdict,
    verdictUpdatedAt: verdict === null || latest?.closed_at == null ? null : Number(latest.closed_at),
    findings,
  };
}
