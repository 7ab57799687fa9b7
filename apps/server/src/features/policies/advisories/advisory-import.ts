import type { Insertable, Kysely } from 'kysely';
import { fixedVersions, storedAffected, type StoredAffected } from './affected-versions.js';
import type { FeedFile } from './osv-files.js';
import { OsvRecord } from './osv-record.js';
import { ecosystemOfOsv, normalizePackageName, packageKey, type AdvisoryEcosystem } from './package-names.js';
import { severityOf } from './severity.js';
import { chunkRows } from '../../../platform/db/chunk-rows.js';
import { inTextList } from '../../../platform/db/dialect.js';
import type { AdvisoriesTable, AdvisoryPackagesTable, Database } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';

/** Records written per transaction: each batch is a handful of statements, whatever the feed's size. */
const BATCH = 500;
/** A summary longer than this is cut (OSV recommends at most 120 characters). */
const MAX_SUMMARY_CHARS = 500;

export interface ImportCounts {
  /** `.json` files found in the source. */
  files: number;
  /** Files that held a valid OSV record. */
  read: number;
  /** Records stored for the first time. */
  imported: number;
  /** Records that replaced an older stored version (a newer `modified`). */
  updated: number;
  /** Records already stored with the same `modified`: nothing to do. */
  unchanged: number;
  /** Records older than the stored version of the same id: the stored one is kept. */
  older: number;
  /** Of the imported and updated records, those that are withdrawn (kept, matched against nothing). */
  withdrawn: number;
  /** Valid records with no npm or PyPI package: not stored. */
  other_ecosystems: number;
  /** Files that could not be read as an OSV record (each one is listed in `invalid_files`). */
  invalid: number;
}

export interface ImportResult {
  counts: ImportCounts;
  /** Each file that was not a valid OSV record, and why. */
  invalid_files: { file: string; reason: string }[];
}

interface Prepared {
  row: Insertable<AdvisoriesTable>;
  packages: Insertable<AdvisoryPackagesTable>[];
}

function zodReason(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join('.');
  return `${path === '' ? 'record' : path}: ${issue.message}`;
}

