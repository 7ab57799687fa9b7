import type { Kysely } from 'kysely';
import type { BlobStore } from '../blobs/index.js';
import type { Database } from '../db/schema.js';

/** A command line that does not parse: `vigil-server` prints the usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What `vigil-server` gives a feature's command: the configuration, the database, the output. */
export interface CommandContext<Config> {
  /** The configuration from the environment, read on first call (a bad variable throws ConfigError, exit 1). */
  config(): Config;
  /** The configured database, migrated first, closed when `work` ends. */
  withMigratedDatabase<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /** The configured blob store, closed when `work` ends. */
  withBlobStore<T>(work: (blobs: BlobStore) => Promise<T>): Promise<T>;
  /** One line on stdout. */
  log(line: string): void;
  /** The exit status once the command returns (default 0). */
  setExitCode(code: number): void;
}

/**
 * A `vigil-server` command a feature owns (`keys`, `validators`, `search`, …). Features export a list
 * of these as `commands`; main.ts dispatches on `names`.
 */
export interface FeatureCommand<Config> {
  /** The first argument(s) it answers to (`keys` and `accounts` are one command). */
  names: readonly string[];
  /** Its error class, whose messages are printed after `vigil-server: <errorPrefix>: ` (exit 1). */
  error?: { type: new (...args: never[]) => Error; prefix: string };
  /** Runs it; a UsageError prints the usage and exits 2. */
  run(flags: string[], context: CommandContext<Config>, name: string): Promise<void>;
}

/**
 * Runs `work`, turning a command's own error (of `type`) marked `usage` into a UsageError naming the
 * command (`<name>: <message>`): the command line did not parse.
 */
export async function usageOf<T>(name: string, type: new (...args: never[]) => Error & { usage: boolean }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof type && error.usage) throw new UsageError(`${name}: ${error.message}`);
    throw error;
  }
}
