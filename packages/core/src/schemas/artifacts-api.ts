import * as z from 'zod';
import { SEVERITIES, Track, Verdict } from '../enums.js';
import { Hotkey, RoundId, Sha256Hash } from '../ids.js';
import { PackageRefString } from '../purl.js';
import { OffsetTimestamp } from '../timestamps.js';
import { NonNegativeInt } from './common.js';
import { Finding } from './rounds.js';

/**
 * The customer artifact API (docs/artifacts.md): upload, read, look up and verify artifacts.
 * Every timestamp is the offset family; every package reference is answered as a canonical purl.
 */

/** At most this many references in one `POST /v1/artifacts/verify/batch`. */
export const MAX_VERIFY_BATCH = 100;
/** At most this many archive entries are listed for one artifact (`archive.truncated` beyond). */
export const MAX_ARCHIVE_ENTRIES = 10_000;
/**
 * A file whose name takes more than this many bytes (UTF-8) is not listed, only counted in
 * `archive.long_names_omitted`: PATH_MAX, longer than any path a file system writes.
 */
export const MAX_ARCHIVE_NAME_BYTES = 4096;
/**
 * `archive.files`, written as JSON, takes at most this many bytes (4 MiB); the listing stops before
 * the file that would pass it, with `archive.truncated` true.
 */
export const MAX_ARCHIVE_LISTING_BYTES = 4 * 1024 * 1024;
/**
 * The files listed by the artifacts of one `GET /v1/artifacts` page share this many bytes (4 MiB,
 * as much as one listing), each `{name, size}` entry counted as its JSON: a listing that does not
 * fit in what the page's earlier ones left is cut to the files that do, with `archive.truncated`
 * true. (16 MiB pages, a few at once, exhausted a small instance's heap.)
 */
export const MAX_LOOKUP_LISTING_BYTES = 4 * 1024 * 1024;
/** At most this many findings per attestation in an artifact's `findings` (as on round attestations). */
export const MAX_ARTIFACT_FINDINGS_PER_ATTESTATION = 50;

/** `art_<decimal>`: an artifact's opaque id. */
export const ArtifactId = z.string().regex(/^art_[1-9][0-9]{0,15}$/, 'expected art_<id>');
export type ArtifactId = z.infer<typeof ArtifactId>;

export const ArtifactIdParams = z.object({ id: ArtifactId }).strict();
export type ArtifactIdParams = z.output<typeof ArtifactIdParams>;

/**
 * Where `POST /v1/artifacts` takes `track` and `package`: the query string of a raw
 * (`application/octet-stream`) upload, or the leading form fields of a multipart one.
 */
export const ArtifactUploadFields = z.strictObject({ track: Track, package: PackageRefString });
export type ArtifactUploadFields = z.output<typeof ArtifactUploadFields>;

/** The query string of `POST /v1/artifacts`; both fields are required for a raw upload. */
export const ArtifactUploadQuery = z.strictObject({ track: z.string().optional(), package: z.string().optional() });

/** `GET /v1/artifacts`: exactly one of `purl` (or the short form) and `sha256`. */
export const ArtifactLookupQuery = z
  .strictObject({ purl: PackageRefString.optional(), sha256: Sha256Hash.optional() })
  .refine((q) => (q.purl === undefined) !== (q.sha256 === undefined), { message: 'expected exactly one of purl and sha256' });
export type ArtifactLookupQuery = z.output<typeof ArtifactLookupQuery>;

/** A package reference an artifact was uploaded as. */
export const ArtifactPackage = z.object({
  purl: z.string(),
  /** The purl type: `npm`, `pypi`, … */
  ecosystem: z.string(),
  namespace: z.string().nullable(),
  name: z.string(),
  version: z.string().nullable(),
  created_at: OffsetTimestamp,
});
export type ArtifactPackage = z.infer<typeof ArtifactPackage>;

/** What an artifact's bytes are, read from their leading bytes. */
export const ARCHIVE_FORMATS = ['tgz', 'zip', 'none'] as const;
export const ArchiveFormat = z.enum(ARCHIVE_FORMATS);
export type ArchiveFormat = z.infer<typeof ArchiveFormat>;

/**
 * `format` of a listing: one of ARCHIVE_FORMATS, or `unavailable` when the blob store does not hold
 * the bytes, so nothing is known of them (not `none`, which says they are a single file).
 */
export const ARCHIVE_LISTING_FORMATS = [...ARCHIVE_FORMATS, 'unavailable'] as const;
export const ArchiveListingFormat = z.enum(ARCHIVE_LISTING_FORMATS);
export type ArchiveListingFormat = z.infer<typeof ArchiveListingFormat>;

