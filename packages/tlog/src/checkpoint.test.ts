import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base64 } from '@scure/base';
import { generateSecretKey, getPublicKey } from '@vigil/crypto';
import {
  arrayHashReader,
  checkCheckpointUpdate,
  cosignatureMessage,
  cosignatureTimestamp,
  cosignatureVerifier,
  cosigner,
  EMPTY_TREE_HASH,
  formatCheckpoint,
  formatTlogProof,
  formatVerifierKey,
  leafHash,
  noteSigner,
  noteVerifier,
  openCheckpoint,
  openNote,
  parseCheckpoint,
  parseTlogProof,
  proveConsistency,
  proveInclusion,
  signCheckpoint,
  signNote,
  storedHashes,
  treeHash,
  verifyTlogProof,
  type Checkpoint,
  type Hash,
} from './index.js';

const c2sp = JSON.parse(readFileSync(new URL('./test-vectors/c2sp.json', import.meta.url), 'utf8')) as {
  checkpoint: string;
  cosignatureMessage: string;
  tlogProofHead: string;
};

const ORIGIN = 'vigil.example/log';
const logSecret = generateSecretKey();
const logSigner = noteSigner(ORIGIN, logSecret);
const logVerifier = noteVerifier(formatVerifierKey(ORIGIN, getPublicKey(logSecret)));

async function log(size: number, tag = 'entry'): Promise<{ stored: Hash[]; entries: Uint8Array[] }> {
  const stored: Hash[] = [];
  const entries: Uint8Array[] = [];
  for (let i = 0; i < size; i++) {
    const entry = new TextEncoder().encode(`${tag} ${i}`);
    entries.push(entry);
    stored.push(...(await storedHashes(i, entry, arrayHashReader(stored))));
  }
  return { stored, entries };
}

describe('checkpoints (C2SP tlog-checkpoint)', () => {
  it('parses the spec example body', () => {
    const text = c2sp.checkpoint.slice(0, c2sp.checkpoint.indexOf('\n\n') + 1);
    const checkpoint = parseCheckpoint(text);
    expect(checkpoint).toMatchObject({ origin: 'example.com/behind-the-sofa', size: 20852163, extensions: [] });
    expect(base64.encode(checkpoint.root)).toBe('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=');
    expect(formatCheckpoint(checkpoint)).toBe(text);
  });

  it('refuses malformed bodies', () => {
    const root = 'CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=';
    for (const bad of [
      `o\n1\n${root}`,
      `o\n1\n`,
      `\n1\n${root}\n`,
      `o\n01\n${root}\n`,
      `o\n+1\n${root}\n`,
      `o\n0xabcdef\n${root}\n`,
      `o\n1\n${root.slice(0, -1)}\n`,
      `o\n1\nTszzRgjTG6xce+z2AG31kAXYKBgQVtCSCE40HmuwBTOOBIG=\n`,
      `o\n1\n${root}\n\n`,
      `o\n99999999999999999999\n${root}\n`,
    ]) {
      expect(() => parseCheckpoint(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 'malformed_checkpoint' }));
    }
    expect(parseCheckpoint(`o\n0\n${root}\next one\next two\n`).extensions).toEqual(['ext one', 'ext two']);
  });

  it('opens only checkpoints signed by the pinned log key with the pinned origin', () => {
    const checkpoint: Checkpoint = { origin: ORIGIN, size: 0, root: EMPTY_TREE_HASH, extensions: [] };
    const signed = signCheckpoint(checkpoint, [logSigner]);
    expect(openCheckpoint(signed, ORIGIN, logVerifier).checkpoint).toEqual(checkpoint);
    expect(() => openCheckpoint(signed, 'other.example/log', logVerifier)).toThrow(expect.objectContaining({ code: 'malformed_checkpoint' }));
    const other = noteSigner(ORIGIN, generateSecretKey());
    expect(() => openCheckpoint(signCheckpoint(checkpoint, [other]), ORIGIN, logVerifier)).toThrow(expect.objectContaining({ code: 'unverified_note' }));
  });
});

