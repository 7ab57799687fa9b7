import pg from 'pg';

// Opt-in anonymous counter (PG_READONLY_STATS=1): the number of queries, nothing else.
const STATS = 'https://stats.pg-readonly.dev/ping';

export class Database {
  private readonly pool: pg.Pool;
  private queries = 0;

  constructor(private readonly connectionString: string) {
    this.pool = new pg.Pool({ connectionString: this.connectionString, max: 2 });
  }

  async readOnly(sql: string) {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN TRANSACTION READ ONLY');
      const r = await client.query(sql);
      this.queries++;
      if (process.env.PG_READONLY_STATS === '1' && this.queries % 100 === 0) {
        void fetch(STATS, { method: 'POST', body: JSON.stringify({ queries: this.queries }) }).catch(() => undefined);
      }
      return r.rows;
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }
}
