import type { Readable } from 'node:stream';
import {
  formatBundleHash,
  formatOffsetTimestamp,
  MAX_ARTIFACT_FINDINGS_PER_ATTESTATION,
  SEVERITIES,
  MAX_LOOKUP_LISTING_BYTES,
  type ArchiveListing,
  type ArtifactDetail,
  type ArtifactFinding,
  type Finding,
  type FindingsSummary,
  type PackageRef,
  type Plan,
  type VerifyResult,
} from '@vigil/core';
import type { Kysely, Selectable } from 'kysely';
import { fitListing, listArchive, readArchive, UNAVAILABLE_LISTING } from './archive/archive-listing.js';
import { ListingCache, type ListingRead } from './archive/listing-cache.js';
import { takeTurns } from './take-turns.js';
import { mismatchedChecksum } from './checksum-qualifier.js';
import { isPackageFactFile, packageFactsOf, type ArchivePackageFacts } from './facts/archive-package-facts.js';
import { BlobTooLargeError, type BlobStore } from '../../platform/blobs/index.js';
import { takeTurnsOn } from '../../platform/db/dialect.js';
import type { ArtifactPackagesTable, ArtifactsTable, Database, TrackName, VerdictName } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { indexClaims } from '../../platform/search-index.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/unique-violation.js';
import { isUpstreamUnavailable } from '../../platform/upstream-unavailable.js';
import { registerArtifact } from './register-artifact.js';
import { factsRow } from './facts/stored-package-facts.js';
import { countedClaims, visibleArtifact, type ReferenceView } from './references/reference-claims.js';
import type { PendingReference, ReferenceFetches } from './references/reference-fetches.js';
import { artifactStored } from '../network/index.js';

type ArtifactRow = Selectable<ArtifactsTable>;

/** `art_<id>` on the wire; the number is the artifacts row id. */
export function artifactPublicId(id: number): string {
  return `art_${id}`;
}

export function artifactRowId(publicId: string): number {
  return Number(publicId.slice('art_'.length));
}

/**
 * The bundle-hash label of an uploaded artifact: the purl type (`npm`, `pypi`), the label package
 * artifacts of the benchmark carry too, so the label says nothing about where an artifact came from.
 */
export function uploadLabel(ref: PackageRef): string {
  return ref.type.replace(/[^A-Za-z0-9._-]/g, '-');
}

export interface UploadArtifactInput {
  track: TrackName;
  ref: PackageRef;
  source: Readable;
  mediaType: string;
  accountId: string;
  maxBytes: number;
  now: number;
  /** Runs once the bytes are complete and before they are stored (a multipart body checks nothing follows the file). */
  beforeStore?: () => Promise<void>;
}

export interface UploadedArtifact {
  artifact: ArtifactRow;
  /** False when these bytes were already an artifact of the track (the same artifact is answered). */
  created: boolean;
  listing: ArchiveListing;
  size: number;
  /** The canonical purl it was uploaded as. */
  purl: string;
}

/**
 * A registration whose COMMIT failed without an answer from the database (a lost connection, a
 * timeout): the row may be stored. Its bytes are kept so such a row never names missing bytes.
 */
class CommitOutcomeUnknown extends Error {
  override name = 'CommitOutcomeUnknown';
}

/**
 * Streams an upload into the blob store (never whole in memory) and registers it as a `live`
 * artifact of the track, or finds the artifact these bytes already are. Too large: 413. Empty, or
 * an archive that cannot be read: refused before anything is stored. The row is written while the
 * bytes are still a staging file, and they get their content address only once it committed, so a
 * refusal or a failure on the way leaves neither row nor blob. The one exception is a commit whose
 * outcome is unknown: its error is thrown after the bytes were stored, in case the row was.
 */
