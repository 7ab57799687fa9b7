import { formatOffsetTimestamp, NETUID, type AttestationListQuery, type AttestationPayload, type AttestationRecord, type DsseEnvelope, type Finding } from '@vigil/core';
import { attestationDsseEnvelope } from '@vigil/crypto';
import type { Kysely } from 'kysely';
import { partitionKeysOfHashes } from '../../../platform/db/attestation-partitions.js';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';

/**
 * The customer attestation reads (docs/customer-attestations.md). Newest first by
 * (recorded_at, id); pages continue from the last row's pair (a keyset), never by OFFSET, so a late
 * page seeks through the same index as the first (migration 0007).
 */

/** Where the next page starts: strictly after this (recorded_at, id) in the newest-first order. */
export interface AttestationKey {
  recordedAt: number;
  id: number;
}

const COLUMNS = [
  'a.id',
  'a.canonical_hash',
  'a.task_id',
  'a.round_id',
  'a.track',
  'a.miner_hotkey',
  'a.validator_hotkey',
  'a.agent_hash',
  'a.artifact_id',
  'a.verdict',
  'a.risk_score',
  'a.findings',
  'a.created_at',
  'a.recorded_at',
  'r.bundle_hash',
  'r.content_hash',
] as const;

/**
 * The page query: filters, keyset bound, order and limit. Exported so tests can read its plan;
 * the read below runs exactly this. `hashKeys`: the partition keys of `filters.canonical_hash`
 * (`partitionKeysOfHashes`), so PostgreSQL reads the one month holding it.
 */
