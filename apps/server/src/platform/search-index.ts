import { parseBundleHash, type Finding, type Track, type Verdict } from '@vigil/core';
import type { Kysely, Transaction } from 'kysely';
import { chunkRows } from './db/chunk-rows.js';
import { normalizeSearchWords, type FieldedTextIndex } from './db/dialect.js';
import type { Database } from './db/schema.js';

/**
 * The search entries (docs/search.md), written by the services in the transaction that writes the
 * row each describes, so the index never shows a row that did not commit nor misses one that did.
 * An entry is a set of facets (field → distinct values), cut into three columns: identifiers (rank
 * highest), other fields, and the words findings gave (matched only for plans that read findings).
 *
 * Audiences: an artifact has one entry per audience. `''` is everyone's, for an artifact
 * registered otherwise than by an upload. Each account that claimed a package reference to the
 * artifact has its own entry: the shared facets plus that account's references, seen by that
 * account and, while it is trusted, by everyone (features/search/search.ts decides at query time). An
 * uploaded artifact's name (bundle hash, label, source id) is its first upload's reference, so it is
 * in its uploader's entry only. Attestations have one entry each, audience `''`, shown where their
 * artifact may be read. Benchmark secrecy: nothing here reads an artifact's kind or ground truth.
 */
export type Facets = Record<string, string[]>;

/** The index of migration 0016: a plan without findings matches the first two columns only. */
export const SEARCH_INDEX: FieldedTextIndex = { table: 'search_entries', columns: ['ident_terms', 'other_terms', 'finding_terms'], restrictedColumns: 2 };

/** A document's own identifiers: a match here outranks a match in any other field. */
export const IDENT_FACETS: Readonly<Record<'artifact' | 'attestation', ReadonlySet<string>>> = {
  artifact: new Set(['bundle_hash', 'label', 'source_id', 'sha256', 'purl']),
  attestation: new Set(['canonical_hash', 'task_id']),
};

/** What findings say: never matched nor shown for a plan that may not read findings. */
export const FINDING_FACETS: ReadonlySet<string> = new Set(['severity', 'category', 'type', 'finding', 'file']);

/** What every entry of an artifact carries, whatever its audience. */
const SHARED_FACETS = ['sha256', 'track', 'verdict', 'category', 'type', 'finding'] as const;

/** Distinct values an entry keeps per facet (verdicts and findings of its attestations accumulate). */
const MAX_VALUES_PER_FACET = 100;

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * The words of `text` as search indexes and queries them: percent-escapes decoded first (where they
 * spell UTF-8), so `pkg:npm/%40scope/name` and `@scope/name` are the same words, then
 * normalizeSearchWords.
 */
export function searchWords(text: string): string[] {
  const decoded = text.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
  return normalizeSearchWords(decoded);
}

export interface ArtifactDocumentInput {
  id: number;
  /** `{track}/{label}/{source_id}`: the track, label and source id are read from it. */
  bundle_hash: string;
  content_hash: string;
  /** The account whose upload registered it; null when registered otherwise. */
  uploaded_by: string | null;
}

/** An artifact's name (bundle hash, label, source id): an upload's reference when an upload registered it. */
function nameFacets(bundleHash: string): Facets {
  const { label, sourceId } = parseBundleHash(bundleHash);
  return { bundle_hash: [bundleHash], label: [label], source_id: [sourceId] };
}

function pick(facets: Facets, fields: readonly string[]): Facets {
  const picked: Facets = {};
  for (const field of fields) if (facets[field] !== undefined) picked[field] = facets[field];
  return picked;
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
  /** When the attestation was recorded, where a batch replays history; the call's `now` otherwise. */
  recordedAt?: number;
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

function titleOf(kind: 'artifact' | 'attestation', artifactId: number, facets: Facets): string {
  const name = facets.bundle_hash?.[0] ?? `art_${artifactId}`;
  if (kind === 'attestation') return `${facets.verdict?.[0] ?? ''} ${name}`;
  return facets.purl?.[0] ?? name;
}

function entryColumns(kind: 'artifact' | 'attestation', refId: number, audience: string, artifactId: number, facets: Facets, now: number) {
  const ident: string[] = [];
  const other: string[] = [];
  const finding: string[] = [];
  for (const [key, values] of Object.entries(facets)) {
    const column = IDENT_FACETS[kind].has(key) ? ident : FINDING_FACETS.has(key) ? finding : other;
    for (const value of values) column.push(...searchWords(value));
  }
  // The kind is a word of the entry too: `artifact`, `attestation`.
  other.push(kind);
  return {
    kind,
    ref_id: refId,
    audience,
    artifact_id: artifactId,
    title: titleOf(kind, artifactId, facets),
    facets: JSON.stringify(facets),
    ident_terms: ident.join(' '),
    other_terms: other.join(' '),
    finding_terms: finding.join(' '),
    updated_at: now,
  };
}

type Db = Kysely<Database> | Transaction<Database>;

interface StoredEntry {
  audience: string;
  facets: Facets;
}

async function storedEntries(db: Db, artifactIds: readonly number[]): Promise<Map<number, StoredEntry[]>> {
  const byArtifact = new Map<number, StoredEntry[]>();
  if (artifactIds.length === 0) return byArtifact;
  const rows = await db
    .selectFrom('search_entries')
    .select(['ref_id', 'audience', 'facets'])
    .where('kind', '=', 'artifact')
    .where('ref_id', 'in', [...artifactIds])
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const id = Number(row.ref_id);
    byArtifact.set(id, [...(byArtifact.get(id) ?? []), { audience: row.audience, facets: JSON.parse(row.facets) as Facets }]);
  }
  return byArtifact;
}