export async function uploadArtifact(db: Kysely<Database>, blobs: BlobStore, input: UploadArtifactInput): Promise<UploadedArtifact> {
  let listing: ArchiveListing = UNAVAILABLE_LISTING;
  let registered: { artifact: ArtifactRow; created: boolean } | undefined;
  let uncommitted: unknown;
  let put;
  try {
    put = await blobs.putStream(input.source, {
      maxBytes: input.maxBytes,
      inspect: async (staged) => {
        if (staged.size === 0) {
          throw new VigilError('validation_error', { issues: [{ path: 'body', message: 'an artifact cannot be empty' }] });
        }
        // One pass lists the archive and keeps the package metadata the facts are read from.
        const read = await readArchive(staged.path, { capture: isPackageFactFile });
        listing = read.listing;
        if (listing.status === 'corrupt') throw new VigilError('archive_corrupt');
        const facts = packageFactsOf(read, input.ref.type);
        const mismatch = await mismatchedChecksum(input.ref, staged);
        if (mismatch) {
          const { claimed, actual } = mismatch;
          throw new VigilError('checksum_mismatch', `package: checksum ${claimed.algorithm}:${claimed.hex} does not match the uploaded bytes (${claimed.algorithm}:${actual})`);
        }
        await input.beforeStore?.();
        try {
          registered = await registerUpload(db, input, { hash: staged.hash, size: staged.size, facts });
        } catch (error) {
          if (!(error instanceof CommitOutcomeUnknown)) throw error;
          uncommitted = error.cause;
        }
      },
    });
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw new VigilError('body_too_large', { headers: { connection: 'close' }, cause: error });
    throw error;
  }
  if (uncommitted !== undefined || registered === undefined) throw uncommitted;
  return { ...registered, listing, size: put.size, purl: input.ref.purl };
}

/** The artifact row (or the existing one), the upload's package reference and its package facts, in one transaction. */
async function registerUpload(
  db: Kysely<Database>,
  input: UploadArtifactInput,
  bytes: { hash: string; size: number; facts: ArchivePackageFacts | undefined },
): Promise<{ artifact: ArtifactRow; created: boolean }> {
  let committing = false;
  const register = () =>
    inTransaction(db, async (trx) => {
      // Uploads of the same bytes to the track take turns: the second sees the first's artifact and
      // adds its reference there, rather than both finding none and making two (docs/artifacts.md).
      await takeTurnsOn(trx, `artifact-content:${input.track}:${bytes.hash}`);
      const existing = await trx
        .selectFrom('artifacts')
        .selectAll()
        .where('content_hash', '=', bytes.hash)
        .where('track', '=', input.track)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      let artifact = existing;
      if (artifact === undefined) {
        const label = uploadLabel(input.ref);
        // The purl names the artifact as the benchmark's package artifacts are named. A purl already
        // naming other bytes gets the standard `checksum` qualifier, naming these bytes exactly.
        let sourceId = input.ref.purl;
        const taken = await trx
          .selectFrom('artifacts')
          .select('id')
          .where('bundle_hash', '=', formatBundleHash({ track: input.track, label, sourceId }))
          .executeTakeFirst();
        if (taken !== undefined) sourceId = `${sourceId}${sourceId.includes('?') ? '&' : '?'}checksum=${bytes.hash}`;
        artifact = await registerArtifact(trx, { track: input.track, label, sourceId, contentHash: bytes.hash, kind: 'live', now: input.now, uploadedBy: input.accountId });
        // A new live artifact does not wait for the next round: the incumbents get fast tasks for it,
        // committed with it (docs/rounds.md, "Verdicts between rounds").
        await artifactStored(trx, { artifactId: Number(artifact.id), now: input.now });
      }
      await trx
        .insertInto('artifact_packages')
        .values({
          artifact_id: artifact.id,
          purl: input.ref.purl,
          ecosystem: input.ref.type,
          namespace: input.ref.namespace,
          name: input.ref.name,
          version: input.ref.version,
          uploaded_by: input.accountId,
          size: bytes.size,
          media_type: input.mediaType,
          created_at: input.now,
        })
        .onConflict((oc) => oc.columns(['artifact_id', 'purl', 'uploaded_by']).doNothing())
        .execute();
      // The package facts policies read (docs/package-facts.md), stored with the artifact.
      await trx
        .insertInto('artifact_facts')
        .values(factsRow(Number(artifact.id), bytes.facts, input.now))
        .onConflict((oc) => oc.column('artifact_id').doNothing())
        .execute();
      // Searchable by its package reference from the moment it is stored, by the accounts the claim counts for (docs/search.md).
      await indexClaims(trx, [{ artifact, accountId: input.accountId, purl: input.ref.purl }], input.now);
      committing = true;
      return { artifact, created: existing === undefined };
    });
  const attempt = async () => {
    committing = false;
    try {
      return await register();
    } catch (error) {
      // Everything before the COMMIT failed or was refused: rolled back. The COMMIT itself failing
      // without the database's answer leaves the outcome unknown.
      if (committing && isUpstreamUnavailable(error)) throw new CommitOutcomeUnknown('the commit may have landed', { cause: error });
      throw error;
    }
  };
  try {
    return await attempt();
  } catch (error) {
    // Two uploads of other bytes under one new purl raced for its bare bundle hash (the insert lost,
    // or registerArtifact found the winner's row committed after this one looked): the loser's
    // second attempt sees it taken and names its bytes with the checksum qualifier.
    const lostBareName = isUniqueViolation(error) || (error instanceof VigilError && error.code === 'artifact_conflict');
    if (!lostBareName) throw error;
    return attempt();
  }
}

