import { fromHex } from '@vigil/crypto';
import { ENTRIES_LEVEL, formatVerifierKey, parseVerifierKey, type Tile } from '@vigil/tlog';

/** Where the key a run verifies the log with came from (`log_key_source` in `log monitor` and `log audit`). */
export type LogKeySource = 'pinned' | 'state' | 'server-identity';

/** The log a run is about, the state an earlier run kept for it, and where its key comes from. */
export interface ChosenLog<S> {
  claimedOrigin: string;
  previous: S | undefined;
  keySource: LogKeySource;
}

/**
 * A pinned key names the log (its name is the origin); otherwise the checkpoint's own first line,
 * unauthenticated, finds the state, whose key then decides. Shared by `log monitor` and `log audit`
 * so that both trust the same key for the same inputs.
 */
export function chooseLog<S>(note: string, pinnedKey: string | undefined, previousOf: (origin: string) => S | undefined): ChosenLog<S> {
  const claimedOrigin = pinnedKey !== undefined ? parseVerifierKey(pinnedKey).name : (note.split('\n', 1)[0] ?? '');
  const previous = previousOf(claimedOrigin);
  const keySource: LogKeySource = pinnedKey !== undefined ? 'pinned' : previous !== undefined ? 'state' : 'server-identity';
  return { claimedOrigin, previous, keySource };
}

/**
 * The verifier key: the pinned one, else the state's, else the server identity's key under the
 * checkpoint's origin (trust on first use). Null when that origin is not a valid key name.
 */
export async function resolveLogKey(
  chosen: ChosenLog<{ log_key: string }>,
  pinnedKey: string | undefined,
  serverHotkey: () => Promise<string>,
): Promise<string | null> {
  const known = pinnedKey ?? chosen.previous?.log_key;
  if (known !== undefined) return known;
  try {
    return formatVerifierKey(chosen.claimedOrigin, fromHex(await serverHotkey()));
  } catch {
    return null;
  }
}

/** The reason given when the checkpoint's origin cannot name a derived key. */
export const badOriginReason = (claimedOrigin: string) => `the checkpoint's origin ${JSON.stringify(claimedOrigin)} is not a valid key name`;

/** Entries per full entry bundle (C2SP tlog-tiles). */
export const TILE_WIDTH = 256;

/** The entry bundles (tile/entries/…) that hold entries [from, to) of a tree of `size` entries. */
export function entryBundleTiles(from: number, to: number, size: number): Tile[] {
  const tiles: Tile[] = [];
  for (let n = Math.floor(from / TILE_WIDTH); n * TILE_WIDTH < to; n++) {
    tiles.push({ level: ENTRIES_LEVEL, n, width: Math.min(TILE_WIDTH, size - n * TILE_WIDTH) });
  }
  return tiles;
}
