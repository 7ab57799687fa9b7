import * as z from 'zod';
import { Track, Verdict } from '../enums.js';
import { Ed25519SignatureHex, Hotkey, RoundId, Sha256Hash } from '../ids.js';
import { OffsetTimestamp, parseTimestamp } from '../timestamps.js';
import { Finding } from './rounds.js';

/**
 * The customer API's attestation reads, attestation verification and search
 * (docs/customer-attestations.md, docs/search.md). Every route needs an API key (docs/accounts.md).
 */

const ArtifactIdText = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'expected a positive integer artifact id')
  .transform(Number)
  .meta({ type: 'integer', minimum: 1, pattern: undefined, description: 'artifact id' });

/** An offset timestamp in a query string, handed over as epoch milliseconds. */
/** A filter instant: any zone offset is accepted here (`Z`, `+02:00`, `-0130`), unlike what Vigil writes (UTC only). */
const OffsetTimestampQuery = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:?\d{2})$/, 'expected a datetime with a zone offset (Z or ±hh:mm)')
  .refine((text) => {
    try {
      parseTimestamp(text);
      return true;
    } catch {
      return false;
    }
  }, 'invalid datetime')
  .transform((text) => parseTimestamp(text).getTime());

/** `GET /v1/attestations` filters; every one optional, all combined with AND. Unknown names are refused. */
export const AttestationListQuery = z.strictObject({
  artifact: ArtifactIdText.optional(),
  sha256: Sha256Hash.optional(),
  canonical_hash: Sha256Hash.optional(),
  validator: Hotkey.optional(),
  miner: Hotkey.optional(),
  round_id: RoundId.optional(),
  verdict: Verdict.optional(),
  /** Recorded (server receive) time, inclusive. */
  since: OffsetTimestampQuery.optional(),
  /** Recorded (server receive) time, exclusive. */
  until: OffsetTimestampQuery.optional(),
});
export type AttestationListQuery = z.output<typeof AttestationListQuery>;

/** The artifact an attestation is about. */
export const AttestedArtifact = z.object({
  id: z.int().min(1),
  /** `{track}/{label}/{source_id}`: an identifier, not a content hash. */
  bundle_hash: z.string(),
  sha256: Sha256Hash,
});
export type AttestedArtifact = z.infer<typeof AttestedArtifact>;

/**
 * One recorded attestation. `findings` is the signed list on a `paid` plan; on `free` it is null
 * with `findings_withheld: true` (never an empty list that would read as "nothing found").
 */
export const AttestationRecord = z.object({
  canonical_hash: Sha256Hash,
  task_id: z.string(),
  round_id: z.string(),
  track: Track,
  miner_hotkey: z.string(),
  validator_hotkey: z.string(),
  agent_hash: Sha256Hash,
  artifact: AttestedArtifact,
  verdict: Verdict,
  risk_score: z.int().min(0).max(100),
  findings_count: z.int().min(0),
  findings_withheld: z.boolean(),
  findings: z.array(Finding).nullable(),
  /** The validator's clock (`payload.created_at`). */
  created_at: OffsetTimestamp,
  /** The server's receive time: what `since`/`until` and the order use. */
  recorded_at: OffsetTimestamp,
});
export type AttestationRecord = z.infer<typeof AttestationRecord>;

export const AttestationList = z.object({ attestations: z.array(AttestationRecord) });
export type AttestationList = z.infer<typeof AttestationList>;

/** `GET /v1/attestations/{canonical_hash}`: a malformed hash names no attestation (404, not 422). */
export const AttestationHashParams = z.object({ canonical_hash: Sha256Hash });
export type AttestationHashParams = z.output<typeof AttestationHashParams>;

/**
 * An envelope as it was signed and stored: `payload` is served byte-for-byte equivalent to what the
 * validator signed (unknown fields included), so it is typed loosely here on purpose.
 */
export const SignedAttestationEnvelope = z.object({
  payload: z.record(z.string(), z.unknown()),
  canonical_hash: Sha256Hash,
  signature: Ed25519SignatureHex,
});
export type SignedAttestationEnvelope = z.infer<typeof SignedAttestationEnvelope>;

/** The metagraph snapshot a check ran against (netuid 76). Null fields: not recorded (older rows). */
export const CheckedAgainst = z.object({
  netuid: z.int(),
  block: z.int().min(0).nullable(),
  taken_at: OffsetTimestamp.nullable(),
});
export type CheckedAgainst = z.infer<typeof CheckedAgainst>;

