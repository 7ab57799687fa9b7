import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuditLogTable, Database } from './db/schema.js';

/** Who acted: the operator's command line, or an admin key (with the address it called from). */
export interface AuditActor {
  /** `operator`, or `key:<key id>`. */
  name: string;
  sourceIp: string | null;
}

export const OPERATOR: AuditActor = { name: 'operator', sourceIp: null };

let sequence = 0;

/**
 * Sorts like the order of the actions: the time, then this process's sequence (two actions in one
 * millisecond keep their order), then randomness so two instances never collide.
 */
function entryId(at: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${String(at).padStart(15, '0')}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
}

/**
 * Appends one entry to the audit log. Call it with the transaction that makes the change, so an
 * entry exists exactly when the change committed. `detail` must never hold a secret.
 */
export async function recordAudit(
  trx: Kysely<Database>,
  actor: AuditActor,
  entry: { action: string; target: string; detail: Record<string, unknown>; at: number },
): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      entry_id: entryId(entry.at),
      at: entry.at,
      actor: actor.name,
      source_ip: actor.sourceIp,
      action: entry.action,
      target: entry.target,
      detail: JSON.stringify(entry.detail),
    })
    .execute();
}

/** One page of entries, newest first, plus one more row when a next page exists. */
export async function readAuditLogPage(db: Kysely<Database>, page: { page: number; size: number }): Promise<AuditLogTable[]> {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('entry_id', 'desc')
    .limit(page.size + 1)
    .offset((page.page - 1) * page.size)
    .execute();
}
