import { sql, type Kysely, type RawBuilder } from 'kysely';
import { ensureAttestationPartitions } from '../platform/db/attestation-partitions.js';
import { withDeferredIndexes } from './with-deferred-indexes.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Generates attestations inside PostgreSQL with generate_series, for the partitioning tests and
 * bench/aggregates-at-scale.mjs (docs/benchmarks.md, "Attestations at scale"): nothing crosses the
 * wire per row, so 10 million rows take minutes, not hours. PostgreSQL only.
 *
 * The shape follows the network's: four tracks, one round per track per week, 5 validators per
 * task (the first attestation of a task and 4 reruns), tasks spread over miners and artifacts, a
 * verdict mix of 80 % ALLOW, 12 % WARN and 8 % BLOCK (each flagged attestation with one finding),
 * signed payloads of realistic length, and receive times rising evenly through `months` months
 * ending at `endMs`. The rollups the public aggregates read (stat_counters, attestation_hours,
 * trend_days, trend_last_days) are then computed from the rows, so the dashboard and trends read
 * what they would after ingesting them one by one.
 *
 * The attestations are written with the indexes and constraints of `attestations` and
 * `attestation_keys` dropped, and those rebuilt afterwards (withDeferredIndexes), on one connection
 * with a larger maintenance_work_mem and work_mem for the index sorts and the rollups.
 */
export interface GenerateAttestationsOptions {
  rows: number;
  /** Months of receive times, ending at `endMs`. */
  months: number;
  endMs: number;
  validators?: number;
  miners?: number;
  artifacts?: number;
  /** Rows per INSERT statement (bounds one statement's memory and WAL). */
  chunk?: number;
  /** Create the partitions of the generated months first (default true); false leaves them to the default partition. */
  createPartitions?: boolean;
  /** Called after each chunk with the rows written so far. */
  progress?: (written: number) => void;
}

export interface GeneratedAttestations {
  rows: number;
  tasks: number;
  rounds: number;
  startMs: number;
  endMs: number;
}

const TRACKS = ['skills', 'mcp_servers', 'packages', 'repositories'] as const;
const REPLICAS = 5;
const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** A well-formed ss58-looking hotkey (48 characters of the base58 alphabet) for `kind` number `n`. */
function hotkeyOf(kind: 'v' | 'm', n: RawBuilder<unknown>): RawBuilder<string> {
  const seed = `bench-${kind}`;
  return sql<string>`('5' || translate(md5(${seed} || ${n}) || substr(md5(${seed + '2'} || ${n}), 1, 15), '0', 'z'))`;
}

/** A round id (lowercase hex) for a track and week. */
function roundIdOf(track: RawBuilder<unknown>, week: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`md5('bench-r-' || ${track} || '-' || ${week})`;
}

export async function generateAttestations(db: AnyDb, options: GenerateAttestationsOptions): Promise<GeneratedAttestations> {
  return db.connection().execute(async (conn) => {
    // Session settings, undone before the connection returns to the pool.
    await sql`set maintenance_work_mem = '256MB'`.execute(conn);
    await sql`set work_mem = '64MB'`.execute(conn);
    try {
      return await generate(conn, options);
    } finally {
      await sql`reset maintenance_work_mem`.execute(conn);
      await sql`reset work_mem`.execute(conn);
    }
  });
}