async function writeArtifactEntry(db: Db, artifactId: number, audience: string, facets: Facets, exists: boolean, now: number): Promise<void> {
  const row = entryColumns('artifact', artifactId, audience, artifactId, facets, now);
  if (exists) {
    const changes = { title: row.title, facets: row.facets, ident_terms: row.ident_terms, other_terms: row.other_terms, finding_terms: row.finding_terms, updated_at: now };
    await db.updateTable('search_entries').set(changes).where('kind', '=', 'artifact').where('ref_id', '=', artifactId).where('audience', '=', audience).execute();
  } else {
    await db.insertInto('search_entries').values(row).execute();
  }
}

/**
 * Writes an artifact's first entry when it is registered: everyone's, or its uploader's when an
 * upload registered it. Registering it again changes nothing.
 */
export async function indexArtifact(db: Db, artifact: ArtifactDocumentInput, now: number): Promise<void> {
  const audience = artifact.uploaded_by ?? '';
  const stored = (await storedEntries(db, [artifact.id])).get(artifact.id) ?? [];
  const existing = stored.find((e) => e.audience === audience);
  const { track } = parseBundleHash(artifact.bundle_hash);
  const base: Facets = { ...nameFacets(artifact.bundle_hash), sha256: [artifact.content_hash], track: [track] };
  await writeArtifactEntry(db, artifact.id, audience, mergeFacets(base, existing?.facets ?? {}), existing !== undefined, now);
}

/**
 * Adds package references to the entries of the accounts that claimed them, creating an account's
 * entry of an artifact from the facets every entry shares (and the artifact's name, when it is
 * public or the account's own upload made it).
 */
export async function indexClaims(db: Db, claims: readonly { artifact: ArtifactDocumentInput; accountId: string; purl: string }[], now: number): Promise<void> {
  if (claims.length === 0) return;
  const stored = await storedEntries(db, [...new Set(claims.map((c) => c.artifact.id))]);
  for (const claim of claims) {
    const { artifact, accountId } = claim;
    const entries = stored.get(artifact.id) ?? [];
    const own = entries.find((e) => e.audience === accountId);
    const { track } = parseBundleHash(artifact.bundle_hash);
    const shared = mergeFacets({ sha256: [artifact.content_hash], track: [track] }, pick(entries[0]?.facets ?? {}, SHARED_FACETS));
    const named = artifact.uploaded_by === null || artifact.uploaded_by === accountId ? mergeFacets(nameFacets(artifact.bundle_hash), shared) : shared;
    const facets = mergeFacets(own?.facets ?? named, { purl: [claim.purl] });
    await writeArtifactEntry(db, artifact.id, accountId, facets, own !== undefined, now);
    if (own) own.facets = facets;
    else stored.set(artifact.id, [...entries, { audience: accountId, facets }]);
  }
}

/** Indexes newly recorded attestations and adds their verdicts and findings to every entry of their artifacts. */
export async function indexAttestations(
  db: Db,
  attestations: readonly (AttestationDocumentInput & { artifact: Omit<ArtifactDocumentInput, 'uploaded_by'> })[],
  now: number,
): Promise<void> {
  if (attestations.length === 0) return;
  const artifactIds = [...new Set(attestations.map((a) => a.artifact.id))];
  const uploaders = new Map(
    (await db.selectFrom('artifacts').select(['id', 'uploaded_by']).where('id', 'in', artifactIds).execute()).map((r) => [Number(r.id), r.uploaded_by]),
  );
  const rows = attestations.map((a) => {
    const uploaded = (uploaders.get(a.artifact.id) ?? null) !== null;
    const facets: Facets = {
      canonical_hash: [a.canonical_hash],
      task_id: [a.task_id],
      round_id: [a.round_id],
      // An uploaded artifact's name is its uploader's reference: not shown to those it does not count for.
      ...(uploaded ? {} : { bundle_hash: [a.bundle_hash] }),
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
    return entryColumns('attestation', a.id, '', a.artifact.id, mergeFacets({}, facets), a.recordedAt ?? now);
  });
  for (const chunk of chunkRows(rows, 10)) await db.insertInto('search_entries').values(chunk).execute();

  const stored = await storedEntries(db, artifactIds);
  const signals = new Map<number, Facets>();
  // An artifact's entries were last touched by its last attestation in the batch, as one by one.
  const lastAt = new Map<number, number>();
  for (const a of attestations) {
    signals.set(a.artifact.id, mergeFacets(signals.get(a.artifact.id) ?? {}, artifactSignalFacets(a.verdict, a.findings)));
    lastAt.set(a.artifact.id, a.recordedAt ?? now);
  }
  for (const a of attestations) {
    const id = a.artifact.id;
    const more = signals.get(id);
    if (more === undefined) continue;
    signals.delete(id);
    const at = lastAt.get(id)!;
    const entries = stored.get(id) ?? [];
    if (entries.length === 0) {
      // An artifact without an entry (not expected: registration writes one): it gets its first.
      await indexArtifact(db, { ...a.artifact, uploaded_by: uploaders.get(id) ?? null }, at);
      entries.push(...((await storedEntries(db, [id])).get(id) ?? []));
    }
    for (const entry of entries) await writeArtifactEntry(db, id, entry.audience, mergeFacets(entry.facets, more), true, at);
  }
}