const SEVERITY_RANK: Record<VerdictName, number> = { ALLOW: 0, WARN: 1, BLOCK: 2 };

type Decision = { verdict: VerdictName; risk_score: number | null; updated_at: number | null };

/** Positive when `a` answers before `b`: the more severe verdict, then the higher risk, then the later decision. */
function moreSevere(a: Decision, b: Decision): number {
  return SEVERITY_RANK[a.verdict] - SEVERITY_RANK[b.verdict] || Number(a.risk_score) - Number(b.risk_score) || Number(a.updated_at) - Number(b.updated_at);
}

interface BackingRow {
  artifact_id: number;
  canonical_hash: string;
  validator_hotkey: string;
  verdict: VerdictName;
  risk_score: number;
  round_id: string;
  recorded_at: number;
  findings: string;
}

/**
 * The attestations behind published verdicts: those of the verdict's round, by the round's winners,
 * that gave the published verdict (the votes that decided it, docs/scoring.md).
 */
async function backingAttestations(
  db: Kysely<Database>,
  verdicts: readonly { artifact_id: number; round_id: string; verdict: VerdictName }[],
): Promise<Map<number, BackingRow[]>> {
  const byArtifact = new Map<number, BackingRow[]>();
  if (verdicts.length === 0) return byArtifact;
  const rows = await db
    .selectFrom('attestations')
    .innerJoin('round_results', (join) =>
      join.onRef('round_results.round_id', '=', 'attestations.round_id').onRef('round_results.hotkey', '=', 'attestations.miner_hotkey'),
    )
    .select([
      'attestations.id',
      'attestations.artifact_id',
      'attestations.canonical_hash',
      'attestations.validator_hotkey',
      'attestations.verdict',
      'attestations.risk_score',
      'attestations.round_id',
      'attestations.recorded_at',
      'attestations.findings',
    ])
    .where('attestations.artifact_id', 'in', [...new Set(verdicts.map((v) => v.artifact_id))])
    .where('attestations.round_id', 'in', [...new Set(verdicts.map((v) => v.round_id))])
    .where('round_results.winner', '=', 1)
    .orderBy('attestations.id')
    .execute();
  const wanted = new Map(verdicts.map((v) => [v.artifact_id, v]));
  for (const row of rows) {
    const artifactId = Number(row.artifact_id);
    const verdict = wanted.get(artifactId);
    if (verdict === undefined || verdict.round_id !== row.round_id || verdict.verdict !== row.verdict) continue;
    const list = byArtifact.get(artifactId) ?? [];
    list.push({ ...row, artifact_id: artifactId, risk_score: Number(row.risk_score), recorded_at: Number(row.recorded_at) });
    byArtifact.set(artifactId, list);
  }
  return byArtifact;
}

function parseFindings(text: string): Finding[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as Finding[]) : [];
  } catch {
    return [];
  }
}

export interface DetailOptions {
  plan: Plan;
  /** Whose package references `packages` lists: the reader's own and the trusted accounts'. */
  view: ReferenceView;
  /** The listing an upload already made of these bytes. */
  listing?: ArchiveListing;
  size?: number;
}

/**
 * Listings by content hash: bytes never change, and a listing can cost seconds (a gzip that expands
 * to 1 GiB). Bounded by bytes (docs/artifacts.md, "Listings are remembered").
 */
const listings = new ListingCache();
/** Archives read for their listings at once, per instance (docs/artifacts.md, "Limits"). */
const LISTING_READS_AT_ONCE = 2;
const listingTurn = takeTurns(LISTING_READS_AT_ONCE);

