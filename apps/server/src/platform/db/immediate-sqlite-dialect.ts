import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

/**
 * Kysely's SQLite driver begins transactions DEFERRED. Such a transaction that has read cannot
 * become a writer once another process committed meanwhile: SQLite answers SQLITE_BUSY at once,
 * without waiting out busy_timeout, so `serve` beside a `vigil-server keys create` or a second
 * worker on the same file failed requests with "database is locked". BEGIN IMMEDIATE takes the
 * write lock up front, and busy_timeout then makes the other side wait its turn. Within one process
 * nothing changes: Kysely already runs one transaction at a time on its single connection.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
