import { contentHash } from '@vigil/core';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { registerArtifact } from '../features/artifacts/register-artifact.js';
import { APPLICATION_TABLES } from '../platform/db/schema.js';
import { describeEachDialect } from './databases.js';
import { T0, newKey, seedRound } from './fixtures.js';

// The tests of this file run in the order written: each even one reads what the hook between left
// of the one before (on PostgreSQL one schema serves the whole file and is emptied before each test;
// on SQLite each test has a database of its own).
describeEachDialect('each test starts on an empty database', ({ db, dialect }) => {
  const artifact = (sourceId: string) =>
    registerArtifact(db(), { track: 'skills', label: 'empty-check', sourceId, contentHash: contentHash(sourceId), kind: 'live', now: T0 });

  const rowsByTable = async (): Promise<Record<string, number>> => {
    const counts: Record<string, number> = {};
    for (const table of APPLICATION_TABLES) {
      const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db());
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) counts[table] = n;
    }
    return counts;
  };

  // The tables the first test wrote to (a migration's own rows, such as search_index_state's on
  // SQLite, are not the previous test's).
  let written: string[] = [];
  const leftOf = async (tables: readonly string[]) => Object.fromEntries(Object.entries(await rowsByTable()).filter(([t]) => tables.includes(t)));

  it('a test writes rows into tables that reference each other, and advances their sequences', async () => {
    const before = await rowsByTable();
    await seedRound(db(), { now: T0, miners: [newKey(), newKey()], validators: [newKey()], artifacts: [{ label: 'a', sourceId: '1', kind: 'live' }, { label: 'a', sourceId: '2', kind: 'labeled' }] });
    for (let i = 0; i < 3; i++) await artifact(`advance-${i}`);
    const after = await rowsByTable();
    written = Object.keys(after).filter((t) => after[t]! > (before[t] ?? 0));
    expect(written).toEqual(expect.arrayContaining(['artifacts', 'miners', 'validators', 'agents', 'rounds', 'tasks']));
  });

  it('the next test finds every table empty, and a new row takes the first id again', async () => {
    expect(await leftOf(written)).toEqual({});
    expect((await artifact('first')).id).toBe(1);
  });

  it('a table the test made itself, whose rows reference the artifacts, is emptied with them', async () => {
    const row = await artifact('referenced');
    if (dialect === 'postgres') {
      await sql`CREATE TABLE test_own_references (artifact_id integer NOT NULL REFERENCES artifacts (id))`.execute(db());
      await sql`INSERT INTO test_own_references (artifact_id) VALUES (${row.id})`.execute(db());
    }
  });

  it('the next test finds that table empty too (the deletes are refused; everything is truncated instead)', async () => {
    expect(await leftOf([...written, 'artifacts'])).toEqual({});
    if (dialect === 'postgres') {
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM test_own_references`.execute(db());
      expect(Number(rows[0]!.n)).toBe(0);
    }
    expect((await artifact('again')).id).toBe(1);
  });
});
