import * as z from 'zod';
import { Track, Verdict } from '../enums.js';
import { LIMITS } from '../limits.js';
import { BundleHash, Ed25519SignatureHex, Hotkey, RoundId, Sha256Hash } from '../ids.js';
import { OffsetTimestamp } from '../timestamps.js';
import { Finding } from './rounds.js';

/**
 * The signed content of an attestation. More fields are allowed (and covered by the hash and
 * signature); the ones below must be present. See docs/attestations.md.
 */
export const AttestationPayload = z.looseObject({
  round_id: RoundId,
  task_id: z.string().min(1).max(128),
  track: Track,
  miner_hotkey: Hotkey,
  agent_hash: Sha256Hash,
  artifact: z.looseObject({ bundle_hash: BundleHash, sha256: Sha256Hash }),
  verdict: Verdict,
  risk_score: z.int().min(0).max(100),
  findings: z.array(Finding).max(LIMITS.maxFindingsPerAttestation),
  policy_version: z.string().min(1),
  validator_hotkey: Hotkey,
  created_at: OffsetTimestamp,
});
export type AttestationPayload = z.infer<typeof AttestationPayload>;

/**
 * The wire format: `canonical_hash` is `sha256:` + hex SHA-256 of the RFC 8785 bytes of `payload`;
 * `signature` is the ed25519 signature (128 hex) over those same bytes by `payload.validator_hotkey`.
 */
export const AttestationEnvelope = z.object({
  payload: AttestationPayload,
  canonical_hash: Sha256Hash,
  signature: Ed25519SignatureHex,
});
export type AttestationEnvelope = z.infer<typeof AttestationEnvelope>;

/**
 * What a validator submits (`POST /v1/validators/attestations` and each item of the batch): the
 * envelope, and optionally `dsse_signature`, the validator's ed25519 signature (128 hex) over the DSSE
 * pre-authentication encoding of the attestation's in-toto statement (`attestationDsseMessage`,
 * docs/attestations.md). It is not part of the payload: the canonical hash and `signature` are unchanged.
 */
export const AttestationSubmission = AttestationEnvelope.extend({
  dsse_signature: Ed25519SignatureHex.optional(),
});
export type AttestationSubmission = z.infer<typeof AttestationSubmission>;
