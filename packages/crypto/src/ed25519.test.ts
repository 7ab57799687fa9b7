import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import rfc8032 from './test-vectors/rfc8032.json' with { type: 'json' };
import { fromHex, toHex } from './bytes.js';
import type { Ed25519 } from './ed25519-contract.js';
import { nativeEd25519 } from './ed25519-native.js';
import { portableEd25519 } from './ed25519-portable.js';
import { ed25519, generateSecretKey, getPublicKey, sign, verify } from './ed25519.js';
import { CryptoInputError } from './errors.js';

const implementations: Ed25519[] = [nativeEd25519, portableEd25519];
const seed = fc.uint8Array({ minLength: 32, maxLength: 32 });
const message = fc.uint8Array({ maxLength: 512 });

describe.each(implementations)('$name ed25519', (impl) => {
  it.each(rfc8032.vectors)('matches RFC 8032 $name', (vector) => {
    const secretKey = fromHex(vector.secretKey);
    const msg = fromHex(vector.message);
    expect(toHex(impl.getPublicKey(secretKey))).toBe(vector.publicKey);
    expect(toHex(impl.sign(msg, secretKey))).toBe(vector.signature);
    expect(impl.verify(fromHex(vector.signature), msg, fromHex(vector.publicKey))).toBe(true);
  });

  it('rejects every single-bit change of signature or message', () => {
    const vector = rfc8032.vectors[2]!;
    const signature = fromHex(vector.signature);
    const msg = fromHex(vector.message);
    const publicKey = fromHex(vector.publicKey);
    for (let bit = 0; bit < signature.length * 8; bit++) {
      const bad = signature.slice();
      bad[bit >> 3]! ^= 1 << (bit & 7);
      expect(impl.verify(bad, msg, publicKey), `signature bit ${bit}`).toBe(false);
    }
    for (let bit = 0; bit < msg.length * 8; bit++) {
      const bad = msg.slice();
      bad[bit >> 3]! ^= 1 << (bit & 7);
      expect(impl.verify(signature, bad, publicKey), `message bit ${bit}`).toBe(false);
    }
    expect(impl.verify(signature, msg, fromHex(rfc8032.vectors[0]!.publicKey))).toBe(false);
  });

  it('returns false, never throws, for signatures and keys of the wrong length or not on the curve', () => {
    const vector = rfc8032.vectors[1]!;
    const msg = fromHex(vector.message);
    const signature = fromHex(vector.signature);
    const publicKey = fromHex(vector.publicKey);
    for (const length of [0, 1, 63, 65, 128]) {
      expect(impl.verify(new Uint8Array(length), msg, publicKey)).toBe(false);
      expect(impl.verify(signature, msg, new Uint8Array(length === 128 ? 33 : length))).toBe(false);
    }
    // y = 2 is not the y of any curve point.
    const offCurve = new Uint8Array(32);
    offCurve[0] = 2;
    expect(impl.verify(signature, msg, offCurve)).toBe(false);
    // S ≥ L: the top bit of S set.
    const unreduced = signature.slice();
    unreduced[63]! |= 0x80;
    expect(impl.verify(unreduced, msg, publicKey)).toBe(false);
  });

  it('throws CryptoInputError naming the argument for bad secret keys and non-byte arguments', () => {
    const bad = (fn: () => unknown, argument: string) => {
      let caught: unknown;
      try {
        fn();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CryptoInputError);
      expect((caught as CryptoInputError).argument).toBe(argument);
      expect((caught as Error).message.startsWith(`${argument}:`)).toBe(true);
    };
    bad(() => impl.getPublicKey(new Uint8Array(31)), 'secretKey');
    bad(() => impl.getPublicKey(new Uint8Array(64)), 'secretKey');
    bad(() => impl.sign(new Uint8Array(1), new Uint8Array(33)), 'secretKey');
    bad(() => impl.sign(new Uint8Array(1), 'ab'.repeat(32) as unknown as Uint8Array), 'secretKey');
    bad(() => impl.sign('hello' as unknown as Uint8Array, new Uint8Array(32)), 'message');
    bad(() => impl.verify('00' as unknown as Uint8Array, new Uint8Array(1), new Uint8Array(32)), 'signature');
    bad(() => impl.verify(new Uint8Array(64), [1] as unknown as Uint8Array, new Uint8Array(32)), 'message');
    bad(() => impl.verify(new Uint8Array(64), new Uint8Array(1), null as unknown as Uint8Array), 'publicKey');
  });

  it('signs with the key as it is now, even when the caller reuses the array', () => {
    const keys = rfc8032.vectors.map((v) => fromHex(v.secretKey));
    const reused = keys[0]!.slice();
    const msg = new Uint8Array([7]);
    for (const key of [...keys, ...keys.slice().reverse(), ...Array.from({ length: 10 }, (_, i) => new Uint8Array(32).fill(i))]) {
      reused.set(key);
      expect(toHex(impl.sign(msg, reused))).toBe(toHex(portableEd25519.sign(msg, key)));
      expect(toHex(impl.getPublicKey(reused))).toBe(toHex(portableEd25519.getPublicKey(key)));
    }
  });

  it('returns fresh arrays the caller may keep', () => {
    const secretKey = fromHex(rfc8032.vectors[0]!.secretKey);
    const a = impl.sign(new Uint8Array([1]), secretKey);
    const b = impl.sign(new Uint8Array([1]), secretKey);
    a.fill(0);
    expect(toHex(b)).not.toBe(toHex(a));
    expect(Object.getPrototypeOf(impl.getPublicKey(secretKey))).toBe(Uint8Array.prototype);
    // A public key the caller changes is not the one the next call returns (the native one is cached).
    impl.getPublicKey(secretKey).fill(0);
    expect(toHex(impl.getPublicKey(secretKey))).toBe(rfc8032.vectors[0]!.publicKey);
  });
});