export const ArchiveEntry = z.object({ name: z.string(), size: NonNegativeInt });
export type ArchiveEntry = z.infer<typeof ArchiveEntry>;

/**
 * What the artifact's bytes hold. `format` is decided by the leading bytes (gzip: `tgz`, zip and
 * wheel: `zip`, anything else: `none`, a single file). `status` `corrupt` says the bytes claim an
 * archive format and cannot be read as one (`error` says why); `unavailable` says the bytes are not
 * in the blob store, and `format` is `unavailable` with it (exactly then). `files` is null unless
 * `status` is `ok` and the format is an archive.
 * `long_names_omitted` counts the files left out of `files` because their name is longer than
 * MAX_ARCHIVE_NAME_BYTES; `truncated` says the listing stopped early (MAX_ARCHIVE_ENTRIES files,
 * MAX_ARCHIVE_LISTING_BYTES of `files` as JSON, or 1 GiB of decompressed tar), or was cut to fit
 * a lookup page's MAX_LOOKUP_LISTING_BYTES.
 */
export const ArchiveListing = z.object({
  format: ArchiveListingFormat,
  status: z.enum(['ok', 'corrupt', 'unavailable']),
  files: z.array(ArchiveEntry).nullable(),
  truncated: z.boolean(),
  long_names_omitted: NonNegativeInt,
  error: z.string().nullable(),
});
export type ArchiveListing = z.infer<typeof ArchiveListing>;

export const PublishedVerdict = z.object({
  verdict: Verdict,
  risk_score: NonNegativeInt,
  round_id: RoundId,
  decided_at: OffsetTimestamp,
});
export type PublishedVerdict = z.infer<typeof PublishedVerdict>;

export const VerdictChange = z.object({
  verdict: Verdict,
  previous_verdict: Verdict.nullable(),
  risk_score: NonNegativeInt,
  round_id: RoundId,
  changed_at: OffsetTimestamp,
});
export type VerdictChange = z.infer<typeof VerdictChange>;

/** A signed attestation behind a published verdict. */
export const BackingAttestation = z.object({
  canonical_hash: Sha256Hash,
  validator_hotkey: Hotkey,
  verdict: Verdict,
  risk_score: NonNegativeInt,
  round_id: RoundId,
  recorded_at: OffsetTimestamp,
});
export type BackingAttestation = z.infer<typeof BackingAttestation>;

export const ArtifactFinding = Finding.extend({ canonical_hash: Sha256Hash });
export type ArtifactFinding = z.infer<typeof ArtifactFinding>;

/** `GET /v1/artifacts/{id}` and the upload's answer. */
export const ArtifactDetail = z.object({
  id: ArtifactId,
  track: Track,
  sha256: Sha256Hash,
  /** Bytes; null when the bytes are not in the blob store. */
  size: NonNegativeInt.nullable(),
  /** As uploaded (`application/octet-stream`, or the multipart part's type); null when never uploaded. */
  media_type: z.string().nullable(),
  packages: z.array(ArtifactPackage),
  created_at: OffsetTimestamp,
  archive: ArchiveListing,
  state: z.enum(['pending', 'decided']),
  verdict: PublishedVerdict.nullable(),
  verdict_history: z.array(VerdictChange),
  attestations: z.array(BackingAttestation),
  /** Paid plans: the findings of the attestations above. Free plans: null, and `findings_withheld` true. */
  findings: z.array(ArtifactFinding).nullable(),
  findings_withheld: z.boolean(),
  /**
   * Only with `?proof=true`: the C2SP tlog-proof text of the newest `vigil.verdict/v1` entry of this
   * artifact in the server's transparency log (docs/log.md), against a checkpoint signed at the time
   * of the read; null when the artifact has no published verdict, or only one published before the
   * log existed.
   */
  log_proof: z.string().nullable().optional(),
  /** Only with `?proof=true`: the entry `log_proof` proves, as logged (its UTF-8 bytes are the leaf); null with it. */
  log_entry: z.string().nullable().optional(),
});
export type ArtifactDetail = z.infer<typeof ArtifactDetail>;

/**
 * `GET /v1/artifacts/{id}` and `POST /v1/artifacts/verify`: `proof=true` adds `log_proof` and
 * `log_entry` (the verdict's transparency-log entry); absent or `false`, the answer is unchanged.
 */
export const LogProofQuery = z.object({ proof: z.enum(['true', 'false']).optional() });
export type LogProofQuery = z.infer<typeof LogProofQuery>;

