// @vigil/crypto: ed25519, ss58, attestations, signed requests and API keys.
export { CryptoInputError, Ss58Error, HotkeyMismatchError, ApiKeyFormatError } from './errors.js';
export type { Ss58ErrorReason } from './errors.js';
export { toHex, fromHex, secretKeyFromHex, constantTimeEqual } from './bytes.js';
export type { Ed25519 } from './ed25519-contract.js';
export { ed25519, generateSecretKey, getPublicKey, sign, verify } from './ed25519.js';
export { portableEd25519 } from './ed25519-portable.js';
export { nativeEd25519 } from '#ed25519-native';
export { SS58_DEFAULT_PREFIX, ss58Encode, ss58Decode, ss58DecodeWithPrefix, isValidHotkey } from './ss58.js';
export type { Ss58DecodeOptions } from './ss58.js';
export { createAttestationVerifier, signAttestation, verifyAttestation } from './attestation.js';
export type { AttestationChecks, AttestationVerification, AttestationVerifier } from './attestation.js';
export {
  attestationDsseEnvelope,
  signAttestationStatement,
  signAttestationSubmission,
  verifyAttestationDsse,
  MAX_DSSE_SIGNATURES,
  verifyAttestationStatementSignature,
} from './attestation-dsse.js';
export type { AttestationDsseVerification } from './attestation-dsse.js';
export {
  API_KEY_PREFIX,
  generateApiKey,
  parseApiKey,
  hashApiKeySecret,
  verifyApiKeySecret,
} from './api-key.js';
export type { ApiKeyParts, GeneratedApiKey } from './api-key.js';
export {
  SIGNED_REQUEST_DOMAIN,
  SIGNED_REQUEST_WINDOW_SECONDS,
  buildSignedRequestMessage,
  signRequest,
  signedRequestHeaders,
  verifySignedRequest,
  checkFreshness,
} from './signed-request.js';
export type {
  RequestBody,
  SignedRequestInput,
  SignRequestInput,
  SignedRequestSignature,
  VerifySignedRequestInput,
} from './signed-request.js';