async function generate(db: AnyDb, options: GenerateAttestationsOptions): Promise<GeneratedAttestations> {
  const rows = options.rows;
  const validators = Math.max(REPLICAS, options.validators ?? 64);
  const miners = options.miners ?? 256;
  const artifacts = Math.max(TRACKS.length, options.artifacts ?? Math.max(1000, Math.floor(rows / 50)));
  const endMs = options.endMs;
  const startMs = endMs - options.months * 30 * DAY;
  const span = endMs - startMs;
  const tasks = Math.ceil(rows / REPLICAS);
  const weeks = Math.max(1, Math.ceil(span / WEEK));
  const chunk = options.chunk ?? 1_000_000;
  const stride = Math.floor(validators / REPLICAS);

  await sql`insert into validators (hotkey, uid, status, allowed_ips, registered_at, updated_at)
    select ${hotkeyOf('v', sql`g`)}, g, 'active', '[]', ${startMs}::bigint, ${startMs}::bigint
    from generate_series(0, ${validators - 1}) g`.execute(db);

  const tracks = sql`(array['skills','mcp_servers','packages','repositories'])`;
  await sql`insert into rounds (round_id, track, round_number, status, phase, policy_version, opened_at, submission_closes_at, closes_at, evaluation_started_at, closed_at)
    select ${roundIdOf(sql`t`, sql`w`)}, t, w + 1, 'closed', 'complete', 'bench',
      ${startMs}::bigint + w * ${WEEK}::bigint, ${startMs}::bigint + w * ${WEEK}::bigint + ${DAY}::bigint,
      ${startMs}::bigint + (w + 1) * ${WEEK}::bigint, ${startMs}::bigint + w * ${WEEK}::bigint + ${DAY}::bigint,
      ${startMs}::bigint + (w + 1) * ${WEEK}::bigint
    from unnest(${tracks}) t, generate_series(0, ${weeks - 1}) w`.execute(db);

  const firstArtifact = await sql<{ next: string | number }>`select coalesce(max(id), 0) + 1 as next from artifacts`.execute(db);
  const artifactBase = Number(firstArtifact.rows[0]?.next ?? 1);
  await sql`insert into artifacts (id, bundle_hash, track, label, source_id, content_hash, kind, created_at)
    overriding system value
    select ${artifactBase}::bigint + g, 'sha256:' || encode(sha256(('bench-artifact-' || g)::bytea), 'hex'),
      ${tracks}[g % 4 + 1], 'bench artifact ' || g, 'bench-' || g,
      encode(sha256(('bench-content-' || g)::bytea), 'hex'), 'live', ${startMs}::bigint
    from generate_series(0, ${artifacts - 1}) g`.execute(db);
  await sql`select setval(pg_get_serial_sequence('artifacts', 'id'), (select max(id) from artifacts))`.execute(db);

  // Task t: round of its week and track, an artifact of that track, a miner; made just before its
  // first attestation is received.
  await sql`insert into tasks (task_id, round_id, hotkey, artifact_id, created_at, fast)
    select 'bench-t-' || t,
      ${roundIdOf(sql`${tracks}[t % 4 + 1]`, sql`least(((t::bigint * ${REPLICAS} * ${span}::bigint / ${rows}) / ${WEEK}), ${weeks - 1})`)},
      ${hotkeyOf('m', sql`(t % ${miners})`)},
      ${artifactBase}::bigint + ((t / 4) % ${Math.floor(artifacts / 4)}) * 4 + t % 4,
      ${startMs}::bigint + t::bigint * ${REPLICAS} * ${span}::bigint / ${rows} - 1000,
      0
    from generate_series(0, ${tasks - 1}) t`.execute(db);

  // Partitioned (PostgreSQL after migration 0024): a partition for every month the rows fall in.
  if (options.createPartitions !== false) await ensureAttestationPartitions(db, endMs, { since: startMs, monthsAhead: 0 });
  await withDeferredIndexes(db, ['attestations', 'attestation_keys'], async () => {
    for (let from = 0; from < rows; from += chunk) {
      const to = Math.min(rows, from + chunk) - 1;
      await sql`insert into attestations (canonical_hash, task_id, round_id, track, miner_hotkey, validator_hotkey, artifact_id,
          agent_hash, verdict, risk_score, findings, payload, signature, created_at, recorded_at, is_rerun, metagraph_block, metagraph_taken_at)
        select 'sha256:' || encode(sha256(('bench-attestation-' || i)::bytea), 'hex'), tk.task_id, tk.round_id, ${tracks}[(t % 4)::int + 1], tk.hotkey,
          ${hotkeyOf('v', sql`(((t % ${validators}) + k * ${stride}) % ${validators})`)}, tk.artifact_id,
          'sha256:' || encode(sha256(('bench-agent-' || (t % ${miners}))::bytea), 'hex'), v.verdict, v.risk,
          case when v.verdict = 'ALLOW' then '[]'
            else json_build_array(json_build_object('type', 'static', 'category', f.category, 'severity', f.severity,
              'title', f.category || ' found near ' || md5(i::text), 'file', 'src/' || (i % 400) || '.js'))::text end,
          json_build_object('task_id', tk.task_id, 'round_id', tk.round_id, 'validator_hotkey',
            ${hotkeyOf('v', sql`(((t % ${validators}) + k * ${stride}) % ${validators})`)}, 'miner_hotkey', tk.hotkey,
            'artifact', 'sha256:' || md5(tk.artifact_id::text), 'agent_hash', 'sha256:' || md5('agent-' || (t % ${miners})),
            'verdict', v.verdict, 'risk_score', v.risk, 'created_at', ${startMs}::bigint + i * ${span}::bigint / ${rows} - 2000,
            'sandbox', json_build_object('image', 'vigil-sandbox:1', 'duration_ms', 1000 + i % 9000, 'network', 'none'))::text,
          repeat(md5('sig-' || i), 4),
          ${startMs}::bigint + i * ${span}::bigint / ${rows} - 2000,
          ${startMs}::bigint + i * ${span}::bigint / ${rows},
          (k > 0)::int, 4000000 + i / 1000, ${startMs}::bigint + i * ${span}::bigint / ${rows} - 12000
        from generate_series(${from}::bigint, ${to}::bigint) i
        cross join lateral (select i / ${REPLICAS} as t, i % ${REPLICAS} as k) tt
        join tasks tk on tk.task_id = 'bench-t-' || tt.t
        cross join lateral (select case when (i * 2654435761) % 100 < 80 then 'ALLOW' when (i * 2654435761) % 100 < 92 then 'WARN' else 'BLOCK' end as verdict,
          ((i * 2654435761) % 100)::int as risk) v
        cross join lateral (select (array['prompt_injection','install_script','typosquat','malware','exfiltration','credential_access','obfuscation'])[(i % 7)::int + 1] as category,
          (array['CRIT','HIGH','MED','LOW'])[(i % 4)::int + 1] as severity) f`.execute(db);
      options.progress?.(to + 1);
    }
  });

  await rebuildRollups(db);
  return { rows, tasks, rounds: weeks * TRACKS.length, startMs, endMs };
}

