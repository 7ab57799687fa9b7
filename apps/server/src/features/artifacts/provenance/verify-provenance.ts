import { bundleFromJSON, type Bundle } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toSignedEntity, toTrustMaterial, VerificationError, Verifier, type Signer } from '@sigstore/verify';
import { PUBLIC_GOOD_TRUSTED_ROOT } from './public-good-trusted-root.js';

/** The predicate types of the build provenance npm publishes (`npm publish --provenance`). */
export const SLSA_PROVENANCE_TYPES = ['https://slsa.dev/provenance/v1', 'https://slsa.dev/provenance/v0.2'] as const;

/** Fulcio's certificate extension naming the source repository (OID 1.3.6.1.4.1.57264.1.12). */
const SOURCE_REPOSITORY_OID = [1, 3, 6, 1, 4, 1, 57264, 1, 12].join('.');

/** The body is neither a Sigstore bundle nor an npm attestations document holding a SLSA provenance bundle. */
export class NotABundleError extends Error {
  override name = 'NotABundleError';
}

export interface VerifiedProvenance {
  verified: true;
  /** The in-toto subject name the bundle signs for these bytes. */
  subject: string;
  /** The source repository the signing certificate names, when it names one. */
  source_repository: string | null;
  /** Epoch ms the transparency log integrated the entry. */
  logged_at: number | null;
}

export interface UnverifiedProvenance {
  verified: false;
  /** Why, in one of the forms docs/package-facts.md lists. */
  reason: string;
}

export type ProvenanceCheck = VerifiedProvenance | UnverifiedProvenance;

/**
 * The code of a reason when the library says nothing more precise: a certificate, key, signature or
 * log entry in the bundle that cannot even be read (`request past end of buffer` from the DER parser).
 */
export const MALFORMED_BUNDLE = 'MALFORMED_BUNDLE';

/** What failed, as `<code>: <message>` (docs/package-facts.md lists the codes). */
function verificationFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof VerificationError ? error.code : MALFORMED_BUNDLE;
  return `${code}: ${message}`;
}

let verifier: Verifier | undefined;
function publicGoodVerifier(): Verifier {
  // One transparency log entry and one certificate transparency timestamp, as npm requires.
  verifier ??= new Verifier(toTrustMaterial(TrustedRoot.fromJSON(PUBLIC_GOOD_TRUSTED_ROOT)), { tlogThreshold: 1, ctlogThreshold: 1 });
  return verifier;
}

/** The bundle of the document: itself, or the SLSA provenance entry of npm's `{"attestations": [...]}`. */
export function provenanceBundle(document: unknown): Bundle {
  let candidate = document;
  if (candidate !== null && typeof candidate === 'object' && Array.isArray((candidate as { attestations?: unknown }).attestations)) {
    const entry = (candidate as { attestations: unknown[] }).attestations.find(
      (a) => a !== null && typeof a === 'object' && (SLSA_PROVENANCE_TYPES as readonly string[]).includes(String((a as { predicateType?: unknown }).predicateType)),
    );
    if (entry === undefined) throw new NotABundleError('the attestations hold no SLSA provenance bundle (predicateType https://slsa.dev/provenance/v1 or v0.2)');
    candidate = (entry as { bundle?: unknown }).bundle;
  }
  try {
    return bundleFromJSON(candidate);
  } catch (error) {
    throw new NotABundleError(`not a Sigstore bundle: ${(error as Error).message}`);
  }
}

interface Statement {
  subject: { name: string; digest: Record<string, string> }[];
}

function statementOf(bundle: Bundle): Statement | undefined {
  if (bundle.content.$case !== 'dsseEnvelope' || bundle.content.dsseEnvelope.payloadType !== 'application/vnd.in-toto+json') return undefined;
  try {
    const statement = JSON.parse(Buffer.from(bundle.content.dsseEnvelope.payload).toString('utf8')) as Partial<Statement>;
    return Array.isArray(statement.subject) ? (statement as Statement) : undefined;
  } catch {
    return undefined;
  }
}

/** The UTF-8 text of a DER UTF8String or IA5String extension value; older Fulcio certificates store the raw text. */
function derText(value: Uint8Array): string {
  const bytes = Buffer.from(value);
  if ((bytes[0] === 0x0c || bytes[0] === 0x16) && bytes.length >= 2) {
    const first = bytes[1]!;
    if (first < 0x80) return bytes.subarray(2, 2 + first).toString('utf8');
    const lengthBytes = first & 0x7f;
    let length = 0;
    for (let i = 0; i < lengthBytes; i += 1) length = (length << 8) | bytes[2 + i]!;
    return bytes.subarray(2 + lengthBytes, 2 + lengthBytes + length).toString('utf8');
  }
  return bytes.toString('utf8');
}

function sourceRepository(signer: Signer): string | null {
  const pair = signer.identity?.oids?.find((o) => o.oid?.id.join('.') === SOURCE_REPOSITORY_OID);
  return pair ? derText(pair.value) : null;
}

/**
 * Verifies a provenance bundle offline against the Sigstore public-good trusted root kept in the
 * repository (the certificate chain to Fulcio, the certificate transparency timestamp, the Rekor
 * entry and its signature over the DSSE envelope), then checks that its in-toto subject is these
 * bytes: a subject whose sha512 is `sha512Hex` and whose name is one of `purls`. Only both together
 * make it verified; anything short of that says why not.
 */
export function checkProvenance(bundle: Bundle, artifact: { sha512Hex: string; purls: readonly string[] }): ProvenanceCheck {
  const statement = statementOf(bundle);
  const subject = statement?.subject[0]?.name ?? null;
  const unverified = (reason: string): UnverifiedProvenance => ({ verified: false, reason });
  if (statement === undefined) return unverified('the bundle does not sign an in-toto statement (a DSSE envelope of application/vnd.in-toto+json)');
  let signer: Signer;
  try {
    signer = publicGoodVerifier().verify(toSignedEntity(bundle));
  } catch (error) {
    return unverified(`the bundle does not verify against the Sigstore public-good trusted root (${verificationFailure(error)})`);
  }
  const match = statement.subject.find((s) => s.digest?.sha512?.toLowerCase() === artifact.sha512Hex);
  if (match === undefined) {
    const digest = statement.subject[0]?.digest?.sha512;
    return unverified(`the bundle signs ${subject ?? 'another subject'}${digest ? ` with sha512 ${digest}` : ''}, not these bytes (sha512 ${artifact.sha512Hex})`);
  }
  if (!artifact.purls.includes(match.name)) {
    return unverified(`the bundle signs these bytes as ${match.name}, not as ${artifact.purls.join(' or ') || 'a package reference of this artifact'}`);
  }
  const integrated = bundle.verificationMaterial.tlogEntries[0]?.integratedTime;
  return {
    verified: true,
    subject: match.name,
    source_repository: sourceRepository(signer),
    logged_at: integrated ? Number(integrated) * 1000 : null,
  };
}
