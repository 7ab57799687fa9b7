import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSecretKey, getPublicKey } from '@vigil/crypto';
import {
  computeKeyId,
  formatVerifierKey,
  noteSigner,
  noteVerifier,
  openNote,
  parseSignerKey,
  parseVerifierKey,
  signNote,
  UnverifiedNoteError,
  type NoteVerifier,
} from './index.js';

const go = JSON.parse(readFileSync(new URL('./test-vectors/go-sumdb.json', import.meta.url), 'utf8')) as {
  note: { peterVerifierKey: string; peterSignerKey: string; enochVerifierKey: string; badVerifierKeys: string[]; text: string; signedByPeter: string; peterSig: string; enochSig: string };
};
const c2sp = JSON.parse(readFileSync(new URL('./test-vectors/c2sp.json', import.meta.url), 'utf8')) as { signedNote: { verifierKey: string; note: string } };
const { note: v } = go;

describe('verifier keys', () => {
  it('parses the Go and C2SP example keys, whose key IDs are SHA-256(name || 0x0A || 0x01 || key)[:4]', () => {
    for (const vkey of [v.peterVerifierKey, v.enochVerifierKey, c2sp.signedNote.verifierKey]) {
      const key = parseVerifierKey(vkey);
      expect(computeKeyId(key.name, 0x01, key.publicKey)).toBe(key.keyId);
      expect(formatVerifierKey(key.name, key.publicKey)).toBe(vkey);
    }
    expect(parseVerifierKey(v.peterVerifierKey).keyId).toBe(0xc74f20a3);
  });

  it('refuses every substring and every one-byte change of a key (Go TestNewVerifier)', () => {
    const key = v.peterVerifierKey;
    for (let i = 0; i <= key.length; i++) {
      for (let j = i + 1; j <= key.length; j++) {
        if (i === 0 && j === key.length) continue;
        expect(() => noteVerifier(key.slice(i, j)), key.slice(i, j)).toThrow(expect.objectContaining({ code: 'malformed_key' }));
      }
    }
    for (let i = 0; i < key.length; i++) {
      const mangled = key.slice(0, i) + String.fromCharCode(key.charCodeAt(i) + 1) + key.slice(i + 1);
      expect(() => noteVerifier(mangled), mangled).toThrow(expect.objectContaining({ code: 'malformed_key' }));
    }
    for (const bad of v.badVerifierKeys) expect(() => noteVerifier(bad)).toThrow(expect.objectContaining({ code: 'malformed_key' }));
  });

  it('refuses key names with spaces or plus signs', () => {
    const publicKey = getPublicKey(generateSecretKey());
    for (const name of ['', 'a b', 'a+b', 'a\u00a0b', 'a\u3000b', 'a\tb']) {
      expect(() => formatVerifierKey(name, publicKey), JSON.stringify(name)).toThrow(expect.objectContaining({ code: 'malformed_key' }));
    }
  });
});

describe('signing (Go TestSign)', () => {
  const { name, secretKey } = parseSignerKey(v.peterSignerKey);
  const signer = noteSigner(name, secretKey);

  it('signs exactly as Go does, and replaces an existing signature by the same key', () => {
    expect(signNote(v.text, [signer])).toBe(v.signedByPeter);
    expect(signNote(v.text, [signer], [{ name: 'PeterNeumann', keyId: 0xc74f20a3, base64: 'x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=' }])).toBe(v.signedByPeter);
  });

  it('refuses bad text, bad names and bad existing signatures', () => {
    expect(() => signNote('abc', [signer])).toThrow(expect.objectContaining({ code: 'malformed_note' }));
    expect(() => signNote(v.text, [], [{ name: 'a+b', keyId: 0, base64: 'ABCD' }])).toThrow(expect.objectContaining({ code: 'malformed_note' }));
    expect(() => signNote(v.text, [], [{ name: 'PeterNeumann', keyId: 0xc74f20a3, base64: 'BADHASH=' }])).toThrow(expect.objectContaining({ code: 'malformed_note' }));
    expect(() => noteSigner('bad name', secretKey)).toThrow(expect.objectContaining({ code: 'malformed_key' }));
    expect(() => parseSignerKey(v.peterSignerKey.replace('c74f20a3', 'c74f20a4'))).toThrow(expect.objectContaining({ code: 'malformed_key' }));
  });
});

