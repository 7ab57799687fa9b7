import type { Ed25519 } from './ed25519-contract.js';

function unavailable(): never {
  throw new Error(
    'nativeEd25519: node:crypto is not available in this runtime; use portableEd25519 or the default sign/verify',
  );
}

/**
 * What `#ed25519-native` resolves to outside Node: bundles for browsers and edge runtimes keep
 * the `nativeEd25519` export (so one import list works everywhere) without pulling in node:crypto.
 */
export const nativeEd25519: Ed25519 = Object.freeze({
  name: 'native' as const,
  available: false,
  getPublicKey: unavailable,
  sign: unavailable,
  verify: unavailable,
});
