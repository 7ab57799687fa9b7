import type { Kysely } from 'kysely';
import type { BlobStore } from '../../../platform/blobs/index.js';
import type { Database } from '../../../platform/db/schema.js';
import { backfillFacts } from './stored-package-facts.js';

export class FactsCommandError extends Error {
  override name = 'FactsCommandError';
  /** True when the arguments themselves are wrong (print the usage, exit 2). */
  constructor(message: string, readonly usage = false) {
    super(message);
  }
}

/** `vigil-server facts backfill` (docs/package-facts.md): the facts of every artifact that has none yet. */
export async function runFactsCommand(db: Kysely<Database>, blobs: BlobStore, args: readonly string[], now: () => number): Promise<string[]> {
  if (args.length !== 1 || args[0] !== 'backfill') throw new FactsCommandError('expected backfill', true);
  const result = await backfillFacts(db, blobs, now);
  return [
    `computed the facts of ${result.computed} artifact(s): ${result.packages} package archive(s), ${result.computed - result.packages} other`,
    ...(result.unavailable > 0 ? [`${result.unavailable} artifact(s) skipped: their bytes are not in the blob store`] : []),
  ];
}
