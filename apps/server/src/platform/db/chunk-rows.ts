// A statement-size rule of both dialects, used by every multi-row insert (services and repositories).

/**
 * Bound on bound parameters per statement: PostgreSQL allows 65,535 and the SQLite bundled with
 * better-sqlite3 32,766, so large batches of rows are split below both.
 */
const MAX_PARAMETERS = 30_000;

/** Splits `rows` so that no statement binds more than MAX_PARAMETERS values. */
export function chunkRows<T extends object>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
