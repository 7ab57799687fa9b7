// The end-of-run checks (issue 29, "The whole shape, under load and faults"): each returns
// { name, ok, detail }. `pg` is a pg Client on the run's database, reached directly (no proxy).
import { pathToFileURL, fileURLToPath } from 'node:url';
import { send } from './http-client.mjs';

/** Every acknowledged attestation is a row, exactly once; none was answered `created` twice. */
export async function checkAttestations(pg, validators) {
  const hashes = [...validators.acked.keys()];
  const rows = hashes.length === 0 ? [] : (await pg.query('select canonical_hash, count(*)::int as n from attestations where canonical_hash = any($1) group by 1', [hashes])).rows;
  const counts = new Map(rows.map((r) => [r.canonical_hash, r.n]));
  const missing = hashes.filter((h) => !counts.has(h));
  const doubled = rows.filter((r) => r.n > 1);
  const createdTwice = [...validators.acked].filter(([, e]) => e.created > 1);
  const retriedDuplicates = [...validators.acked.values()].filter((e) => e.duplicate > 0).length;
  return {
    name: 'attestations: acknowledged = recorded once',
    ok: hashes.length > 0 && missing.length === 0 && doubled.length === 0 && createdTwice.length === 0,
    detail: `${hashes.length} acknowledged (${retriedDuplicates} answered "duplicate" on a resend after a lost answer), ${missing.length} missing, ${doubled.length} stored twice, ${createdTwice.length} answered "created" twice; ${validators.refused} envelopes refused`,
  };
}

/** Some acknowledged attestations read back through the API (GET /v1/attestations/{hash}). */
export async function checkAttestationReads(baseUrl, token, validators, sample = 40) {
  const hashes = [...validators.acked.keys()];
  const picked = hashes.filter((_, i) => i % Math.max(1, Math.floor(hashes.length / sample)) === 0).slice(0, sample);
  const bad = [];
  for (const hash of picked) {
    const r = await send(baseUrl, { from: '127.0.4.1', path: `/v1/attestations/${hash}`, headers: { authorization: `Bearer ${token}` } });
    if (r.status !== 200) bad.push(`${hash}: ${r.status}`);
  }
  return { name: 'attestations: readable through the API', ok: picked.length > 0 && bad.length === 0, detail: `${picked.length - bad.length}/${picked.length} sampled read 200${bad.length ? `; ${bad.slice(0, 3).join(', ')}` : ''}` };
}

/** Every upload answered 201 reads back with its size and its archive listed (its bytes are in the store). */
export async function checkUploads(baseUrl, token, uploads) {
  const bad = [];
  for (const [i, upload] of uploads.entries()) {
    const r = await send(baseUrl, { from: `127.0.4.${2 + (i % 50)}`, path: `/v1/artifacts/${upload.id}`, headers: { authorization: `Bearer ${token}` } });
    if (r.status !== 200 || r.body?.size !== upload.size || r.body?.archive?.status !== 'ok') bad.push(`${upload.id}: ${r.status} size ${r.body?.size} archive ${r.body?.archive?.status}`);
  }
  return { name: 'uploads: every 201 readable, bytes and all', ok: uploads.length > 0 && bad.length === 0, detail: `${uploads.length - bad.length}/${uploads.length} read back${bad.length ? `; ${bad.slice(0, 3).join(', ')}` : ''}` };
}

/**
 * The receiver's ledger against the outbox: every event the endpoint subscribes to, created after it,
 * was acknowledged (2xx) at least once; an event acknowledged more than once is at-least-once delivery
 * only when a fault (a killed worker, PostgreSQL cut or stalled) could have lost the record of the first.
 */
