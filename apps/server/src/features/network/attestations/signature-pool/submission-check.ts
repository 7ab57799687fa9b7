import { verifyAttestationStatementSignature, type AttestationVerification } from '@vigil/crypto';

/**
 * The checks of a submitted envelope: the three offline checks of the attestation, then, when the
 * validator sent one, its DSSE signature of the attestation's in-toto statement (docs/protocol.md,
 * "Submit attestations"). Run wherever the three are (the calling thread or a pool thread), so a
 * batch's extra ed25519 work stays off the event loop too.
 */
export interface SubmissionVerification extends AttestationVerification {
  /** Present only when the envelope carried `dsse_signature` and passed the three checks: whether it verifies. */
  dsse?: boolean;
}

export const DSSE_SIGNATURE_REASON = "dsse_signature does not verify against validator_hotkey over the attestation's in-toto statement";

export function checkSubmission(verify: (envelope: unknown) => AttestationVerification, envelope: unknown): SubmissionVerification {
  const result = verify(envelope);
  const dsseSignature = (envelope as { dsse_signature?: unknown } | null)?.dsse_signature;
  // A failed envelope is refused for its first failure already; the extra signature is not worth checking.
  if (!result.ok || dsseSignature === undefined) return result;
  const payload = (envelope as { payload: unknown }).payload;
  const dsse = typeof dsseSignature === 'string' && verifyAttestationStatementSignature(payload, dsseSignature);
  return dsse ? { ...result, dsse } : { ...result, ok: false, reason: DSSE_SIGNATURE_REASON, dsse };
}