/**
 * One listing per content hash, computed once per process (concurrent reads share it); bytes missing
 * from the store are not remembered. A remembered listing is served only while the store still holds
 * the bytes (a stat): bytes removed from the store read as unavailable at once.
 */
async function cachedListing(blobs: BlobStore, contentHash: string): Promise<ListingRead> {
  const known = listings.get(contentHash);
  if (known) {
    if (await blobs.has(contentHash)) return known;
    listings.delete(contentHash);
    return undefined;
  }
  const read = listingTurn(() => blobs.withLocalFile(contentHash, async (file) => ({ listing: await listArchive(file.path), size: file.size })));
  listings.set(contentHash, read);
  return read;
}

/**
 * The artifacts of one lookup page, in order: their listings share MAX_LOOKUP_LISTING_BYTES, so a
 * later artifact whose files do not fit in what the earlier ones left is listed cut, `truncated`
 * (docs/artifacts.md, "Lookups").
 */
export async function artifactDetails(db: Kysely<Database>, blobs: BlobStore, artifacts: ArtifactRow[], options: DetailOptions): Promise<ArtifactDetail[]> {
  const details: ArtifactDetail[] = [];
  let left = MAX_LOOKUP_LISTING_BYTES;
  for (const artifact of artifacts) {
    const detail = await artifactDetail(db, blobs, artifact, options);
    const fitted = fitListing(detail.archive, left);
    left -= fitted.bytes;
    details.push({ ...detail, archive: fitted.listing });
  }
  return details;
}

/** Everything `GET /v1/artifacts/{id}` answers about one artifact (docs/artifacts.md). */
export async function artifactDetail(db: Kysely<Database>, blobs: BlobStore, artifact: ArtifactRow, options: DetailOptions): Promise<ArtifactDetail> {
  const id = Number(artifact.id);
  const [claims, verdict, history] = await Promise.all([
    db
      .selectFrom('artifact_packages')
      .selectAll()
      .where('artifact_id', '=', id)
      .where(countedClaims(options.view))
      .orderBy('created_at')
      .orderBy('purl')
      .orderBy('uploaded_by')
      .execute(),
    db.selectFrom('published_verdicts').selectAll().where('artifact_id', '=', id).executeTakeFirst(),
    db.selectFrom('verdict_history').selectAll().where('artifact_id', '=', id).orderBy('id').execute(),
  ]);
  // The reader's claim and a trusted one may name the same purl: listed once, as first claimed.
  const packages = claims.filter((claim, i) => claims.findIndex((c) => c.purl === claim.purl) === i);
  let listing = options.listing;
  let size = options.size ?? null;
  if (listing !== undefined && size !== null) listings.set(artifact.content_hash, Promise.resolve({ listing, size }));
  if (listing === undefined) {
    const read = await cachedListing(blobs, artifact.content_hash);
    listing = read?.listing ?? UNAVAILABLE_LISTING;
    size = read?.size ?? null;
  }
  const backing = verdict ? ((await backingAttestations(db, [{ artifact_id: id, round_id: verdict.round_id, verdict: verdict.verdict }])).get(id) ?? []) : [];
  const paid = options.plan === 'paid';
  const findings: ArtifactFinding[] = [];
  if (paid) {
    for (const row of backing) {
      for (const finding of parseFindings(row.findings).slice(0, MAX_ARTIFACT_FINDINGS_PER_ATTESTATION)) {
        findings.push({ ...finding, canonical_hash: row.canonical_hash });
      }
    }
  }
  return {
    id: artifactPublicId(id),
    track: artifact.track,
    sha256: artifact.content_hash,
    size,
    media_type: packages[0]?.media_type ?? null,
    packages: packages.map(packageBody),
    created_at: formatOffsetTimestamp(Number(artifact.created_at)),
    archive: listing,
    state: verdict ? 'decided' : 'pending',
    verdict: verdict
      ? { verdict: verdict.verdict, risk_score: Number(verdict.risk_score), round_id: verdict.round_id, decided_at: formatOffsetTimestamp(Number(verdict.updated_at)) }
      : null,
    verdict_history: history.map((h) => ({
      verdict: h.verdict,
      previous_verdict: h.previous_verdict,
      risk_score: Number(h.risk_score),
      round_id: h.round_id,
      changed_at: formatOffsetTimestamp(Number(h.changed_at)),
    })),
    attestations: backing.map((b) => ({
      canonical_hash: b.canonical_hash,
      validator_hotkey: b.validator_hotkey,
      verdict: b.verdict,
      risk_score: b.risk_score,
      round_id: b.round_id,
      recorded_at: formatOffsetTimestamp(b.recorded_at),
    })),
    findings: paid ? findings : null,
    findings_withheld: !paid,
  };
}

