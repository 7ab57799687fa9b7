import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import type { ImportCounts } from './advisory-import.js';

export interface AdvisoryStatus {
  /** Stored advisories, withdrawn ones included. */
  advisories: number;
  withdrawn: number;
  /** Distinct packages with at least one live advisory, per ecosystem. */
  packages: { npm: number; pypi: number };
  last_import: { source: string; started_at: number; finished_at: number; counts: ImportCounts } | null;
}

/** What is imported (docs/advisories.md, "What is imported"): counts, and the last import run. */
export async function advisoryStatus(db: Kysely<Database>): Promise<AdvisoryStatus> {
  const [totals, packages, last] = await Promise.all([
    db
      .selectFrom('advisories')
      .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('withdrawn').as('withdrawn')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('advisory_packages')
      .select((eb) => ['ecosystem', eb.fn.count<number>('package_key').distinct().as('n')])
      .groupBy('ecosystem')
      .execute(),
    db.selectFrom('advisory_imports').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst(),
  ]);
  const count = (ecosystem: string) => Number(packages.find((p) => p.ecosystem === ecosystem)?.n ?? 0);
  return {
    advisories: Number(totals.all),
    withdrawn: Number(totals.withdrawn),
    packages: { npm: count('npm'), pypi: count('pypi') },
    last_import:
      last === undefined
        ? null
        : { source: last.source, started_at: Number(last.started_at), finished_at: Number(last.finished_at), counts: JSON.parse(last.counts) as ImportCounts },
  };
}
