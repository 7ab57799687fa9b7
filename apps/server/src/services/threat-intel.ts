import { MAX_THREAT_INTEL_FINDINGS, canonicalJson, type Finding } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database, VerdictName } from '../db/schema.js';

export interface ThreatIntelRecord {
  sha256: string;
  bundleHashes: string[];
  verdict: VerdictName | null;
  verdictUpdatedAt: number | null;
  findings: Finding[];
}

/** Attestations read to collect distinct findings: enough for 50 distinct ones in practice, bounded per lookup. */
const ATTESTATIONS_SCANNED = 500;

/**
 * What Vigil already knows about an artifact's content: the live artifacts carrying it, the most
 * recently published verdict among them, and the distinct findings of their attestations in closed
 * rounds, most recent first. Labeled (benchmark) artifacts are left out, and so are attestations of
 * rounds still open: a lookup must neither reveal the benchmark set nor let a validator copy
 * another's result for a task it is running.
 */
export async function threatIntel(db: Kysely<Database>, sha256: string): Promise<ThreatIntelRecord> {
  const artifacts = await db
    .selectFrom('artifacts')
    .select(['id', 'bundle_hash'])
    .where('content_hash', '=', sha256)
    .where('kind', '=', 'live')
    .orderBy('bundle_hash')
    .execute();
  if (artifacts.length === 0) return { sha256, bundleHashes: [], verdict: null, verdictUpdatedAt: null, findings: [] };
  const ids = artifacts.map((a) => a.id);
  const published = await db
    .selectFrom('published_verdicts')
    .select(['verdict', 'updated_at'])
    .where('artifact_id', 'in', ids)
    .orderBy('updated_at', 'desc')
    .orderBy('artifact_id')
    .limit(1)
    .executeTakeFirst();
  const attestations = await db
    .selectFrom('attestations')
    .innerJoin('rounds', 'rounds.round_id', 'attestations.round_id')
    .select('attestations.findings')
    .where('attestations.artifact_id', 'in', ids)
    .where('rounds.status', '=', 'closed')
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
    verdict: published?.verdict ?? null,
    verdictUpdatedAt: published === undefined ? null : Number(published.updated_at),
    findings,
  };
}