describe('opening notes (Go TestOpen, C2SP example)', () => {
  const peter = noteVerifier(v.peterVerifierKey);
  const enoch = noteVerifier(v.enochVerifierKey);
  const peterSig = { name: 'PeterNeumann', keyId: 0xc74f20a3, base64: v.peterSig.slice('— PeterNeumann '.length, -1) };
  const enochSig = { name: 'EnochRoot', keyId: 0xaf0cfe78, base64: v.enochSig.slice('— EnochRoot '.length, -1) };
  const both = `${v.text}\n${v.peterSig}${v.enochSig}`;

  it('verifies the C2SP signed-note example', () => {
    const note = openNote(c2sp.signedNote.note, [noteVerifier(c2sp.signedNote.verifierKey)]);
    expect(note.text).toBe('This is an example message.\n');
  });

  it('verifies known keys and keeps unknown ones apart', () => {
    const one = openNote(both, [peter]);
    expect(one).toEqual({ text: v.text, sigs: [peterSig], unverifiedSigs: [enochSig] });
    expect(openNote(new TextEncoder().encode(both), [peter, enoch])).toEqual({ text: v.text, sigs: [peterSig, enochSig], unverifiedSigs: [] });
  });

  it('refuses a note with no known signature, keeping what it read', () => {
    let error: unknown;
    try {
      openNote(both, []);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnverifiedNoteError);
    expect((error as UnverifiedNoteError).message).toBe('note has no verifiable signatures');
    expect((error as UnverifiedNoteError).note.unverifiedSigs).toEqual([peterSig, enochSig]);
  });

  it('says a key is ambiguous only when its signature is present', () => {
    expect(() => openNote(`${v.text}\n${v.enochSig}`, [enoch, peter, enoch])).toThrow(expect.objectContaining({ code: 'ambiguous_key', message: 'ambiguous key EnochRoot+af0cfe78' }));
    expect(openNote(`${v.text}\n${v.peterSig}`, [enoch, peter, enoch]).sigs).toEqual([peterSig]);
  });

  it('refuses more than 100 signatures, and a bad signature by a known key', () => {
    expect(() => openNote(`${v.text}\n${v.peterSig.repeat(101)}`, [peter])).toThrow(expect.objectContaining({ code: 'malformed_note' }));
    expect(() => openNote(`${v.text}\n${v.peterSig.repeat(101)}`, [])).toThrow(expect.objectContaining({ code: 'malformed_note' }));
    const corrupted = `${v.text}\n${v.peterSig.slice(0, 60)}ABCD${v.peterSig.slice(60)}`;
    expect(() => openNote(corrupted, [peter])).toThrow(expect.objectContaining({ code: 'invalid_signature', message: 'invalid signature for key PeterNeumann+c74f20a3' }));
  });

  it('drops duplicate signatures and keeps distinct unverified ones', () => {
    const enochCorrupt = `${v.enochSig.slice(0, 60)}ABCD${v.enochSig.slice(60)}`;
    const note = openNote(`${v.text}\n${v.peterSig}${v.peterSig}${v.enochSig}${v.enochSig}${enochCorrupt}`, [peter]);
    expect(note.sigs).toEqual([peterSig]);
    expect(note.unverifiedSigs.map((s) => s.name)).toEqual(['EnochRoot', 'EnochRoot']);
  });

  it('refuses malformed notes exactly as Go does', () => {
    const bad = [
      v.text,
      `${v.text}\n`,
      `${v.text}\n${v.peterSig.slice(0, -1)}`,
      `\u0001${v.text}\n${v.peterSig}`,
      `${v.text}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=`,
      `${v.text}\n${v.peterSig}Unexpected line.\n`,
      `${v.text}\n— PeterNeumann\n`,
      `${v.text}\n— PeterNeumann AAAA\n`,
      `${v.text}\r\n${v.peterSig}`,
    ];
    for (const message of bad) expect(() => openNote(message, [peter]), JSON.stringify(message)).toThrow(expect.objectContaining({ code: 'malformed_note' }));
    const invalidUtf8 = new Uint8Array([0xff, ...new TextEncoder().encode(`${v.text}\n${v.peterSig}`)]);
    expect(() => openNote(invalidUtf8, [peter])).toThrow(expect.objectContaining({ code: 'malformed_note' }));
  });

  it('a verifier is consulted only for its own name and key ID', () => {
    const liar: NoteVerifier = { name: 'PeterNeumann', keyId: 0xc74f20a3, verify: () => true };
    const renamed = v.peterSig.replace('PeterNeumann', 'CarmenSandiego');
    const note = openNote(`${v.text}\n${v.peterSig}${renamed}`, [liar]);
    expect(note.sigs.map((s) => s.name)).toEqual(['PeterNeumann']);
    expect(note.unverifiedSigs.map((s) => s.name)).toEqual(['CarmenSandiego']);
  });

  it('signs and opens a fresh key round trip, with a note text holding empty lines', () => {
    const secret = generateSecretKey();
    const text = 'line one\n\nline three\n';
    const message = signNote(text, [noteSigner('vigil.example/log', secret)]);
    const verifier = noteVerifier(formatVerifierKey('vigil.example/log', getPublicKey(secret)));
    expect(openNote(message, [verifier]).text).toBe(text);
    expect(() => openNote(message.replace('three', 'tree'), [verifier])).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
  });
});
