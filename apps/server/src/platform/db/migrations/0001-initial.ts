import { sql, type Kysely, type Migration } from 'kysely';
import { addIdColumn } from '../dialect.js';

// Migrations describe the schema as it was at the time they were written, so they use Kysely<any>
// rather than the current Database interface.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('miners')
    .addColumn('hotkey', 'text', (c) => c.notNull())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('miners_pk', ['hotkey', 'track'])
    .execute();

  await db.schema
    .createTable('agents')
    .addColumn('hotkey', 'text', (c) => c.notNull())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('agents_pk', ['hotkey', 'track'])
    .execute();
  await db.schema.createIndex('agents_status_updated_idx').on('agents').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('agent_versions')
    .addColumn('hotkey', 'text', (c) => c.notNull())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_versions_pk', ['hotkey', 'track', 'version'])
    .addForeignKeyConstraint('agent_versions_agent_fk', ['hotkey', 'track'], 'agents', ['hotkey', 'track'])
    .execute();

  await db.schema
    .createTable('validators')
    .addColumn('hotkey', 'text', (c) => c.primaryKey())
    .addColumn('uid', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('allowed_ips', 'text', (c) => c.notNull())
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint')
    .execute();

  await db.schema
    .createTable('rounds')
    .addColumn('round_id', 'text', (c) => c.primaryKey())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('round_number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('policy_version', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'bigint', (c) => c.notNull())
    .addColumn('submission_closes_at', 'bigint', (c) => c.notNull())
    .addColumn('closes_at', 'bigint', (c) => c.notNull())
    .addColumn('evaluation_started_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .addColumn('next_round_opens_at', 'bigint')
    .addUniqueConstraint('rounds_track_number_uq', ['track', 'round_number'])
    .execute();
  await db.schema.createIndex('rounds_status_idx').on('rounds').columns(['status', 'track']).execute();
  await db.schema.createIndex('rounds_closed_idx').on('rounds').columns(['closed_at']).execute();

  await db.schema
    .createTable('round_agents')
    .addColumn('round_id', 'text', (c) => c.notNull().references('rounds.round_id'))
    .addColumn('hotkey', 'text', (c) => c.notNull())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('frozen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('round_agents_pk', ['round_id', 'hotkey'])
    .execute();
  await db.schema.createIndex('round_agents_hotkey_idx').on('round_agents').columns(['hotkey', 'track']).execute();

  await addIdColumn(db, db.schema.createTable('artifacts'))
    .addColumn('bundle_hash', 'text', (c) => c.notNull().unique())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ground_truth', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tasks')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('round_id', 'text', (c) => c.notNull().references('rounds.round_id'))
    .addColumn('hotkey', 'text', (c) => c.notNull())
    .addColumn('artifact_id', 'bigint', (c) => c.notNull().references('artifacts.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('tasks_round_miner_artifact_uq', ['round_id', 'hotkey', 'artifact_id'])
    .execute();

  await addIdColumn(db, db.schema.createTable('attestations'))
    .addColumn('canonical_hash', 'text', (c) => c.notNull().unique())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.task_id'))
    .addColumn('round_id', 'text', (c) => c.notNull())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('miner_hotkey', 'text', (c) => c.notNull())
    .addColumn('validator_hotkey', 'text', (c) => c.notNull().references('validators.hotkey'))
    .addColumn('artifact_id', 'bigint', (c) => c.notNull())
    .addColumn('agent_hash', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('risk_score', 'integer', (c) => c.notNull())
    .addColumn('findings', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addColumn('is_rerun', 'integer', (c) => c.notNull())
    .addUniqueConstraint('attestations_task_validator_uq', ['task_id', 'validator_hotkey'])
    .execute();
  await db.schema
    .createIndex('attestations_round_miner_idx')
    .on('attestations')
    .columns(['round_id', 'miner_hotkey', 'id'])
    .execute();

  await db.schema
    .createTable('validator_scores')
    .addColumn('round_id', 'text', (c) => c.notNull().references('rounds.round_id'))
    .addColumn('hotkey', 'text', (c) => c.notNull())
    .addColumn('validator_hotkey', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addColumn('labeled_tasks', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('validator_scores_pk', ['round_id', 'hotkey', 'validator_hotkey'])
    .execute();

  await db.schema
    .createTable('round_results')
    .addColumn('round_id', 'text', (c) => c.notNull().references('rounds.round_id'))
    .addColumn('hotkey', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision')
    .addColumn('validators', 'integer', (c) => c.notNull())
    .addColumn('rank', 'integer')
    .addColumn('winner', 'integer', (c) => c.notNull())
    .addColumn('attestations', 'integer', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addPrimaryKeyConstraint('round_results_pk', ['round_id', 'hotkey'])
    .execute();
  await db.schema.createIndex('round_results_hotkey_idx').on('round_results').columns(['hotkey']).execute();

  await db.schema
    .createTable('published_verdicts')
    .addColumn('artifact_id', 'bigint', (c) => c.primaryKey().references('artifacts.id'))
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('risk_score', 'integer', (c) => c.notNull())
    .addColumn('round_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await addIdColumn(db, db.schema.createTable('verdict_history'))
    .addColumn('artifact_id', 'bigint', (c) => c.notNull().references('artifacts.id'))
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('previous_verdict', 'text')
    .addColumn('risk_score', 'integer', (c) => c.notNull())
    .addColumn('round_id', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verdict_history_artifact_idx').on('verdict_history').columns(['artifact_id', 'id']).execute();

  // `seq` orders events as committed-in-order inserts; `id` is the event id deliveries carry.
  await addIdColumn(db, db.schema.createTable('outbox_events'), 'seq')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
  // Drainers read undelivered rows oldest first; the partial index stays as small as the backlog.
  await db.schema
    .createIndex('outbox_pending_idx')
    .on('outbox_events')
    .columns(['seq'])
    .where(sql.ref('delivered_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('stat_counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('attestation_hours')
    .addColumn('hour', 'bigint', (c) => c.primaryKey())
    .addColumn('attestations', 'bigint', (c) => c.notNull())
    .addColumn('first_attestations', 'bigint', (c) => c.notNull())
    .addColumn('reruns', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('trend_days')
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('attestations', 'bigint', (c) => c.notNull())
    .addColumn('scanned', 'bigint', (c) => c.notNull())
    .addColumn('flagged', 'bigint', (c) => c.notNull())
    .addColumn('blocked', 'bigint', (c) => c.notNull())
    .addColumn('warned', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('trend_days_pk', ['day', 'track'])
    .execute();

  await db.schema
    .createTable('artifact_days')
    .addColumn('artifact_id', 'bigint', (c) => c.notNull().references('artifacts.id'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('mask', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('artifact_days_pk', ['artifact_id', 'day'])
    .execute();

  await db.schema
    .createTable('artifact_signals')
    .addColumn('artifact_id', 'bigint', (c) => c.notNull().references('artifacts.id'))
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('last_day', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('artifact_signals_pk', ['artifact_id', 'metric', 'key'])
    .execute();

  await db.schema
    .createTable('trend_last_days')
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('artifacts', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('trend_last_days_pk', ['metric', 'key', 'day'])
    .execute();
  await db.schema.createIndex('trend_last_days_day_idx').on('trend_last_days').columns(['day', 'metric', 'key']).execute();
}

async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'trend_last_days',
    'artifact_signals',
    'artifact_days',
    'trend_days',
    'attestation_hours',
    'stat_counters',
    'outbox_events',
    'verdict_history',
    'published_verdicts',
    'round_results',
    'validator_scores',
    'attestations',
    'tasks',
    'artifacts',
    'round_agents',
    'rounds',
    'validators',
    'agent_versions',
    'agents',
    'miners',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

export const initialMigration: Migration = { up, down };
