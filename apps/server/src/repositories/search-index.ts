import { parseBundleHash, type Finding, type Track, type Verdict } from '@vigil/core';
import type { Kysely, Transaction } from 'kysely';
import { chunkRows } from '../db/chunk-rows.js';
import { normalizeSearchWords } from '../db/dialect.js';
import type { Database } from '../db/schema.js';

/**
 * The search documents (docs/search.md), written by the services in the transaction that writes the
 * row each describes, so the index never shows a row that did not commit nor misses one that did.
 * A document is a set of facets (field → distinct values); the facets in PRIMARY_FACETS are indexed
 * in the heavier column, so a match on an identifier ranks above a match on a verdict or a finding.
 * Benchmark secrecy: nothing here reads an artifact's kind or ground truth, so a labeled artifact's
 * document looks like a live one's.
 */
export type Facets = Record<string, string[]>;

/**
 * A document's own identifiers: a match here outranks a match in any other field, so an artifact
 * found by its name or hash ranks above the attestations that mention it, and an attestation found
 * by its canonical hash ranks first. `purl` is reserved for package references.
 */
export const PRIMARY_FACETS: Readonly<Record<'artifact' | 'attestation', ReadonlySet<string>>> = {
  artifact: new Set(['bundle_hash', 'label', 'source_id', 'sha256', 'purl']),
  attestation: new Set(['canonical_hash', 'task_id']),
};

/** Distinct values an artifact keeps per facet (verdicts and findings of its attestations accumulate). */
const MAX_VALUES_PER_FACET = 100;

export interface ArtifactDocumentInput {
  id: number;
  /** `{track}/{label}/{source_id}`: the track, label and source id are read from it. */
  bundle_hash: string;
  content_hash: string;
}

export function artifactFacets(artifact: ArtifactDocumentInput): Facets {
  const { track, label, sourceId } = parseBundleHash(artifact.bundle_hash);
  return {
    bundle_hash: [artifact.bundle_hash],
    label: [label],
    source_id: [sourceId],
    sha256: [artifact.content_hash],
    track: [track],
  };
}

/** What an artifact's document learns from one of its attestations. */
export function artifactSignalFacets(verdict: Verdict, findings: readonly Finding[]): Facets {
  return {
    verdict: [verdict],
    category: findings.map((f) => f.category),
    type: findings.map((f) => f.type),
    finding: findings.map((f) => f.title),
  };
}

export interface AttestationDocumentInput {
  id: number;
  canonical_hash: string;
  task_id: string;
  round_id: string;
  track: Track;
  miner_hotkey: string;
  validator_hotkey: string;
  verdict: Verdict;
  findings: readonly Finding[];
  bundle_hash: string;
  sha256: string;
}

export function attestationFacets(a: AttestationDocumentInput): Facets {
  return {
    canonical_hash: [a.canonical_hash],
    task_id: [a.task_id],
    round_id: [a.round_id],
    bundle_hash: [a.bundle_hash],
    sha256: [a.sha256],
    track: [a.track],
    verdict: [a.verdict],
    miner: [a.miner_hotkey],
    validator: [a.validator_hotkey],
    severity: a.findings.map((f) => f.severity),
    category: a.findings.map((f) => f.category),
    type: a.findings.map((f) => f.type),
    finding: a.findings.map((f) => f.title),
    file: a.findings.map((f) => f.file),
  };
}

/** Union of two facet sets, each facet's values distinct, in first-seen order, capped. */
export function mergeFacets(into: Facets, more: Facets): Facets {
  const merged: Facets = {};
  for (const key of new Set([...Object.keys(into), ...Object.keys(more)])) {
    const values = [...new Set([...(into[key] ?? []), ...(more[key] ?? [])])].slice(0, MAX_VALUES_PER_FACET);
    if (values.length > 0) merged[key] = values;
  }
  return merged;
}

function documentColumns(kind: 'artifact' | 'attestation', refId: number, title: string, facets: Facets, now: number) {
  const primary: string[] = [];
  const other: string[] = [];
  for (const [key, values] of Object.entries(facets)) {
    for (const value of values) (PRIMARY_FACETS[kind].has(key) ? primary : other).push(...normalizeSearchWords(value));
  }
  // The kind is a word of the document too: `artifact`, `attestation`.
  other.push(kind);
  return {
    kind,
    ref_id: refId,
    title,
    facets: JSON.stringify(facets),
    primary_terms: primary.join(' '),
    other_terms: other.join(' '),
    updated_at: now,
  };
}

type Db = Kysely<Database> | Transaction<Database>;

/** Writes (or rewrites) an artifact's document; facets already learned from its attestations are kept. */
export async function indexArtifact(db: Db, artifact: ArtifactDocumentInput, now: number, extra: Facets = {}): Promise<void> {
  await mergeArtifactFacets(db, [{ artifact, facets: mergeFacets(artifactFacets(artifact), extra) }], now);
}

/**
 * Adds facets to artifacts' documents (creating a document for an artifact that has none yet).
 * This is how another writer adds what it knows about an artifact, e.g. package references:
 * `mergeArtifactFacets(trx, [{ artifact, facets: { purl: refs } }], now)`.
 */
export async function mergeArtifactFacets(
  db: Db,
  updates: readonly { artifact: ArtifactDocumentInput; facets: Facets }[],
  now: number,
): Promise<void> {
  if (updates.length === 0) return;
  const byId = new Map<number, { artifact: ArtifactDocumentInput; facets: Facets }>();
  for (const u of updates) {
    const seen = byId.get(u.artifact.id);
    byId.set(u.artifact.id, { artifact: u.artifact, facets: mergeFacets(seen?.facets ?? {}, u.facets) });
  }
  const ids = [...byId.keys()].sort((a, b) => a - b);
  const existing = await db
    .selectFrom('search_documents')
    .select(['ref_id', 'facets'])
    .where('kind', '=', 'artifact')
    .where('ref_id', 'in', ids)
    .execute();
  const stored = new Map(existing.map((row) => [Number(row.ref_id), JSON.parse(row.facets) as Facets]));
  for (const id of ids) {
    const { artifact, facets } = byId.get(id)!;
    const merged = mergeFacets(mergeFacets(artifactFacets(artifact), stored.get(id) ?? {}), facets);
    const row = documentColumns('artifact', id, artifact.bundle_hash, merged, now);
    if (stored.has(id)) {
      await db
        .updateTable('search_documents')
        .set({ facets: row.facets, primary_terms: row.primary_terms, other_terms: row.other_terms, updated_at: now })
        .where('kind', '=', 'artifact')
        .where('ref_id', '=', id)
        .execute();
    } else {
      await db.insertInto('search_documents').values(row).execute();
    }
  }
}

/** Indexes newly recorded attestations and adds their verdicts and findings to their artifacts' documents. */
export async function indexAttestations(
  db: Db,
  attestations: readonly (AttestationDocumentInput & { artifact: ArtifactDocumentInput })[],
  now: number,
): Promise<void> {
  if (attestations.length === 0) return;
  const rows = attestations.map((a) =>
    documentColumns('attestation', a.id, `${a.verdict} ${a.bundle_hash}`, attestationFacets(a), now),
  );
  for (const chunk of chunkRows(rows, 8)) await db.insertInto('search_documents').values(chunk).execute();
  await mergeArtifactFacets(
    db,
    attestations.map((a) => ({ artifact: a.artifact, facets: artifactSignalFacets(a.verdict, a.findings) })),
    now,
  );
}