/**
 * The rollups of docs/aggregates.md computed from the stored attestations (what
 * applyAttestationAggregates would have written one by one) for the tables the public reads use.
 */
async function rebuildRollups(db: AnyDb): Promise<void> {
  await sql`delete from stat_counters`.execute(db);
  await sql`insert into stat_counters (name, value)
    select 'attestations', count(*) from attestations
    union all select 'verdict:' || verdict, count(*) from attestations group by verdict
    union all select 'track:' || track, count(*) from attestations group by track`.execute(db);
  await sql`delete from attestation_hours`.execute(db);
  await sql`insert into attestation_hours (hour, attestations, first_attestations, reruns)
    select recorded_at / 3600000, count(*), count(*) filter (where is_rerun = 0), count(*) filter (where is_rerun = 1)
    from attestations group by 1`.execute(db);
  await sql`delete from trend_days`.execute(db);
  await sql`insert into trend_days (day, track, attestations, scanned, flagged, blocked, warned)
    select day, track, sum(n), count(*), count(*) filter (where flagged), count(*) filter (where blocked), count(*) filter (where warned)
    from (select recorded_at / 86400000 as day, track, artifact_id, count(*) as n, bool_or(verdict <> 'ALLOW') as flagged,
            bool_or(verdict = 'BLOCK') as blocked, bool_or(verdict = 'WARN') as warned
          from attestations group by 1, 2, 3) per_artifact
    group by day, track`.execute(db);
  await rebuildTrendLastDays(db);
}

/** trend_last_days: per artifact its last day of each signal, counted per day (each finding's JSON read once). */
async function rebuildTrendLastDays(db: AnyDb): Promise<void> {
  await sql`delete from trend_last_days`.execute(db);
  await sql`insert into trend_last_days (metric, key, day, artifacts)
    with s as materialized (
      select artifact_id, track, verdict, recorded_at / 86400000 as day,
        case when verdict <> 'ALLOW' then (findings::jsonb -> 0 ->> 'category') end as category,
        case when verdict <> 'ALLOW' then (findings::jsonb -> 0 ->> 'severity') end as severity
      from attestations)
    select metric, key, day, count(*) from (
      select artifact_id, 'scanned' as metric, '' as key, max(day) as day from s group by artifact_id
      union all select artifact_id, 'flagged', '', max(day) from s where verdict <> 'ALLOW' group by artifact_id
      union all select artifact_id, 'first_flagged', '', min(day) from s where verdict <> 'ALLOW' group by artifact_id
      union all select artifact_id, 'blocked', '', max(day) from s where verdict = 'BLOCK' group by artifact_id
      union all select artifact_id, 'warned', '', max(day) from s where verdict = 'WARN' group by artifact_id
      union all select artifact_id, 'track', track, max(day) from s where verdict <> 'ALLOW' group by artifact_id, track
      union all select artifact_id, 'severity', severity, max(day) from s where verdict <> 'ALLOW' group by artifact_id, severity
      union all select artifact_id, 'category', category, max(day) from s where verdict <> 'ALLOW' group by artifact_id, category
      union all select artifact_id, 'plane', case when category = 'prompt_injection' then 'prompt'
          when category in ('install_script', 'typosquat') then 'install' else 'runtime' end, max(day)
        from s where verdict <> 'ALLOW' group by artifact_id, 3
    ) last_days group by metric, key, day`.execute(db);
}
