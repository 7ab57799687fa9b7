import { utf8ToBytes } from '@noble/hashes/utils';
import { canonicalJson } from './canonical.js';

/**
 * An attestation as an in-toto Statement v1 (docs/attestations.md, "In-toto statement and DSSE
 * envelope"). The validator and the server both derive the statement from the signed payload with
 * these functions, so the bytes the validator's DSSE signature covers are the bytes the server
 * serves: nothing about the statement is chosen at read time.
 */

/** The `_type` of an in-toto Statement, version 1. */
export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** The `payloadType` of an in-toto Statement in a DSSE envelope. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** The `predicateType` of a validator's attestation: the predicate is the attestation payload, unchanged. */
export const VIGIL_ATTESTATION_PREDICATE_TYPE = 'https://vigil.dev/attestation/v1';

/** What the statement needs of a payload; everything else in it rides along in the predicate. */
interface StatementPayload {
  artifact: { bundle_hash: string; sha256: string };
}

/**
 * The statement of an attestation payload: one subject (the artifact, named by its bundle hash, with
 * the hex of its sha256) and the payload as the predicate, every field as signed (unknown ones too).
 */
export function attestationStatement(payload: StatementPayload & Record<string, unknown>): Record<string, unknown> {
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: payload.artifact.bundle_hash, digest: { sha256: payload.artifact.sha256.slice('sha256:'.length) } }],
    predicateType: VIGIL_ATTESTATION_PREDICATE_TYPE,
    predicate: payload,
  };
}

/**
 * The statement's bytes: RFC 8785 canonical JSON, UTF-8. Throws CanonicalJsonError (JsonDepthError)
 * as canonicalBytes does; the statement nests one level deeper than its payload.
 */
export function attestationStatementBytes(payload: StatementPayload & Record<string, unknown>): Uint8Array {
  return utf8ToBytes(canonicalJson(attestationStatement(payload)));
}

/**
 * DSSE v1 pre-authentication encoding: `DSSEv1 <len(type)> <type> <len(body)> <body>`, lengths
 * in bytes as ASCII decimal. A DSSE signature covers these bytes, never the payload alone, so a
 * signature over one payload type cannot be replayed as another.
 */
export function dssePreAuthEncoding(payloadType: string, payload: Uint8Array): Uint8Array {
  const type = utf8ToBytes(payloadType);
  const head = utf8ToBytes(`DSSEv1 ${type.length} `);
  const middle = utf8ToBytes(` ${payload.length} `);
  const out = new Uint8Array(head.length + type.length + middle.length + payload.length);
  out.set(head, 0);
  out.set(type, head.length);
  out.set(middle, head.length + type.length);
  out.set(payload, head.length + type.length + middle.length);
  return out;
}

/** What a validator's `dsse_signature` signs: PAE(`application/vnd.in-toto+json`, the statement's bytes). */
export function attestationDsseMessage(payload: StatementPayload & Record<string, unknown>): Uint8Array {
  return dssePreAuthEncoding(IN_TOTO_PAYLOAD_TYPE, attestationStatementBytes(payload));
}