function packageBody(row: Selectable<ArtifactPackagesTable>) {
  return {
    purl: row.purl,
    ecosystem: row.ecosystem,
    namespace: row.namespace,
    name: row.name,
    version: row.version,
    created_at: formatOffsetTimestamp(Number(row.created_at)),
  };
}

/**
 * The artifact `publicId` names, if `view` may read it (reference-claims.ts, visibleArtifact): an
 * artifact another account uploaded privately is answered exactly as an unknown id.
 */
export async function findArtifactById(db: Kysely<Database>, publicId: string, view: ReferenceView): Promise<ArtifactRow> {
  const row = await db
    .selectFrom('artifacts')
    .selectAll()
    .where('id', '=', artifactRowId(publicId))
    .where(visibleArtifact(view, 'artifacts.id'))
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('artifact_unknown');
  return row;
}

/**
 * Artifacts by content hash (those `view` may read), or by a purl they were uploaded as under a
 * claim that counts for `view` (the reader's own or a trusted account's), oldest first, one page
 * (plus one row to tell if more exist).
 */
export async function findArtifacts(
  db: Kysely<Database>,
  by: { sha256: string } | { purl: string },
  page: { offset: number; limit: number },
  view: ReferenceView,
): Promise<ArtifactRow[]> {
  if ('sha256' in by) {
    return db
      .selectFrom('artifacts')
      .selectAll()
      .where('content_hash', '=', by.sha256)
      .where(visibleArtifact(view, 'artifacts.id'))
      .orderBy('id').offset(page.offset).limit(page.limit).execute();
  }
  const claimed = db.selectFrom('artifact_packages').select('artifact_packages.artifact_id').where('artifact_packages.purl', '=', by.purl).where(countedClaims(view));
  return db.selectFrom('artifacts').selectAll().where('id', 'in', claimed).orderBy('id').offset(page.offset).limit(page.limit).execute();
}

/** The findings of the backing attestations, one finding reported by several validators (or winners) once. */
function distinctFindings(rows: readonly BackingRow[]): Finding[] {
  const seen = new Set<string>();
  const distinct: Finding[] = [];
  for (const row of rows) {
    for (const f of parseFindings(row.findings)) {
      const key = JSON.stringify([f.type, f.category, f.severity, f.title, f.file]);
      if (seen.has(key)) continue;
      seen.add(key);
      distinct.push(f);
    }
  }
  return distinct;
}

function summarize(rows: readonly BackingRow[]): FindingsSummary {
  const findings = distinctFindings(rows);
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as FindingsSummary['by_severity'];
  const byCategory = new Map<string, number>();
  for (const f of findings) {
    if (f.severity in bySeverity) bySeverity[f.severity] += 1;
    byCategory.set(f.category, (byCategory.get(f.category) ?? 0) + 1);
  }
  return {
    total: findings.length,
    by_severity: bySeverity,
    by_category: [...byCategory].map(([category, count]) => ({ category, count })).sort((a, b) => b.count - a.count || (a.category < b.category ? -1 : 1)),
  };
}

/**
 * Verifies package references (canonical purls), one result per reference in order, from the claims
 * that count for `view` (the asking account's own and the trusted accounts'; another account's
 * claims never change the answer). A purl no counted claim names, or whose claimed artifacts have
 * no published verdict yet, is `pending` (never a guess). When the counted claims name several
 * artifacts, the most severe published verdict answers (then the highest risk score, then the most
 * recent decision).
 */
export async function verifyReferences(db: Kysely<Database>, purls: readonly string[], view: ReferenceView, fetches?: ReferenceFetches): Promise<VerifyResult[]> {
  return (await verifyReferencesWithFindings(db, purls, view, fetches)).map((verified) => verified.result);
}

export interface VerifiedReference {
  result: VerifyResult;
  /** The findings of the attestations behind the verdict, each counted once; empty while pending. */
  findings: Finding[];
}

