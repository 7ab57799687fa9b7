import cvss from 'ae-cvss-calculator';
import type { VulnerabilitySeverity } from '../input-sources.js';
import type { OsvRecord, OsvSeverity } from './osv-record.js';

const { Cvss3P0, Cvss3P1, Cvss4P0 } = cvss;

/** GitHub's own rating (`database_specific.severity` of a GHSA record); `MEDIUM` is how some other databases write it. */
const DATABASE_RATINGS: Readonly<Record<string, VulnerabilitySeverity>> = {
  LOW: 'low',
  MODERATE: 'moderate',
  MEDIUM: 'moderate',
  HIGH: 'high',
  CRITICAL: 'critical',
};

/**
 * The CVSS qualitative rating of a base score (the same bands in v3.x and v4.0): 9.0-10.0 critical,
 * 7.0-8.9 high, 4.0-6.9 moderate (CVSS says medium), 0.1-3.9 low. A score of 0.0 (CVSS says none)
 * is low: the advisory still names the version as affected.
 */
export function ratingOfScore(score: number): VulnerabilitySeverity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'moderate';
  return 'low';
}

/** The base score of a CVSS v3.0, v3.1 or v4.0 vector, or undefined for anything else or an incomplete vector. */
export function cvssBaseScore(vector: string): number | undefined {
  try {
    let score: number | undefined;
    if (vector.startsWith('CVSS:4.0/')) score = new Cvss4P0(vector).calculateScores().base;
    else if (vector.startsWith('CVSS:3.1/')) score = new Cvss3P1(vector).calculateScores().base;
    else if (vector.startsWith('CVSS:3.0/')) score = new Cvss3P0(vector).calculateScores().base;
    return typeof score === 'number' && Number.isFinite(score) ? score : undefined;
  } catch {
    return undefined;
  }
}

function fromVectors(severities: readonly OsvSeverity[] | undefined): VulnerabilitySeverity | undefined {
  // The newest CVSS version the record gives decides: v4 before v3.
  for (const type of ['CVSS_V4', 'CVSS_V3']) {
    for (const entry of severities ?? []) {
      if (entry.type !== type) continue;
      const score = cvssBaseScore(entry.score.trim());
      if (score !== undefined) return ratingOfScore(score);
    }
  }
  return undefined;
}

/**
 * The severity of an advisory for one of its `affected[]` entries (docs/advisories.md, "Severity"):
 * the database's own rating when the record carries one (`database_specific.severity`, GHSA's
 * LOW/MODERATE/HIGH/CRITICAL); else the base score of the entry's CVSS v4 or v3 vector, else the
 * record's; else `unknown` (CVSS v2 vectors and other scales are not rated).
 */
export function severityOf(record: OsvRecord, entrySeverity: readonly OsvSeverity[] | undefined): VulnerabilitySeverity {
  const rating = record.database_specific?.severity;
  if (typeof rating === 'string' && Object.hasOwn(DATABASE_RATINGS, rating.toUpperCase())) return DATABASE_RATINGS[rating.toUpperCase()]!;
  return fromVectors(entrySeverity) ?? fromVectors(record.severity) ?? 'unknown';
}
