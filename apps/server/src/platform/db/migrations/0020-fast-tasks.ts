import { sql, type Kysely, type Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Fast tasks (docs/rounds.md, "Verdicts between rounds"): tasks made for the incumbents of a closed
 * round when an artifact is stored between rounds. They sit in the incumbents' round like its other
 * tasks and differ only by this flag, which the server reads (claims, scoring and threat intel) and
 * never sends. Every existing task is a round task.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('fast', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Claims look for the fast tasks of a round; they are few next to its round tasks.
  await db.schema.createIndex('tasks_fast_idx').on('tasks').column('round_id').where(sql.ref('fast'), '=', 1).execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('tasks_fast_idx').execute();
  await db.schema.alterTable('tasks').dropColumn('fast').execute();
}

export const fastTasksMigration: Migration = { up, down };