export function attestationPageQuery(
  db: Kysely<Database>,
  filters: AttestationListQuery,
  after: AttestationKey | null,
  limit: number,
  hashKeys?: readonly number[],
) {
  return db
    .selectFrom('attestations as a')
    .innerJoin('artifacts as r', 'r.id', 'a.artifact_id')
    .select(COLUMNS)
    .$if(filters.artifact !== undefined, (q) => q.where('a.artifact_id', '=', filters.artifact!))
    .$if(filters.sha256 !== undefined, (q) =>
      q.where('a.artifact_id', 'in', db.selectFrom('artifacts').select('id').where('content_hash', '=', filters.sha256!)),
    )
    .$if(filters.canonical_hash !== undefined, (q) => q.where('a.canonical_hash', '=', filters.canonical_hash!))
    .$if(hashKeys !== undefined && hashKeys.length > 0, (q) => q.where('a.recorded_at', 'in', [...hashKeys!]))
    .$if(filters.validator !== undefined, (q) => q.where('a.validator_hotkey', '=', filters.validator!))
    .$if(filters.miner !== undefined, (q) => q.where('a.miner_hotkey', '=', filters.miner!))
    .$if(filters.round_id !== undefined, (q) => q.where('a.round_id', '=', filters.round_id!))
    .$if(filters.verdict !== undefined, (q) => q.where('a.verdict', '=', filters.verdict!))
    .$if(filters.since !== undefined, (q) => q.where('a.recorded_at', '>=', filters.since!))
    .$if(filters.until !== undefined, (q) => q.where('a.recorded_at', '<', filters.until!))
    .$if(after !== null, (q) =>
      q
        // Implied by the tuple bound, said plainly: PostgreSQL prunes the months after it only on a plain comparison.
        .where('a.recorded_at', '<=', after!.recordedAt)
        .where((eb) => eb(eb.refTuple('a.recorded_at', 'a.id'), '<', eb.tuple(after!.recordedAt, after!.id))),
    )
    .orderBy('a.recorded_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit);
}

type PageRow = Awaited<ReturnType<ReturnType<typeof attestationPageQuery>['execute']>>[number];

/** The wire record; findings only when the caller's plan may read them (spec part 5 item 3). */
function recordBody(row: PageRow, showFindings: boolean): AttestationRecord {
  const findings = JSON.parse(row.findings) as Finding[];
  return {
    canonical_hash: row.canonical_hash,
    task_id: row.task_id,
    round_id: row.round_id,
    track: row.track,
    miner_hotkey: row.miner_hotkey,
    validator_hotkey: row.validator_hotkey,
    agent_hash: row.agent_hash,
    artifact: { id: Number(row.artifact_id), bundle_hash: row.bundle_hash, sha256: row.content_hash },
    verdict: row.verdict,
    risk_score: row.risk_score,
    findings_count: findings.length,
    findings_withheld: !showFindings,
    findings: showFindings ? findings : null,
    created_at: formatOffsetTimestamp(Number(row.created_at)),
    recorded_at: formatOffsetTimestamp(Number(row.recorded_at)),
  };
}

export interface AttestationPage {
  attestations: AttestationRecord[];
  /** Where the next page starts; null when this page is the last. */
  next: AttestationKey | null;
}

/**
 * Rows a page of a list with two or more of the filters below may examine (docs/customer-attestations.md,
 * "Combined filters"): without the cap, a rare combination of common filters would read every row
 * of the leading filter's index to fill one page.
 */
export const MAX_ATTESTATION_ROWS_EXAMINED = 2000;

/** The filters that select by equality, the most selective first: the first one given leads a combined query. */
const EQUALITY_FILTERS = ['canonical_hash', 'artifact', 'sha256', 'round_id', 'miner', 'validator', 'verdict'] as const;

function onlyFilters(filters: AttestationListQuery, names: readonly (keyof AttestationListQuery)[]): AttestationListQuery {
  const kept: AttestationListQuery = {};
  for (const name of names) if (filters[name] !== undefined) Object.assign(kept, { [name]: filters[name] });
  return kept;
}

export async function listAttestations(
  db: Kysely<Database>,
  input: { filters: AttestationListQuery; after: AttestationKey | null; size: number; showFindings: boolean; maxExamined?: number },
): Promise<AttestationPage> {
  const maxExamined = input.maxExamined ?? MAX_ATTESTATION_ROWS_EXAMINED;
  const given = EQUALITY_FILTERS.filter((name) => input.filters[name] !== undefined);
  // One equality filter has its own (filter, recorded_at, id) index: every row it reads is a result.
  // A canonical hash names one attestation at most.
  if (given.length < 2 || given[0] === 'canonical_hash') {
    const hashKeys = input.filters.canonical_hash === undefined ? undefined : await partitionKeysOfHashes(db, [input.filters.canonical_hash]);
    if (hashKeys !== undefined && hashKeys.length === 0) return { attestations: [], next: null };
    // One row more than the page: whether it exists is whether a next page does.
    const rows = await attestationPageQuery(db, input.filters, input.after, input.size + 1, hashKeys).execute();
    const page = rows.slice(0, input.size);
    const last = page.at(-1);
    return {
      attestations: page.map((row) => recordBody(row, input.showFindings)),
      next: rows.length > input.size && last !== undefined ? { recordedAt: Number(last.recorded_at), id: Number(last.id) } : null,
    };
  }
  // Combined filters: the page examines the next MAX_ATTESTATION_ROWS_EXAMINED rows of the leading
  // filter (with the time bounds, through its index), and the other filters pick among those. A page
  // that found fewer matches than its size continues after the last row examined, so it can be short,
  // even empty, and still have a next page.
  const lead = onlyFilters(input.filters, [given[0]!, 'since', 'until']);
  const examined = await attestationPageQuery(db, lead, input.after, maxExamined)
    .clearSelect()
    .select(['a.id', 'a.recorded_at'])
    .execute();
  const ids = examined.map((row) => Number(row.id));
  const rows =
    ids.length === 0
      ? []
      : await attestationPageQuery(db, input.filters, input.after, input.size + 1)
          .where('a.id', 'in', ids)
          // The examined rows' time span: the months outside it are not read.
          .where('a.recorded_at', '>=', Math.min(...examined.map((row) => Number(row.recorded_at))))
          .where('a.recorded_at', '<=', Math.max(...examined.map((row) => Number(row.recorded_at))))
          .execute();
  const page = rows.slice(0, input.size);
  const last = page.at(-1);
  const lastExamined = examined.at(-1);
  let next: AttestationKey | null = null;
  if (rows.length > input.size && last !== undefined) next = { recordedAt: Number(last.recorded_at), id: Number(last.id) };
  else if (examined.length === maxExamined && lastExamined !== undefined) {
    next = { recordedAt: Number(lastExamined.recorded_at), id: Number(lastExamined.id) };
  }
  return { attestations: page.map((row) => recordBody(row, input.showFindings)), next };
}

/**
 * One attestation with its envelope exactly as signed and the snapshot it was checked against.
 * The envelope carries the findings, so on a `free` plan it is withheld when there are any.
 */
export async function getAttestation(db: Kysely<Database>, input: { canonicalHash: string; showFindings: boolean }) {
  const keys = await partitionKeysOfHashes(db, [input.canonicalHash]);
  if (keys !== undefined && keys.length === 0) throw new VigilError('attestation_not_found');
  const row = await db
    .selectFrom('attestations as a')
    .innerJoin('artifacts as r', 'r.id', 'a.artifact_id')
    .select([...COLUMNS, 'a.payload', 'a.signature', 'a.metagraph_block', 'a.metagraph_taken_at'])
    .where('a.canonical_hash', '=', input.canonicalHash)
    .$if(keys !== undefined, (q) => q.where('a.recorded_at', 'in', keys!))
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('attestation_not_found');
  const attestation = recordBody(row, input.showFindings);
  const withheld = !input.showFindings && attestation.findings_count > 0;
  return {
    attestation,
    envelope: withheld
      ? null
      : { payload: JSON.parse(row.payload) as Record<string, unknown>, canonical_hash: row.canonical_hash, signature: row.signature },
    envelope_withheld: withheld,
    checked_against: {
      netuid: NETUID,
      block: row.metagraph_block === null ? null : Number(row.metagraph_block),
      taken_at: row.metagraph_taken_at === null ? null : formatOffsetTimestamp(Number(row.metagraph_taken_at)),
    },
  };
}

/**
 * The attestation's in-toto statement in a DSSE envelope signed by its validator
 * (docs/attestations.md, "In-toto statement and DSSE envelope"): rebuilt from the payload as signed
 * and the DSSE signature verified at submission, so it verifies exactly as the validator signed it.
 * The predicate is the whole payload, so a free plan cannot read one that carries findings.
 */
export async function getAttestationDsse(db: Kysely<Database>, input: { canonicalHash: string; showFindings: boolean }): Promise<DsseEnvelope> {
  const row = await db
    .selectFrom('attestations')
    .select(['payload', 'findings', 'dsse_signature'])
    .where('canonical_hash', '=', input.canonicalHash)
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('attestation_not_found');
  if (!input.showFindings && (JSON.parse(row.findings) as unknown[]).length > 0) throw new VigilError('attestation_dsse_withheld');
  if (row.dsse_signature === null) throw new VigilError('attestation_dsse_unavailable');
  return attestationDsseEnvelope(JSON.parse(row.payload) as AttestationPayload, row.dsse_signature);
}
