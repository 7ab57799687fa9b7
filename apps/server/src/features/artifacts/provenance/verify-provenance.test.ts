import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkProvenance, NotABundleError, provenanceBundle } from './verify-provenance.js';

/** npm's attestations for gundam-visor@1.0.1 (a real package published with provenance on 2024-06-03). */
type BundleJson = { dsseEnvelope: { payload: string; signatures: { sig: string }[] } } & Record<string, unknown>;
const ATTESTATIONS = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../test/fixtures/sigstore/gundam-visor-1.0.1.attestations.json'), 'utf8')) as {
  attestations: { predicateType: string; bundle: BundleJson }[];
};
/** The sha512 the provenance signs: the tarball npm published for gundam-visor@1.0.1. */
const SIGNED_SHA512 = '8d9d7972f676516c75014aa074e11ae604d98f0b64ec6725a61e2838ff3dab162118fa71433fb31e1550d30bd0dec9d086ce032b94457b583900c507acf39c40';
const PURL = 'pkg:npm/gundam-visor@1.0.1';

describe('provenance verification (offline, Sigstore public-good root)', () => {
  it('verifies the real bundle when the bytes are the ones it signs, naming the source repository and the log time', () => {
    const bundle = provenanceBundle(ATTESTATIONS);
    expect(checkProvenance(bundle, { sha512Hex: SIGNED_SHA512, purls: [PURL] })).toEqual({
      verified: true,
      subject: PURL,
      source_repository: 'https://github.com/ramonpetgrave64/gundam-visor',
      logged_at: 1717453079000,
    });
    // The bare bundle is taken as well as npm's attestations document.
    expect(checkProvenance(provenanceBundle(ATTESTATIONS.attestations[1]!.bundle), { sha512Hex: SIGNED_SHA512, purls: [PURL] }).verified).toBe(true);
  });

  it('does not verify for other bytes, or the same bytes under another name', () => {
    const bundle = provenanceBundle(ATTESTATIONS);
    expect(checkProvenance(bundle, { sha512Hex: 'ab'.repeat(64), purls: [PURL] })).toEqual({
      verified: false,
      reason: `the bundle signs ${PURL} with sha512 ${SIGNED_SHA512}, not these bytes (sha512 ${'ab'.repeat(64)})`,
    });
    expect(checkProvenance(bundle, { sha512Hex: SIGNED_SHA512, purls: ['pkg:npm/other@1.0.1'] })).toEqual({
      verified: false,
      reason: 'the bundle signs these bytes as pkg:npm/gundam-visor@1.0.1, not as pkg:npm/other@1.0.1',
    });
  });

  it('a payload changed after signing does not verify, whatever digest it claims', () => {
    const tampered = structuredClone(ATTESTATIONS.attestations[1]!.bundle);
    const statement = JSON.parse(Buffer.from(tampered.dsseEnvelope.payload, 'base64').toString('utf8')) as { subject: { digest: { sha512: string } }[] };
    statement.subject[0]!.digest.sha512 = 'cd'.repeat(64);
    tampered.dsseEnvelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    expect(checkProvenance(provenanceBundle(tampered), { sha512Hex: 'cd'.repeat(64), purls: [PURL] })).toMatchObject({
      verified: false,
      reason: expect.stringMatching(/^the bundle does not verify against the Sigstore public-good trusted root/),
    });
    const resigned = structuredClone(ATTESTATIONS.attestations[1]!.bundle);
    resigned.dsseEnvelope.signatures[0]!.sig = ATTESTATIONS.attestations[0]!.bundle.dsseEnvelope.signatures[0]!.sig;
    expect(checkProvenance(provenanceBundle(resigned), { sha512Hex: SIGNED_SHA512, purls: [PURL] }).verified).toBe(false);
  });

  it('names what failed as <code>: <message>, MALFORMED_BUNDLE when the library gives no code', () => {
    const unreadable = structuredClone(ATTESTATIONS.attestations[1]!.bundle) as BundleJson & { verificationMaterial: { x509CertificateChain: { certificates: { rawBytes: string }[] } } };
    unreadable.verificationMaterial.x509CertificateChain.certificates[0]!.rawBytes = Buffer.from('not a certificate').toString('base64');
    expect(checkProvenance(provenanceBundle(unreadable), { sha512Hex: SIGNED_SHA512, purls: [PURL] })).toEqual({
      verified: false,
      reason: 'the bundle does not verify against the Sigstore public-good trusted root (MALFORMED_BUNDLE: request past end of buffer)',
    });
    const resigned = structuredClone(ATTESTATIONS.attestations[1]!.bundle);
    resigned.dsseEnvelope.signatures[0]!.sig = ATTESTATIONS.attestations[0]!.bundle.dsseEnvelope.signatures[0]!.sig;
    expect(checkProvenance(provenanceBundle(resigned), { sha512Hex: SIGNED_SHA512, purls: [PURL] })).toEqual({
      verified: false,
      reason: expect.stringMatching(/^the bundle does not verify against the Sigstore public-good trusted root \((TLOG_BODY_ERROR|SIGNATURE_ERROR): [^()]+\)$/),
    });
  });

  it('says so when the bundle signs no in-toto statement', () => {
    const other = structuredClone(ATTESTATIONS.attestations[1]!.bundle) as BundleJson & { dsseEnvelope: { payloadType: string } };
    other.dsseEnvelope.payloadType = 'text/plain';
    expect(checkProvenance(provenanceBundle(other), { sha512Hex: SIGNED_SHA512, purls: [PURL] })).toEqual({
      verified: false,
      reason: 'the bundle does not sign an in-toto statement (a DSSE envelope of application/vnd.in-toto+json)',
    });
  });

  it('refuses what is not a bundle', () => {
    expect(() => provenanceBundle({ attestations: [] })).toThrow(NotABundleError);
    expect(() => provenanceBundle({ mediaType: 'application/vnd.dev.sigstore.bundle+json;version=0.2' })).toThrow(NotABundleError);
    expect(() => provenanceBundle('text')).toThrow(NotABundleError);
  });
});
