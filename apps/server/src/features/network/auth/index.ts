// Signed-request authentication of validators and miners (spec part 5 item 8, docs/protocol.md).
export {
  signedAuthPlugin,
  type SignedAuthPluginOptions,
  type SignedBy,
  type Signer,
} from './signed-auth-plugin.js';
export {
  createDatabaseReplayStore,
  createRedisReplayStore,
  REDIS_REPLAY_PREFIX,
  type DatabaseReplayStoreOptions,
  type ReplayStore,
} from './replay-store.js';
export {
  createMemorySignatureFailureStore,
  createRedisSignatureFailureStore,
  REDIS_SIGNATURE_FAILURE_PREFIX,
  SIGNATURE_FAILURE_WINDOW_MS,
  type SignatureFailureStore,
} from './signature-failure-store.js';
export {
  signedAuthSettingsFromEnv,
  SIGNED_AUTH_DEFAULTS,
  SIGNED_AUTH_VARIABLES,
  type SignedAuthSettings,
} from './signed-auth-settings.js';
export { isIpAllowed, normalizeIp } from './source-ip.js';