export const AttestationDetail = z.object({
  attestation: AttestationRecord,
  /** Null with `envelope_withheld: true` when the plan is `free` and the payload carries findings. */
  envelope: SignedAttestationEnvelope.nullable(),
  envelope_withheld: z.boolean(),
  /** The snapshot the server checked the permit against when it accepted the attestation. */
  checked_against: CheckedAgainst,
  /**
   * Only with `?proof=true`: the C2SP tlog-proof text of the attestation's entry in the server's
   * transparency log (docs/log.md), against a checkpoint signed at the time of the read; null when
   * the attestation has no entry (recorded before the log existed).
   */
  log_proof: z.string().nullable().optional(),
  /** Only with `?proof=true`: the entry `log_proof` proves, as logged (its UTF-8 bytes are the leaf); null with it. */
  log_entry: z.string().nullable().optional(),
});
export type AttestationDetail = z.infer<typeof AttestationDetail>;

/** `GET /v1/attestations/{canonical_hash}`: `proof=true` adds `log_proof` and `log_entry`; absent or `false`, the answer is unchanged. */
export const AttestationDetailQuery = z.object({ proof: z.enum(['true', 'false']).optional() });
export type AttestationDetailQuery = z.infer<typeof AttestationDetailQuery>;

/** `POST /v1/attestations/verify`: what `verifyAttestation` of @vigil/crypto answers, plus the snapshot used. */
export const AttestationVerifyResult = z.object({
  ok: z.boolean(),
  checks: z.object({ hash: z.boolean(), signature: z.boolean(), permit: z.boolean() }),
  reason: z.string().nullable(),
  checked_against: z.object({ netuid: z.int(), block: z.int().min(0), taken_at: OffsetTimestamp }),
});
export type AttestationVerifyResult = z.infer<typeof AttestationVerifyResult>;

export const SEARCH_KINDS = ['artifact', 'attestation'] as const;
export const SearchKind = z.enum(SEARCH_KINDS);
export type SearchKind = z.infer<typeof SearchKind>;

/** At most this many characters of `q`. */
export const MAX_SEARCH_QUERY_LENGTH = 256;

/**
 * The best-ranked index matches one search considers (docs/search.md): the ranking, the visibility
 * rules and the pages work on these only, so a common word costs as much as a rare one after the index.
 */
export const MAX_SEARCH_CANDIDATES = 1000;

export const SearchQuery = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1, 'expected a non-empty query')
    .max(MAX_SEARCH_QUERY_LENGTH)
    .refine((q) => /[\p{L}\p{N}]/u.test(q), 'expected at least one letter or digit'),
  kind: SearchKind.optional(),
});
export type SearchQuery = z.output<typeof SearchQuery>;

/** An artifact result: `id` is the artifact's `art_<n>` and `href` its `GET /v1/artifacts/{id}`. */
export const ArtifactSearchResult = z.object({
  type: z.literal('artifact'),
  /** The same as `type` (the field's earlier name). */
  kind: z.literal('artifact'),
  /** `art_<n>`, as every artifact read names it. */
  id: z.string().regex(/^art_[1-9]\d*$/),
  /** The canonical purl of the first package reference you may see, else its bundle hash. */
  title: z.string(),
  /** The indexed fields that matched the query, `field: value` joined with ` · `. */
  snippet: z.string(),
  /** Higher ranks first; comparable within one query only. */
  score: z.number(),
  /** `/v1/artifacts/art_<n>`. */
  href: z.string(),
});
export type ArtifactSearchResult = z.infer<typeof ArtifactSearchResult>;

/** An attestation result: named by its canonical hash, `href` its `GET /v1/attestations/{canonical_hash}`. */
export const AttestationSearchResult = z.object({
  type: z.literal('attestation'),
  /** The same as `type` (the field's earlier name). */
  kind: z.literal('attestation'),
  /** The canonical hash (the same as `canonical_hash`). */
  id: Sha256Hash,
  canonical_hash: Sha256Hash,
  /** `<VERDICT> <bundle_hash>`, or `<VERDICT> art_<n>` for an artifact registered by an upload. */
  title: z.string(),
  snippet: z.string(),
  score: z.number(),
  /** `/v1/attestations/<canonical_hash>`. */
  href: z.string(),
});
export type AttestationSearchResult = z.infer<typeof AttestationSearchResult>;

/** One search result, told apart by `type`. */
export const SearchResult = z.discriminatedUnion('type', [ArtifactSearchResult, AttestationSearchResult]);
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResults = z.object({ results: z.array(SearchResult) });
export type SearchResults = z.infer<typeof SearchResults>;
