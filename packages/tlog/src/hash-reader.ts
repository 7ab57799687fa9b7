import { callReader, TlogError } from './errors.js';
import { isHash, type Hash } from './hash.js';

/**
 * Reads stored hashes by stored-hash index (see storedHashIndex). Asynchronous so the server can
 * back it with a database table and a browser with fetched tiles. Must return exactly one hash per
 * index, in the order asked.
 */
export interface HashReader {
  readHashes(indexes: readonly number[]): Promise<Hash[]>;
}

/** A HashReader over an in-memory array indexed by stored-hash index (tests, small tools). */
export function arrayHashReader(stored: readonly Hash[]): HashReader {
  return {
    readHashes(indexes) {
      return Promise.resolve(
        indexes.map((index) => {
          const hash = stored[index];
          if (hash === undefined) throw new TlogError('hash_reader', `no stored hash at index ${index}`);
          return hash;
        }),
      );
    },
  };
}

export async function readExactly(reader: HashReader, indexes: readonly number[]): Promise<Hash[]> {
  if (indexes.length === 0) return [];
  const hashes = await callReader('readHashes', () => reader.readHashes(indexes));
  if (!Array.isArray(hashes)) throw new TlogError('hash_reader', 'readHashes did not return an array');
  if (hashes.length !== indexes.length) {
    throw new TlogError('hash_reader', `readHashes(${indexes.length} indexes) returned ${hashes.length} hashes`);
  }
  // A reader's wrong-sized hash would otherwise come back inside a proof or a tile.
  hashes.forEach((hash, i) => {
    if (!isHash(hash)) throw new TlogError('hash_reader', `readHashes returned a hash that is not 32 bytes for index ${indexes[i]}`);
  });
  return hashes;
}
