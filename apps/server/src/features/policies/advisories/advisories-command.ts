import type { Kysely } from 'kysely';
import { FeedSourceError, readFeedFiles } from './osv-files.js';
import type { Database } from '../../../platform/db/schema.js';
import { advisoryStatus } from './advisory-status.js';
import { importAdvisories, recordImportRun } from './advisory-import.js';

export const ADVISORIES_USAGE = 'advisories import <directory|zip> | advisories status';

export class AdvisoriesCommandError extends Error {
  override name = 'AdvisoriesCommandError';
  /** True when the arguments themselves are wrong (print the usage, exit 2). */
  constructor(message: string, readonly usage = false) {
    super(message);
  }
}

export interface CommandOutput {
  lines: string[];
  /** 0, or 1 when nothing could be read from the source. */
  exitCode: number;
}

/**
 * `vigil-server advisories import <dir|zip>` (docs/advisories.md): imports an OSV feed and prints
 * what it did with every file; `advisories status`: what is imported.
 */
export async function runAdvisoriesCommand(db: Kysely<Database>, args: readonly string[], now: () => number): Promise<CommandOutput> {
  const [action, ...rest] = args;
  if (action === 'status' && rest.length === 0) {
    const status = await advisoryStatus(db);
    const lines = [
      `advisories: ${status.advisories} (${status.withdrawn} withdrawn), npm packages: ${status.packages.npm}, PyPI packages: ${status.packages.pypi}`,
      status.last_import === null
        ? 'no import yet'
        : `last import: ${status.last_import.source}, finished ${new Date(status.last_import.finished_at).toISOString()}: ${JSON.stringify(status.last_import.counts)}`,
    ];
    return { lines, exitCode: 0 };
  }
  if (action !== 'import' || rest.length !== 1) throw new AdvisoriesCommandError(`expected ${ADVISORIES_USAGE}`, true);
  const source = rest[0]!;
  const startedAt = now();
  let result;
  try {
    result = await importAdvisories(db, readFeedFiles(source), now);
  } catch (error) {
    if (error instanceof FeedSourceError) throw new AdvisoriesCommandError(error.message);
    throw error;
  }
  const { counts } = result;
  await recordImportRun(db, { source, startedAt, finishedAt: now(), counts });
  const lines = [
    `read ${counts.read} OSV record(s) from ${counts.files} .json file(s) in ${source}`,
    `imported ${counts.imported}, updated ${counts.updated} (withdrawn among them: ${counts.withdrawn})`,
    `skipped ${counts.unchanged + counts.older + counts.other_ecosystems + counts.invalid}: ${counts.unchanged} already stored with the same modified time, ${counts.older} older than the stored version, ${counts.other_ecosystems} with no npm or PyPI package, ${counts.invalid} invalid`,
    ...result.invalid_files.map((f) => `invalid: ${f.file}: ${f.reason}`),
  ];
  if (counts.read === 0) lines.push(counts.files === 0 ? `no .json file found in ${source}` : 'no file could be read as an OSV record');
  return { lines, exitCode: counts.read === 0 ? 1 : 0 };
}