function summaryOf(record: OsvRecord): string {
  const text = record.summary?.trim() || record.details?.trim().split('\n')[0]?.trim() || '';
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS - 1)}…` : text;
}

/** The rows of one valid record; undefined when it names no npm or PyPI package. */
function prepare(record: OsvRecord, file: string, now: number): Prepared | undefined {
  const entries: { position: number; ecosystem: AdvisoryEcosystem; name: string; affected: StoredAffected; severity: AdvisoryPackagesTable['severity'] }[] = [];
  (record.affected ?? []).forEach((entry, position) => {
    const ecosystem = ecosystemOfOsv(entry.package.ecosystem);
    if (ecosystem === undefined) return;
    entries.push({ position, ecosystem, name: normalizePackageName(ecosystem, entry.package.name), affected: storedAffected(entry), severity: severityOf(record, entry.severity) });
  });
  if (entries.length === 0) return undefined;
  const row: Insertable<AdvisoriesTable> = {
    id: record.id,
    modified: record.modified,
    published: record.published ?? null,
    withdrawn: record.withdrawn ?? null,
    summary: summaryOf(record),
    aliases: JSON.stringify(record.aliases ?? []),
    source_file: file,
    imported_at: now,
    updated_at: now,
  };
  // A withdrawn advisory matches nothing: its row stays (so an older copy cannot come back), its packages go.
  const packages =
    record.withdrawn !== undefined
      ? []
      : entries.map((e) => ({
          advisory_id: record.id,
          position: e.position,
          ecosystem: e.ecosystem,
          name: e.name,
          package_key: packageKey(e.ecosystem, e.name),
          severity: e.severity,
          affected: JSON.stringify(e.affected),
          // Every fix the advisory names for the package, across its entries (one per branch, often).
          fixed_in: JSON.stringify(fixedVersions(e.ecosystem, entries.filter((o) => o.ecosystem === e.ecosystem && o.name === e.name).map((o) => o.affected))),
        }));
  return { row, packages };
}

/**
 * Imports OSV records (docs/advisories.md, "Import"): upserts by id, a record replacing the stored
 * one only when its `modified` is newer; a withdrawn record keeps its row and stops matching. Files
 * that are not valid records are counted and listed, never silently dropped. Idempotent: the same
 * feed imported twice changes nothing the second time.
 */
export async function importAdvisories(db: Kysely<Database>, files: AsyncIterable<FeedFile>, now: () => number): Promise<ImportResult> {
  const counts: ImportCounts = { files: 0, read: 0, imported: 0, updated: 0, unchanged: 0, older: 0, withdrawn: 0, other_ecosystems: 0, invalid: 0 };
  const invalid: ImportResult['invalid_files'] = [];
  let batch = new Map<string, Prepared>();

  const flush = async () => {
    if (batch.size === 0) return;
    const pending = batch;
    batch = new Map();
    await inTransaction(db, async (trx) => {
      const stored = await trx.selectFrom('advisories').select(['id', 'modified']).where(inTextList(trx, 'id', [...pending.keys()])).execute();
      const storedModified = new Map(stored.map((s) => [s.id, Number(s.modified)]));
      const inserts: Prepared[] = [];
      const replaces: Prepared[] = [];
      for (const prepared of pending.values()) {
        const current = storedModified.get(prepared.row.id);
        if (current === undefined) {
          inserts.push(prepared);
          counts.imported += 1;
        } else if (prepared.row.modified > current) {
          replaces.push(prepared);
          counts.updated += 1;
        } else {
          counts[prepared.row.modified === current ? 'unchanged' : 'older'] += 1;
          continue;
        }
        if (prepared.row.withdrawn !== null) counts.withdrawn += 1;
      }
      if (replaces.length > 0) {
        const ids = replaces.map((p) => p.row.id);
        await trx.deleteFrom('advisory_packages').where(inTextList(trx, 'advisory_id', ids)).execute();
        for (const prepared of replaces) {
          const { id, imported_at: _keepFirstImport, ...changes } = prepared.row;
          await trx.updateTable('advisories').set(changes).where('id', '=', id).execute();
        }
      }
      for (const chunk of chunkRows(inserts.map((p) => p.row), 9)) await trx.insertInto('advisories').values(chunk).execute();
      const packages = [...inserts, ...replaces].flatMap((p) => p.packages);
      for (const chunk of chunkRows(packages, 9)) await trx.insertInto('advisory_packages').values(chunk).execute();
    });
  };

  for await (const file of files) {
    counts.files += 1;
    if ('error' in file) {
      counts.invalid += 1;
      invalid.push({ file: file.name, reason: file.error });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(file.text.replace(/^\uFEFF/, ''));
    } catch (error) {
      counts.invalid += 1;
      invalid.push({ file: file.name, reason: `not JSON (${(error as Error).message})` });
      continue;
    }
    const parsed = OsvRecord.safeParse(json);
    if (!parsed.success) {
      counts.invalid += 1;
      invalid.push({ file: file.name, reason: zodReason(parsed.error) });
      continue;
    }
    counts.read += 1;
    const prepared = prepare(parsed.data, file.name, now());
    if (prepared === undefined) {
      counts.other_ecosystems += 1;
      continue;
    }
    // The same id twice in one feed: the newer copy is the one that counts, as across imports.
    const earlier = batch.get(prepared.row.id);
    if (earlier !== undefined) {
      // The copy that loses is counted as an older (or the same) version; the winner is counted when stored.
      counts[prepared.row.modified === earlier.row.modified ? 'unchanged' : 'older'] += 1;
      if (prepared.row.modified <= earlier.row.modified) continue;
    }
    batch.set(prepared.row.id, prepared);
    if (batch.size >= BATCH) await flush();
  }
  await flush();
  return { counts, invalid_files: invalid };
}

/** Records a finished import run, for the admin view (docs/advisories.md, "What is imported"). */
export async function recordImportRun(db: Kysely<Database>, run: { source: string; startedAt: number; finishedAt: number; counts: ImportCounts }): Promise<void> {
  await db
    .insertInto('advisory_imports')
    .values({ source: run.source, started_at: run.startedAt, finished_at: run.finishedAt, counts: JSON.stringify(run.counts) })
    .execute();
}
