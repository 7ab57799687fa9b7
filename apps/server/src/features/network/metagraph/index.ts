// The metagraph as the server sees it: sources (file, live subtensor) and the cache permit checks use.
export { MetagraphError, type MetagraphErrorKind } from './metagraph-error.js';
export { validateMetagraphSnapshot, type MetagraphSource } from './metagraph-source.js';
export { lookupHotkey, type HotkeyLookup } from './lookup-hotkey.js';
export { FileMetagraphSource, type FileMetagraphSourceOptions } from './file-metagraph-source.js';
export {
  SubtensorMetagraphSource,
  SUBTENSOR_DEFAULTS,
  type SubtensorMetagraphSourceOptions,
} from './subtensor-metagraph-source.js';
export {
  CachedMetagraph,
  METAGRAPH_DEFAULTS,
  type CachedMetagraphOptions,
  type PermitCheck,
} from './cached-metagraph.js';
export { writeSnapshotFile, exportMetagraphSnapshot } from './write-snapshot-file.js';
export {
  METAGRAPH_VARIABLES,
  metagraphSettingsFromEnv,
  createMetagraphSource,
  createMetagraph,
  type MetagraphSettings,
} from './create-metagraph.js';