export async function checkWebhooks(pg, { webhookId, since, kinds, ledger, windows, graceMs = 60_000 }) {
  const events = (await pg.query('select id, kind from outbox_events where created_at >= $1 and kind = any($2)', [since, kinds])).rows;
  const acked = new Map();
  for (const entry of ledger) {
    if (entry.answered !== 202) continue;
    const list = acked.get(entry.event) ?? [];
    list.push(entry.at);
    acked.set(entry.event, list);
  }
  const lost = events.filter((e) => !acked.has(e.id));
  const unexplained = [];
  let duplicates = 0;
  const deliveryFaults = windows.filter((w) => /worker|PostgreSQL/.test(w.name));
  for (const [event, times] of acked) {
    if (times.length < 2) continue;
    duplicates += 1;
    const second = times.sort((a, b) => a - b)[1];
    const first = times[0];
    if (!deliveryFaults.some((w) => first <= w.to + graceMs && second >= w.from)) unexplained.push(event);
  }
  const states = (await pg.query('select state, count(*)::int as n from webhook_deliveries where webhook_id = $1 group by 1', [webhookId])).rows;
  return [
    {
      name: 'webhooks: no event lost',
      ok: events.length > 0 && lost.length === 0,
      detail: `${events.length} events of ${kinds.join(', ')}; ${events.length - lost.length} acknowledged by the receiver, ${lost.length} never; deliveries ${states.map((s) => `${s.state} ${s.n}`).join(', ')}; ${ledger.length} attempts received (${ledger.filter((l) => l.answered !== 202).length} failed on purpose)`,
    },
    {
      name: 'webhooks: duplicates only at-least-once',
      ok: unexplained.length === 0,
      detail: `${duplicates} events acknowledged more than once, ${unexplained.length} of them outside a worker or PostgreSQL fault`,
    },
  ];
}

/** The transparency log: the root recomputed from the entries, the stored hashes and the last checkpoint (the server's start-up check). */
export async function checkLog(databaseUrl) {
  const serverDist = new URL('../../apps/server/dist/', import.meta.url);
  const { checkTransparencyLog } = await import(pathToFileURL(fileURLToPath(new URL('features/log/check-log.js', serverDist))).href);
  const { openDatabase } = await import('@vigil/server');
  const database = await openDatabase({ url: databaseUrl });
  try {
    const check = await checkTransparencyLog(database.db);
    return { name: 'transparency log consistent', ok: check.problem === null && check.size > 0, detail: check.problem ?? `${check.size} entries, root recomputed, checkpoint of ${check.checkpointSize} entries matches` };
  } finally {
    await database.close();
  }
}

/**
 * Scheduler transitions exactly once: no round closed twice (one round.closed event per closed round,
 * none for an open one), and never two open rounds on one track.
 */
export async function checkRounds(pg, since) {
  const closed = (await pg.query("select round_id from rounds where status = 'closed' and closed_at >= $1", [since])).rows.map((r) => r.round_id);
  const events = (await pg.query("select payload::json->>'round_id' as round_id, count(*)::int as n from outbox_events where kind = 'round.closed' and created_at >= $1 group by 1", [since])).rows;
  const eventCount = new Map(events.map((e) => [e.round_id, e.n]));
  const wrong = closed.filter((id) => eventCount.get(id) !== 1);
  const stray = events.filter((e) => !closed.includes(e.round_id));
  const open = (await pg.query("select track, count(*)::int as n from rounds where status = 'open' group by 1 having count(*) > 1")).rows;
  const twice = (await pg.query('select track, round_number from rounds group by 1, 2 having count(*) > 1')).rows;
  const opened = (await pg.query('select count(*)::int as n from rounds where opened_at >= $1', [since])).rows[0].n;
  const evaluating = (await pg.query('select count(*)::int as n from rounds where evaluation_started_at >= $1', [since])).rows[0].n;
  return {
    name: 'scheduler transitions exactly once',
    ok: wrong.length === 0 && stray.length === 0 && open.length === 0 && twice.length === 0 && closed.length > 0,
    detail: `during the run: ${closed.length} rounds closed, ${opened} opened, ${evaluating} entered evaluation; ${wrong.length} closes without exactly one round.closed event, ${stray.length} events for a round not closed, ${open.length} tracks with two open rounds, ${twice.length} round numbers opened twice`,
  };
}