/** `GET /v1/artifacts?purl=…|sha256=…` */
export const ArtifactLookupResult = z.object({ artifacts: z.array(ArtifactDetail) });
export type ArtifactLookupResult = z.infer<typeof ArtifactLookupResult>;

export const VerifyRequest = z.strictObject({ artifact: PackageRefString });
export type VerifyRequest = z.output<typeof VerifyRequest>;

export const VerifyBatchRequest = z.strictObject({ artifacts: z.array(PackageRefString).min(1).max(MAX_VERIFY_BATCH) });
export type VerifyBatchRequest = z.output<typeof VerifyBatchRequest>;

export const FindingsSummary = z.object({
  total: NonNegativeInt,
  by_severity: z.object(Object.fromEntries(SEVERITIES.map((s) => [s, NonNegativeInt])) as Record<(typeof SEVERITIES)[number], typeof NonNegativeInt>),
  by_category: z.array(z.object({ category: z.string(), count: NonNegativeInt })),
});
export type FindingsSummary = z.infer<typeof FindingsSummary>;

/** Where an on-demand registry fetch of a reference stands (docs/registries.md, "In the server"). */
export const REFERENCE_FETCH_STATES = ['fetching', 'queued_for_evaluation', 'failed'] as const;
export const ReferenceFetchState = z.enum(REFERENCE_FETCH_STATES);
export type ReferenceFetchState = z.infer<typeof ReferenceFetchState>;

/**
 * The `fetch` of a pending verification of an npm or PyPI reference Vigil fetched, or is fetching,
 * from its configured registry. `reason`: why the last attempt did not store (`fetching`: a retry
 * is due) or why the fetch failed for good (`failed`), as `<registry state>: <detail>`; null
 * otherwise. `expected_by`: when `queued_for_evaluation`, the planned close of the first round of
 * the artifact's track whose artifact selection comes after the artifact was stored; otherwise null.
 */
export const ReferenceFetch = z.object({
  state: ReferenceFetchState,
  reason: z.string().nullable(),
  expected_by: OffsetTimestamp.nullable(),
});
export type ReferenceFetch = z.infer<typeof ReferenceFetch>;

/**
 * One verification. `decided`: a published verdict, with what backs it. `pending`: no verdict yet,
 * never a guess; `queued` says whether Vigil holds the artifact and will evaluate it (false: it
 * has never been uploaded under this reference).
 */
export const VerifyResult = z.object({
  artifact: z.string(),
  state: z.enum(['pending', 'decided']),
  queued: z.boolean(),
  artifact_id: ArtifactId.nullable(),
  sha256: Sha256Hash.nullable(),
  verdict: Verdict.nullable(),
  risk_score: NonNegativeInt.nullable(),
  round_id: RoundId.nullable(),
  decided_at: OffsetTimestamp.nullable(),
  findings_summary: FindingsSummary.nullable(),
  attestations: z.array(z.object({ canonical_hash: Sha256Hash, validator_hotkey: Hotkey })),
  /** Present only while pending on a registry fetch Vigil made (absent for every other answer). */
  fetch: ReferenceFetch.optional(),
  /**
   * Only with `?proof=true`: the C2SP tlog-proof text of the newest `vigil.verdict/v1` entry of this
   * artifact in the server's transparency log (docs/log.md), against a checkpoint signed at the time
   * of the read; null when the artifact has no published verdict, or only one published before the
   * log existed.
   */
  log_proof: z.string().nullable().optional(),
  /** Only with `?proof=true`: the entry `log_proof` proves, as logged (its UTF-8 bytes are the leaf); null with it. */
  log_entry: z.string().nullable().optional(),
});
export type VerifyResult = z.infer<typeof VerifyResult>;

export const VerifyBatchResult = z.object({ results: z.array(VerifyResult) });
export type VerifyBatchResult = z.infer<typeof VerifyBatchResult>;

/**
 * A DSSE envelope (github.com/secure-systems-lab/dsse, protocol v1): `payload` is the base64 of the
 * payload bytes, each `sig` the base64 of a signature over PAE(payloadType, payload bytes).
 */
export const DsseEnvelope = z.object({
  payloadType: z.string(),
  payload: z.string(),
  signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })).min(1),
});
export type DsseEnvelope = z.infer<typeof DsseEnvelope>;

/** The `payloadType` of an in-toto Statement in a DSSE envelope (defined beside the attestation statement). */
export { IN_TOTO_PAYLOAD_TYPE } from '../attestation-statement.js';
/** The `predicateType` of a SLSA Verification Summary Attestation, v1. */
export const SLSA_VSA_PREDICATE_TYPE = 'https://slsa.dev/verification_summary/v1';
