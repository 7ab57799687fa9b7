// @vigil/tlog: RFC 6962 Merkle trees and the C2SP transparency-log formats (tlog-tiles,
// signed-note, tlog-checkpoint, tlog-cosignature, tlog-proof), for Node and browsers.
export { TlogError } from './errors.js';
export type { TlogErrorCode } from './errors.js';
export { HASH_SIZE, EMPTY_TREE_HASH, leafHash, nodeHash, hashesEqual, formatHash, parseHash } from './hash.js';
export type { Hash } from './hash.js';
export { arrayHashReader } from './hash-reader.js';
export type { HashReader } from './hash-reader.js';
export { storedHashIndex, splitStoredHashIndex, storedHashCount, storedHashes, storedHashesForLeafHash } from './stored-hash-index.js';
export { treeHash, rootFromLeafHashes } from './tree-hash.js';
export { proveInclusion, verifyInclusion } from './inclusion-proof.js';
export type { InclusionProof } from './inclusion-proof.js';
export { proveConsistency, verifyConsistency } from './consistency-proof.js';
export type { ConsistencyProof } from './consistency-proof.js';
export { TILE_HEIGHT, ENTRIES_LEVEL, MAX_NEW_TILES, tileForIndex, tileHash, hashFromTile, newTiles, readTileData, tilePath, parseTilePath } from './tile.js';
export type { Tile } from './tile.js';
export { tileHashReader } from './tile-hash-reader.js';
export type { TileReader, TreeHead } from './tile-hash-reader.js';
export { MAX_ENTRY_SIZE, encodeEntryBundle, parseEntryBundle } from './entry-bundle.js';
export {
  SIGNATURE_TYPE_ED25519,
  SIGNATURE_TYPE_COSIGNATURE_V1,
  isValidKeyName,
  computeKeyId,
  formatKeyId,
  formatVerifierKey,
  parseVerifierKey,
  noteVerifier,
  noteSigner,
  parseSignerKey,
} from './note-keys.js';
export type { NoteSigner, NoteVerifier, ParsedVerifierKey } from './note-keys.js';
export { MAX_NOTE_SIGNATURES, MAX_NOTE_SIZE, openNote, signNote, isValidNoteText, UnverifiedNoteError } from './signed-note.js';
export type { Note, NoteSignature } from './signed-note.js';
export { formatCheckpoint, parseCheckpoint, signCheckpoint, openCheckpoint } from './checkpoint.js';
export type { Checkpoint, OpenedCheckpoint } from './checkpoint.js';
export { cosignatureMessage, cosignatureVerifier, cosigner, cosignatureTimestamp } from './cosignature.js';
export { TLOG_PROOF_HEADER, formatTlogProof, parseTlogProof, verifyTlogProof } from './tlog-proof.js';
export type { TlogProof, VerifyTlogProofOptions, VerifiedTlogProof } from './tlog-proof.js';
export { checkCheckpointUpdate } from './checkpoint-update.js';
export type { CheckpointUpdateInput, CheckpointUpdateVerdict } from './checkpoint-update.js';
