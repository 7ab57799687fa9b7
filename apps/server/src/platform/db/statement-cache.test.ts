import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { cachingStatements, MAX_CACHED_SQL_LENGTH } from './statement-cache.js';

/** A real in-memory SQLite connection that counts how often SQL is compiled. */
function countingSqlite() {
  const sqlite = new BetterSqlite3(':memory:');
  const compiled: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((text: string) => {
    compiled.push(text);
    return prepare(text);
  }) as typeof sqlite.prepare;
  return { sqlite, compiled };
}

const open: BetterSqlite3.Database[] = [];
afterEach(() => {
  for (const s of open.splice(0)) if (s.open) s.close();
});

describe('cachingStatements', () => {
  it('compiles a query once and reuses it, through Kysely, with each call’s own parameters', async () => {
    const { sqlite, compiled } = countingSqlite();
    open.push(sqlite);
    const db = new Kysely<{ t: { id: Generated<number>; name: string } }>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
    await sql`create table t (id integer primary key, name text not null)`.execute(db);
    for (const name of ['a', 'b', 'c']) await db.insertInto('t').values({ name }).execute();
    const names = [];
    for (const id of [1, 2, 3]) names.push((await db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name);
    expect(names).toEqual(['a', 'b', 'c']);
    // One compile each for the create, the insert and the select: the second and third calls reused them.
    expect(compiled.filter((s) => s.startsWith('insert'))).toHaveLength(1);
    expect(compiled.filter((s) => s.startsWith('select'))).toHaveLength(1);
    await db.destroy();
    expect(sqlite.open).toBe(false);
  });

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const { sqlite, compiled } = countingSqlite();
    open.push(sqlite);
    const cache = cachingStatements(sqlite, 2);
    cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 1'); // now the most recent: `select 2` is the one to go
    cache.prepare('select 3');
    cache.prepare('select 1');
    expect(compiled).toEqual(['select 1', 'select 2', 'select 3']);
    cache.prepare('select 2');
    expect(compiled).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
  });

  it('never keeps a long text (a batch insert, a long IN list): it is compiled each time and evicts nothing', () => {
    const { sqlite, compiled } = countingSqlite();
    open.push(sqlite);
    const cache = cachingStatements(sqlite, 1);
    const long = `select 1 where 0 in (${Array.from({ length: MAX_CACHED_SQL_LENGTH / 2 }, (_, i) => `${i}`).join(',')})`;
    expect(long.length).toBeGreaterThan(MAX_CACHED_SQL_LENGTH);
    cache.prepare('select 1');
    cache.prepare(long);
    cache.prepare(long);
    cache.prepare('select 1');
    expect(compiled).toEqual(['select 1', long, long]);
  });

  it('hands out a fresh statement while the kept one is still being iterated', () => {
    const { sqlite } = countingSqlite();
    open.push(sqlite);
    sqlite.exec('create table n (v integer); insert into n values (1), (2), (3)');
    const cache = cachingStatements(sqlite);
    const text = 'select v from n where v >= ? order by v';
    const outer = cache.prepare(text).iterate([1]);
    const first = outer.next();
    expect(first.value).toEqual({ v: 1 });
    // The same text again, mid-iteration: without a fresh statement better-sqlite3 throws "busy".
    expect(cache.prepare(text).all([2])).toEqual([{ v: 2 }, { v: 3 }]);
    expect([...outer]).toEqual([{ v: 2 }, { v: 3 }]);
    expect(cache.prepare(text).all([3])).toEqual([{ v: 3 }]);
  });

  it('a kept statement reads the table as it is after a migration changed it', () => {
    const { sqlite } = countingSqlite();
    open.push(sqlite);
    sqlite.exec("create table m (a integer); insert into m values (1)");
    const cache = cachingStatements(sqlite);
    expect(cache.prepare('select * from m').all([])).toEqual([{ a: 1 }]);
    sqlite.exec("alter table m add column b text not null default 'x'");
    expect(cache.prepare('select * from m').all([])).toEqual([{ a: 1, b: 'x' }]);
  });
});
