import { canonicalJson, formatOffsetTimestamp } from '@vigil/core';

/** The `type` of an attestation's entry (docs/log.md, "Entries"). */
export const ATTESTATION_ENTRY_TYPE = 'vigil.attestation/v1';
/** The `type` of a published verdict's entry. */
export const VERDICT_ENTRY_TYPE = 'vigil.verdict/v1';

/** An entry to append: its canonical JSON text and what it is about. */
export interface LogEntryInput {
  type: typeof ATTESTATION_ENTRY_TYPE | typeof VERDICT_ENTRY_TYPE;
  /** `attestation:<canonical_hash>` or `artifact:<bundle_hash>`: how a read finds its entry. */
  subject: string;
  /** RFC 8785 canonical JSON; its UTF-8 bytes are the log entry. */
  entry: string;
}

export interface LoggedAttestation {
  canonicalHash: string;
  signature: string;
  validatorHotkey: string;
  bundleHash: string;
  verdict: string;
  /** When Vigil accepted it, epoch ms. */
  recordedAt: number;
}

/**
 * An accepted attestation's entry. It names the envelope by its canonical hash (the SHA-256 of the
 * canonical payload the validator signed) and carries the signature, not the whole payload: a
 * payload may reach 256 KiB and a C2SP entry holds at most 65,535 bytes.
 */
export function attestationLogEntry(a: LoggedAttestation): LogEntryInput {
  return {
    type: ATTESTATION_ENTRY_TYPE,
    subject: `attestation:${a.canonicalHash}`,
    entry: canonicalJson({
      type: ATTESTATION_ENTRY_TYPE,
      canonical_hash: a.canonicalHash,
      signature: a.signature,
      validator_hotkey: a.validatorHotkey,
      bundle_hash: a.bundleHash,
      verdict: a.verdict,
      recorded_at: formatOffsetTimestamp(a.recordedAt),
    }),
  };
}

export interface LoggedVerdict {
  bundleHash: string;
  track: string;
  verdict: string;
  previousVerdict: string | null;
  riskScore: number;
  roundId: string;
  /** When the round that published it closed, epoch ms. */
  publishedAt: number;
}

/** A verdict publication's entry: the published verdict as it stands after the round. */
export function verdictLogEntry(v: LoggedVerdict): LogEntryInput {
  return {
    type: VERDICT_ENTRY_TYPE,
    subject: `artifact:${v.bundleHash}`,
    entry: canonicalJson({
      type: VERDICT_ENTRY_TYPE,
      bundle_hash: v.bundleHash,
      track: v.track,
      verdict: v.verdict,
      previous_verdict: v.previousVerdict,
      risk_score: v.riskScore,
      round_id: v.roundId,
      published_at: formatOffsetTimestamp(v.publishedAt),
    }),
  };
}