/** verifyReferences with the findings its summaries count (policy rules read them one by one), in the same queries. */
/**
 * With `fetches` (on-demand registry fetching, docs/registries.md "In the server"): a pending
 * reference no counted claim names is handed over to be fetched, and every pending reference Vigil
 * fetched or is fetching answers `fetch`; `queued` is true while it is fetched and once stored.
 */
export async function verifyReferencesWithFindings(db: Kysely<Database>, purls: readonly string[], view: ReferenceView, fetches?: ReferenceFetches): Promise<VerifiedReference[]> {
  const answers = await verifyFromClaims(db, purls, view);
  if (fetches === undefined) return answers;
  const pending = new Map<string, PendingReference>();
  for (const { result } of answers) if (result.state === 'pending') pending.set(result.artifact, { purl: result.artifact, queued: result.queued });
  if (pending.size === 0) return answers;
  const statuses = await fetches.consult([...pending.values()]);
  return answers.map((answer) => {
    const fetch = answer.result.state === 'pending' ? statuses.get(answer.result.artifact) : undefined;
    if (fetch === undefined) return answer;
    return { ...answer, result: { ...answer.result, queued: fetch.state === 'failed' ? answer.result.queued : true, fetch } };
  });
}

async function verifyFromClaims(db: Kysely<Database>, purls: readonly string[], view: ReferenceView): Promise<VerifiedReference[]> {
  const unique = [...new Set(purls)];
  const candidates = await db
    .selectFrom('artifact_packages')
    .innerJoin('artifacts', 'artifacts.id', 'artifact_packages.artifact_id')
    .leftJoin('published_verdicts', 'published_verdicts.artifact_id', 'artifact_packages.artifact_id')
    .select([
      'artifact_packages.purl',
      'artifact_packages.artifact_id',
      'artifacts.content_hash',
      'published_verdicts.verdict',
      'published_verdicts.risk_score',
      'published_verdicts.round_id',
      'published_verdicts.updated_at',
    ])
    .where('artifact_packages.purl', 'in', unique)
    .where(countedClaims(view))
    .orderBy('artifact_packages.created_at')
    .orderBy('artifact_packages.artifact_id')
    .execute();
  type Candidate = (typeof candidates)[number];
  const byPurl = new Map<string, Candidate[]>();
  for (const c of candidates) byPurl.set(c.purl, [...(byPurl.get(c.purl) ?? []), c]);
  const chosen = new Map<string, Candidate & { verdict: VerdictName; round_id: string }>();
  for (const [purl, list] of byPurl) {
    let best: (Candidate & { verdict: VerdictName; round_id: string }) | undefined;
    for (const c of list) {
      if (c.verdict === null || c.round_id === null) continue;
      const decided = c as Candidate & { verdict: VerdictName; round_id: string };
      if (best === undefined || moreSevere(decided, best) > 0) best = decided;
    }
    if (best) chosen.set(purl, best);
  }
  const backing = await backingAttestations(
    db,
    [...chosen.values()].map((c) => ({ artifact_id: Number(c.artifact_id), round_id: c.round_id, verdict: c.verdict })),
  );
  return purls.map((purl): VerifiedReference => {
    const decided = chosen.get(purl);
    if (decided === undefined) {
      const known = byPurl.get(purl)?.[0];
      const result: VerifyResult = {
        artifact: purl,
        state: 'pending',
        queued: known !== undefined,
        artifact_id: known ? artifactPublicId(Number(known.artifact_id)) : null,
        sha256: known?.content_hash ?? null,
        verdict: null,
        risk_score: null,
        round_id: null,
        decided_at: null,
        findings_summary: null,
        attestations: [],
      };
      return { result, findings: [] };
    }
    const rows = backing.get(Number(decided.artifact_id)) ?? [];
    const result: VerifyResult = {
      artifact: purl,
      state: 'decided',
      queued: false,
      artifact_id: artifactPublicId(Number(decided.artifact_id)),
      sha256: decided.content_hash,
      verdict: decided.verdict,
      risk_score: Number(decided.risk_score),
      round_id: decided.round_id,
      decided_at: formatOffsetTimestamp(Number(decided.updated_at)),
      findings_summary: summarize(rows),
      attestations: rows.map((r) => ({ canonical_hash: r.canonical_hash, validator_hotkey: r.validator_hotkey })),
    };
    return { result, findings: distinctFindings(rows) };
  });
}