describe('witness cosignatures (C2SP tlog-cosignature, cosignature/v1)', () => {
  it('builds the signed message exactly as the spec example', () => {
    const text = c2sp.checkpoint.slice(0, c2sp.checkpoint.indexOf('\n\n') + 1);
    expect(new TextDecoder().decode(cosignatureMessage(text, 1679315147))).toBe(c2sp.cosignatureMessage);
  });

  it('cosigns with a type 0x04 key and a timestamp, verified beside the log signature', () => {
    const witnessSecret = generateSecretKey();
    const witness = cosigner('witness.example/w1', witnessSecret, () => 1679315147);
    const vkey = formatVerifierKey('witness.example/w1', getPublicKey(witnessSecret), 0x04);
    const verifier = cosignatureVerifier(vkey);
    expect(verifier.keyId).toBe(witness.keyId);
    expect(() => noteVerifier(vkey)).toThrow(expect.objectContaining({ code: 'malformed_key' }));
    const text = formatCheckpoint({ origin: ORIGIN, size: 0, root: EMPTY_TREE_HASH, extensions: [] });
    const note = signNote(text, [logSigner, witness]);
    const opened = openCheckpoint(note, ORIGIN, logVerifier, [verifier]);
    expect(opened.note.sigs).toHaveLength(2);
    const cosig = opened.note.sigs[1]!;
    expect(cosignatureTimestamp(cosig)).toBe(1679315147);
    expect(base64.decode(cosig.base64)).toHaveLength(4 + 8 + 64);
    // The timestamp is signed: changing it breaks the cosignature.
    const bytes = base64.decode(cosig.base64);
    bytes[11]! ^= 1;
    const forged = note.replace(cosig.base64, base64.encode(bytes));
    expect(() => openNote(forged, [logVerifier, verifier])).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
    // A cosignature over another checkpoint does not verify on this one.
    const other = signNote(formatCheckpoint({ origin: ORIGIN, size: 1, root: leafHash(new Uint8Array(0)), extensions: [] }), [logSigner]);
    const transplanted = `${other}— witness.example/w1 ${cosig.base64}\n`;
    expect(() => openNote(transplanted, [logVerifier, verifier])).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
  });
});

describe('tlog-proof (C2SP)', () => {
  it('parses the spec example', () => {
    const proof = parseTlogProof(c2sp.tlogProofHead);
    expect(proof.index).toBe(73894);
    expect(proof.proof).toHaveLength(5);
    expect(proof.checkpoint.startsWith('example.com/fancylog\n109482\n')).toBe(true);
    expect(new TextDecoder().decode(proof.extra)).toMatch(/^age-v1\.2\.1-darwin-arm64\.tar\.gz/);
    expect(formatTlogProof(proof)).toBe(c2sp.tlogProofHead);
  });

  it('refuses malformed proofs', () => {
    const good = c2sp.tlogProofHead;
    for (const bad of [
      good.replace('c2sp.org/tlog-proof@v1', 'c2sp.org/tlog-proof@v2'),
      good.replace('index 73894', 'index 073894'),
      good.replace('index 73894\n', ''),
      good.replace('AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=', 'AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5v=='),
      good.slice(0, good.indexOf('\n\n')),
      good.replace('extra YWdl', 'extra !!!'),
    ]) {
      expect(() => parseTlogProof(bad)).toThrow(expect.objectContaining({ code: 'malformed_proof' }));
    }
  });

  it('verifies offline against the pinned log key and witnesses, and fails on any change', async () => {
    const { stored, entries } = await log(300);
    const reader = arrayHashReader(stored);
    const witnessSecret = generateSecretKey();
    const witness = cosignatureVerifier(formatVerifierKey('witness.example/w1', getPublicKey(witnessSecret), 0x04));
    const checkpoint = { origin: ORIGIN, size: 300, root: await treeHash(300, reader), extensions: [] };
    const note = signNote(formatCheckpoint(checkpoint), [logSigner, cosigner('witness.example/w1', witnessSecret)]);
    const index = 137;
    const text = formatTlogProof({ index, proof: await proveInclusion(300, index, reader), checkpoint: note });
    const options = { leafHash: leafHash(entries[index]!), origin: ORIGIN, logVerifier, witnesses: [witness], minWitnesses: 1 };
    const verified = verifyTlogProof(text, options);
    expect(verified.index).toBe(index);
    expect(verified.checkpoint.size).toBe(300);
    expect(verified.witnessSignatures).toHaveLength(1);

    expect(() => verifyTlogProof(text, { ...options, leafHash: leafHash(entries[index + 1]!) })).toThrow(expect.objectContaining({ code: 'proof_failed' }));
    expect(() => verifyTlogProof(text.replace(`index ${index}`, `index ${index + 1}`), options)).toThrow(expect.objectContaining({ code: 'proof_failed' }));
    expect(() => verifyTlogProof(text, { ...options, minWitnesses: 2 })).toThrow(expect.objectContaining({ code: 'unverified_note' }));
    expect(() => verifyTlogProof(text, { ...options, origin: 'other.example/log' })).toThrow(expect.objectContaining({ code: 'malformed_checkpoint' }));
    const stranger = noteVerifier(formatVerifierKey(ORIGIN, getPublicKey(generateSecretKey())));
    expect(() => verifyTlogProof(text, { ...options, logVerifier: stranger })).toThrow(expect.objectContaining({ code: 'unverified_note' }));
  });
});

