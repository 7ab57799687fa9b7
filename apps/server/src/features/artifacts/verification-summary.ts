import {
  canonicalJson,
  dssePreAuthEncoding,
  IN_TOTO_PAYLOAD_TYPE,
  IN_TOTO_STATEMENT_TYPE,
  SLSA_VSA_PREDICATE_TYPE,
  type ArtifactDetail,
  type DsseEnvelope,
} from '@vigil/core';
import { getPublicKey, sign } from '@vigil/crypto';
import { VigilError } from '../../platform/errors.js';

/**
 * A published verdict as a SLSA Verification Summary Attestation (in-toto Statement v1) in a DSSE
 * envelope signed by the server identity key (docs/artifacts.md, "Verification summaries"), so
 * tools that read in-toto and SLSA (policy engines, slsa-verifier-style checks) consume Vigil's
 * verdict without Vigil's SDK.
 */

const encoder = new TextEncoder();

/** The statement of an artifact's published verdict, as the reader sees the artifact. */
export function verificationSummaryStatement(detail: ArtifactDetail, serverHotkey: string): Record<string, unknown> {
  const verdict = detail.verdict;
  if (verdict === null) throw new VigilError('artifact_verdict_not_published');
  // The reader's first counted package reference names the artifact; without one, its Vigil id.
  const resourceUri = detail.packages[0]?.purl ?? `urn:vigil:artifact:${detail.id}`;
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: resourceUri, digest: { sha256: detail.sha256.slice('sha256:'.length) } }],
    predicateType: SLSA_VSA_PREDICATE_TYPE,
    predicate: {
      verifier: { id: `urn:vigil:server:${serverHotkey}` },
      timeVerified: new Date(verdict.decided_at).toISOString(),
      resourceUri,
      policy: { uri: `urn:vigil:round:${verdict.round_id}` },
      inputAttestations: detail.attestations.map((a) => ({ uri: `urn:vigil:attestation:${a.canonical_hash}`, digest: { sha256: a.canonical_hash.slice('sha256:'.length) } })),
      verificationResult: verdict.verdict === 'ALLOW' ? 'PASSED' : 'FAILED',
      verifiedLevels: [`VIGIL_VERDICT_${verdict.verdict}`],
    },
  };
}

/** The statement as a DSSE envelope: canonical JSON (RFC 8785) payload, one Ed25519 signature over its PAE. */
export function signedStatement(statement: Record<string, unknown>, secretKey: Uint8Array): DsseEnvelope {
  const payload = encoder.encode(canonicalJson(statement));
  const signature = sign(dssePreAuthEncoding(IN_TOTO_PAYLOAD_TYPE, payload), secretKey);
  return {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: Buffer.from(payload).toString('base64'),
    signatures: [{ keyid: Buffer.from(getPublicKey(secretKey)).toString('hex'), sig: Buffer.from(signature).toString('base64') }],
  };
}