describe('native and portable agree', () => {
  it('have the same public key and signature for any seed and message, and verify each other', () => {
    fc.assert(
      fc.property(seed, message, (secretKey, msg) => {
        const publicKey = nativeEd25519.getPublicKey(secretKey);
        expect(toHex(portableEd25519.getPublicKey(secretKey))).toBe(toHex(publicKey));
        const nativeSignature = nativeEd25519.sign(msg, secretKey);
        const portableSignature = portableEd25519.sign(msg, secretKey);
        expect(toHex(portableSignature)).toBe(toHex(nativeSignature));
        expect(portableEd25519.verify(nativeSignature, msg, publicKey)).toBe(true);
        expect(nativeEd25519.verify(portableSignature, msg, publicKey)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('both refuse a signature once the message or the signature changes', () => {
    fc.assert(
      fc.property(
        seed,
        message.filter((m) => m.length > 0),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        (secretKey, msg, position, flip, inSignature) => {
          const publicKey = portableEd25519.getPublicKey(secretKey);
          const signature = nativeEd25519.sign(msg, secretKey);
          const badSignature = signature.slice();
          const badMessage = msg.slice();
          if (inSignature) badSignature[position % 64]! ^= flip;
          else badMessage[position % msg.length]! ^= flip;
          expect(nativeEd25519.verify(badSignature, badMessage, publicKey)).toBe(false);
          expect(portableEd25519.verify(badSignature, badMessage, publicKey)).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('give the same answer, without throwing, for arbitrary keys and signatures', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        message,
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (signature, msg, publicKey) => {
          expect(portableEd25519.verify(signature, msg, publicKey)).toBe(nativeEd25519.verify(signature, msg, publicKey));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('accept and refuse the same hostile encodings (small-order keys, non-canonical points, S ≥ L)', () => {
    // Crafted to sit on the edges where verifiers differ (cofactored or not, strict decoding or
    // not). `accepted` is what OpenSSL decides; the portable side must decide the same, or a
    // signature would be valid in Node and invalid in a browser.
    const validKey = '03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8';
    const validR = '856a2ed09cd799d8512e5cec83e272a53855915510251ef8df50e909184d175b';
    const identity = '01'.padEnd(64, '0');
    const zeroS = '0'.repeat(64);
    const cases = [
      { name: 'valid', key: validKey, msg: '65646765', sig: validR + 'da3ba883d9b4bfa51c148a4bb62388eea31a6afde72d70eaef6ef5719b31f800', accepted: true },
      { name: 'S + L', key: validKey, msg: '65646765', sig: validR + 'c70f9ee0f317d2fdf2b081ee941d6703a41a6afde72d70eaef6ef5719b31f810', accepted: false },
      { name: 'S = L', key: validKey, msg: '65646765', sig: validR + 'edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010', accepted: false },
      { name: 'identity A, identity R, S = 0', key: identity, msg: '65646765', sig: identity + zeroS, accepted: true },
      { name: 'non-canonical identity A', key: 'ee'.padEnd(62, 'f') + '7f', msg: '65646765', sig: identity + zeroS, accepted: true },
      { name: 'negative-zero identity A', key: '01'.padEnd(62, '0') + '80', msg: '65646765', sig: identity + zeroS, accepted: true },
      { name: 'non-canonical identity R', key: identity, msg: '65646765', sig: 'ee'.padEnd(62, 'f') + '7f' + zeroS, accepted: false },
      { name: 'order-8 A, k ≡ 0 mod 8', key: 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', msg: '6f72646572382d39', sig: identity + zeroS, accepted: true },
      { name: 'order-8 A, k ≢ 0 mod 8', key: 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', msg: '6f72646572382d30', sig: identity + zeroS, accepted: false },
      { name: 'mixed-order A, passes cofactorless', key: 'b502ff3d92e31d8190b4aa4ea0414005167fad089c4de9dac8a2fc850fed4f58', msg: '6d697865642d37', sig: 'e6e9a01845026e3e0e42e346573efad3c5e649c6dff74b31b5beafe5ac7a31c34eeaf43188bd878296f594434d4b879e99b1a3ddccb3255bd80f9ec5ee5f890a', accepted: true },
      { name: 'mixed-order A, passes only cofactored', key: 'b502ff3d92e31d8190b4aa4ea0414005167fad089c4de9dac8a2fc850fed4f58', msg: '6d697865642d30', sig: '7267124b92e356e28d92b859d92ba7dae52c746e31d6921dd4afc8d8593eea2f37644bd4fd7d3e9c9bc3ee8cfd1c16c3b02d9d68e2bf58652d0a2322e651c509', accepted: false },
      { name: 'A off the curve', key: '02'.padEnd(64, '0'), msg: '65646765', sig: validR + 'da3ba883d9b4bfa51c148a4bb62388eea31a6afde72d70eaef6ef5719b31f800', accepted: false },
      { name: 'A with y = p', key: 'ed'.padEnd(62, 'f') + '7f', msg: '65646765', sig: identity + zeroS, accepted: false },
    ];
    for (const c of cases) {
      const args = [fromHex(c.sig), fromHex(c.msg), fromHex(c.key)] as const;
      expect({ case: c.name, native: nativeEd25519.verify(...args) }).toEqual({ case: c.name, native: c.accepted });
      expect({ case: c.name, portable: portableEd25519.verify(...args) }).toEqual({ case: c.name, portable: c.accepted });
    }
  });
});

describe('default ed25519', () => {
  it('is the native implementation under Node', () => {
    expect(ed25519).toBe(nativeEd25519);
    expect(ed25519.available).toBe(true);
  });

  it('generates distinct 32-byte seeds that sign and verify', () => {
    const a = generateSecretKey();
    const b = generateSecretKey();
    expect(a).toHaveLength(32);
    expect(toHex(a)).not.toBe(toHex(b));
    const msg = new TextEncoder().encode('vigil');
    const signature = sign(msg, a);
    expect(verify(signature, msg, getPublicKey(a))).toBe(true);
    expect(verify(signature, msg, getPublicKey(b))).toBe(false);
  });
});