describe('checkCheckpointUpdate (for log monitors)', () => {
  it('gives a precise verdict for every kind of update', async () => {
    const { stored } = await log(50);
    const reader = arrayHashReader(stored);
    const head = async (size: number): Promise<Checkpoint> => ({ origin: ORIGIN, size, root: await treeHash(size, reader), extensions: [] });
    const previous = await head(20);
    const next = await head(50);
    const proof = await proveConsistency(50, 20, reader);
    const base = { previous, origin: ORIGIN, logVerifier };

    expect(checkCheckpointUpdate({ ...base, next: signCheckpoint(next, [logSigner]), proof })).toMatchObject({ verdict: 'consistent' });
    expect(checkCheckpointUpdate({ ...base, next: signCheckpoint(previous, [logSigner]), proof: [] })).toMatchObject({ verdict: 'consistent' });
    // A junk proof beside an identical signed head is no evidence of a fork.
    expect(checkCheckpointUpdate({ ...base, next: signCheckpoint(previous, [logSigner]), proof })).toMatchObject({ verdict: 'consistent' });
    expect(checkCheckpointUpdate({ ...base, previous: { ...previous, size: 0, root: EMPTY_TREE_HASH }, next: signCheckpoint(next, [logSigner]), proof: [] })).toMatchObject({ verdict: 'consistent' });

    // A rewritten history: entry 5 changed, the tree re-signed at a larger size.
    const { stored: rewritten } = await log(50, 'rewritten');
    const rewrittenReader = arrayHashReader(rewritten);
    const forked = { origin: ORIGIN, size: 50, root: await treeHash(50, rewrittenReader), extensions: [] };
    const forkedProof = await proveConsistency(50, 20, rewrittenReader);
    const fork = checkCheckpointUpdate({ ...base, next: signCheckpoint(forked, [logSigner]), proof: forkedProof });
    expect(fork).toMatchObject({ verdict: 'inconsistent' });
    expect(checkCheckpointUpdate({ ...base, next: signCheckpoint(forked, [logSigner]), proof })).toMatchObject({ verdict: 'inconsistent' });

    // A split view: the same size with another root.
    const splitView = { ...previous, root: await treeHash(20, rewrittenReader) };
    const split = checkCheckpointUpdate({ ...base, next: signCheckpoint(splitView, [logSigner]), proof: [] });
    expect(split).toMatchObject({ verdict: 'inconsistent' });
    expect(split.verdict === 'inconsistent' && split.reason).toMatch(/two signed checkpoints of size 20/);

    expect(checkCheckpointUpdate({ ...base, next: signCheckpoint(await head(10), [logSigner]), proof: [] })).toMatchObject({ verdict: 'shrinking_tree' });

    const impostor = noteSigner(ORIGIN, generateSecretKey());
    expect(checkCheckpointUpdate({ ...base, next: signCheckpoint(next, [impostor]), proof })).toMatchObject({ verdict: 'bad_signature' });
    expect(checkCheckpointUpdate({ ...base, next: 'not a note', proof })).toMatchObject({ verdict: 'bad_signature' });
    const tampered = signCheckpoint(next, [logSigner]).replace('\n50\n', '\n51\n');
    expect(checkCheckpointUpdate({ ...base, next: tampered, proof })).toMatchObject({ verdict: 'bad_signature' });
  });
});
