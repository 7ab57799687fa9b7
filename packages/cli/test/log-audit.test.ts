/**
 * `vigil log audit` against a real server (the demo seed: thousands of logged attestations and
 * verdicts), whose database is then tampered with directly, as a dishonest operator would: an
 * attestation row deleted, a published verdict edited, a logged entry rewritten with its Merkle
 * hashes recomputed. The audit (and `vigil log monitor` where it can see it) must detect each; a
 * clean run must pass. Each tamper is undone before the next, so each test sees one change.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromHex } from '@vigil/crypto';
import { arrayHashReader, formatVerifierKey, storedHashes, type Hash } from '@vigil/tlog';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from '../../../test-support/vigil-server.js';
import { CLI_BIN, json, until, vigil, type CliResult } from './support/cli.js';

let server: VigilServer;
let env: Record<string, string>;
let pinned: string;
let db: Database.Database;
const dir = mkdtempSync(join(tmpdir(), 'vigil-cli-audit-'));
const stateFile = join(dir, 'log-state.json');
const run = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> => vigil(args, { env: { ...env, ...extraEnv } });

interface Audited {
  ok: boolean;
  failure: string | null;
  reason: string | null;
  log_key_source: string;
  checkpoint: { size: number; root: string } | null;
  state: { size: number; root: string; agrees: boolean } | null;
  entries: number;
  entry_types: Record<string, number>;
  checked: { attestations: number; verdicts: number; verdict_history: number };
  changed_since_checkpoint: number;
  not_checkable: Record<string, number>;
  mismatch_count: number;
  mismatches: { index: number; type: string; subject: string; reason: string }[];
}

const audit = (extra: string[] = [], extraEnv: Record<string, string> = {}) => run(['log', 'audit', '--log-key', pinned, '--json', ...extra], extraEnv);

/** Writes to the server's SQLite database while it runs, in one transaction (the server waits its turn). */
function tamper(change: () => void): void {
  db.transaction(change).immediate();
}

// Each test runs several audits of the whole demo log (thousands of reads): a hang guard, not a speed check.
const WHOLE_LOG_MS = 480_000;

describe.skipIf(!serverBuilt)('vigil log audit against a real server whose database is tampered with', () => {
  beforeAll(async () => {
    server = await startVigilServer();
    env = { VIGIL_BASE_URL: server.baseUrl, VIGIL_API_TOKEN: server.paidKey };
    const hotkey = (await run(['identity'])).stdout.trim();
    pinned = formatVerifierKey(`vigil/${hotkey}`, fromHex(hotkey));
    db = new Database(join(server.dataDir, 'vigil.db'));
    db.pragma('busy_timeout = 30000');
    db.pragma('foreign_keys = OFF');
    // The monitor's state before any tamper: what a user following the log kept.
    const monitored = await run(['log', 'monitor', '--log-key', pinned, '--state', stateFile]);
    expect(monitored.code, monitored.stderr).toBe(0);
  }, 660_000);
  afterAll(async () => {
    db?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes on an untouched server: every entry read, the root recomputed, attestations and latest verdicts as served', async () => {
    const result = await audit(['--state', stateFile, '--progress-every', '1000']);
    expect(result.code, result.stderr).toBe(0);
    const body = json<Audited>(result);
    expect(body).toMatchObject({ ok: true, failure: null, reason: null, log_key_source: 'pinned', mismatch_count: 0, mismatches: [] });
    expect(body.entries).toBe(body.checkpoint!.size);
    expect(body.state).toMatchObject({ agrees: true });
    expect(body.checked.attestations).toBe(body.entry_types['vigil.attestation/v1']);
    expect(body.checked.verdicts).toBeGreaterThan(0);
    // Every verdict entry is accounted for: compared (the latest of its artifact), history, published anew since, or not checkable.
    expect(body.checked.verdicts + body.checked.verdict_history + body.changed_since_checkpoint + Object.values(body.not_checkable).reduce((a, b) => a + b, 0)).toBe(body.entry_types['vigil.verdict/v1']);
    expect(result.stderr).toMatch(/^vigil: log audit: 1000 of \d+ entries read$/m);

    // For people: the same verdict, one line per fact.
    const human = await run(['log', 'audit', '--log-key', pinned, '--progress-every', '0']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^audited$/m);
    expect(human.stdout).toMatch(/^checkpoint\s+\d+ entries \(root [A-Za-z0-9+/]{43}=\)$/m);
    expect(human.stderr).toBe('');

    // Without a token the root is still checked; the entries are counted as not checkable, not failed.
    const anonymous = await vigil(['log', 'audit', '--log-key', pinned, '--json'], { env: { VIGIL_BASE_URL: server.baseUrl } });
    expect(anonymous.code, anonymous.stderr).toBe(0);
    const open = json<Audited>(anonymous);
    expect(open.checked).toEqual({ attestations: 0, verdicts: 0, verdict_history: expect.any(Number) });
    const latestVerdicts = open.entry_types['vigil.verdict/v1']! - open.checked.verdict_history;
    expect(open.not_checkable).toEqual({ 'no API token: attestations and artifacts are read with a key (scope read)': open.entry_types['vigil.attestation/v1']! + latestVerdicts });
  }, WHOLE_LOG_MS);

  it('detects a deleted attestation row (exit 11), which the monitor cannot see', async () => {
    const row = db
      .prepare(`SELECT t.* FROM attestations t JOIN log_entries l ON l.subject = 'attestation:' || t.canonical_hash ORDER BY l.idx DESC LIMIT 1`)
      .get() as Record<string, unknown>;
    tamper(() => db.prepare('DELETE FROM attestations WHERE id = ?').run(row.id));
    try {
      const result = await audit();
      expect(result.code, result.stderr).toBe(11);
      const body = json<Audited>(result);
      expect(body).toMatchObject({ ok: false, failure: 'served_mismatch', mismatch_count: 1 });
      expect(body.mismatches[0]).toMatchObject({ type: 'vigil.attestation/v1', subject: row.canonical_hash });
      expect(body.mismatches[0]!.reason).toMatch(/answers 404 \(attestation not found\)/);
      const human = await run(['log', 'audit', '--log-key', pinned]);
      expect(human.code).toBe(11);
      expect(human.stdout).toMatch(/^SERVED DIFFERS FROM LOG$/m);
      expect(human.stdout).toContain(`differs entry `);
      // The log itself is untouched: following it shows nothing wrong. That is the audit's job.
      const monitored = await run(['log', 'monitor', '--log-key', pinned, '--state', join(dir, 'fresh-1.json')]);
      expect(monitored.code, monitored.stderr).toBe(0);
    } finally {
      const columns = Object.keys(row);
      tamper(() => db.prepare(`INSERT INTO attestations (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`).run(row));
    }
    // Undone, so the next test sees its own change only (the first test's audit passed on this state).
    expect(db.prepare('SELECT * FROM attestations WHERE id = ?').get(row.id)).toEqual(row);
  }, WHOLE_LOG_MS);

  it('detects a published verdict edited in place (exit 11): the latest logged verdict is not the one served', async () => {
    const target = db
      .prepare(
        `SELECT a.id AS id, a.bundle_hash AS bundle_hash, p.verdict AS verdict FROM log_entries e
         JOIN artifacts a ON a.bundle_hash = json_extract(e.entry, '$.bundle_hash')
         JOIN published_verdicts p ON p.artifact_id = a.id
         WHERE e.type = 'vigil.verdict/v1' AND a.uploaded_by IS NULL
         ORDER BY e.idx DESC LIMIT 1`,
      )
      .get() as { id: number; bundle_hash: string; verdict: string };
    const forged = target.verdict === 'ALLOW' ? 'BLOCK' : 'ALLOW';
    tamper(() => db.prepare('UPDATE published_verdicts SET verdict = ? WHERE artifact_id = ?').run(forged, target.id));
    try {
      const result = await audit();
      expect(result.code, result.stderr).toBe(11);
      const body = json<Audited>(result);
      expect(body).toMatchObject({ failure: 'served_mismatch', mismatch_count: 1 });
      expect(body.mismatches[0]).toMatchObject({ type: 'vigil.verdict/v1', subject: target.bundle_hash });
      expect(body.mismatches[0]!.reason).toContain(`says ${target.verdict} `);
      expect(body.mismatches[0]!.reason).toContain(`the server publishes ${forged} `);
    } finally {
      tamper(() => db.prepare('UPDATE published_verdicts SET verdict = ? WHERE artifact_id = ?').run(target.verdict, target.id));
    }
    expect(db.prepare('SELECT verdict FROM published_verdicts WHERE artifact_id = ?').get(target.id)).toEqual({ verdict: target.verdict });
  }, WHOLE_LOG_MS);

  it('detects a rewritten history (exit 9): an entry and every Merkle hash recomputed, the server signing the new tree with its own key', async () => {
    const entries = db.prepare('SELECT idx, entry FROM log_entries ORDER BY idx').all() as { idx: number; entry: string }[];
    const victim = entries.find((e) => e.entry.includes('"type":"vigil.attestation/v1"'))!;
    const original = { entries: db.prepare('SELECT idx, entry FROM log_entries WHERE idx = ?').get(victim.idx) as { idx: number; entry: string }, hashes: db.prepare('SELECT hash_index, hash FROM log_hashes').all() as { hash_index: number; hash: string }[] };
    const verdict = (JSON.parse(victim.entry) as { verdict: string }).verdict;
    const rewritten = victim.entry.replace(`"verdict":"${verdict}"`, `"verdict":"${verdict === 'ALLOW' ? 'BLOCK' : 'ALLOW'}"`);
    // The operator rebuilds every stored hash from the rewritten entries: the log is internally consistent again.
    const hashes: Hash[] = [];
    for (const e of entries) hashes.push(...(await storedHashes(e.idx, new TextEncoder().encode(e.idx === victim.idx ? rewritten : e.entry), arrayHashReader(hashes))));
    const replaceHashes = (rows: { hash_index: number; hash: string }[]) => {
      db.prepare('DELETE FROM log_hashes').run();
      const insert = db.prepare('INSERT INTO log_hashes (hash_index, hash) VALUES (?, ?)');
      for (const r of rows) insert.run(r.hash_index, r.hash);
    };
    tamper(() => {
      db.prepare('UPDATE log_entries SET entry = ? WHERE idx = ?').run(rewritten, victim.idx);
      replaceHashes(hashes.map((h, i) => ({ hash_index: i, hash: Buffer.from(h).toString('hex') })));
    });
    try {
      // Against the state the monitor kept: the first entries no longer hash to its root.
      const withState = await audit(['--state', stateFile]);
      expect(withState.code, withState.stderr).toBe(9);
      expect(json<Audited>(withState)).toMatchObject({ failure: 'log_inconsistent', state: { agrees: false } });
      expect(json<Audited>(withState).reason).toMatch(/^the log's first \d+ entries hash to .*, not the root .* of the checkpoint in the state file \(a rewritten history\)$/);
      // The monitor sees the new tree does not extend the one it kept.
      const monitored = await run(['log', 'monitor', '--state', stateFile, '--json']);
      expect(monitored.code, monitored.stderr).toBe(9);
      expect(json(monitored)).toMatchObject({ ok: false, failure: 'log_inconsistent' });
      // With no state to compare with, the rewritten log is consistent, but its entry is not what the server serves.
      const fresh = await audit();
      expect(fresh.code, fresh.stderr).toBe(11);
      expect(json<Audited>(fresh).mismatches[0]).toMatchObject({ index: victim.idx, type: 'vigil.attestation/v1' });
      expect(json<Audited>(fresh).mismatches[0]!.reason).toMatch(/with verdict (ALLOW|BLOCK), the server serves (WARN|ALLOW|BLOCK)/);
    } finally {
      tamper(() => {
        db.prepare('UPDATE log_entries SET entry = ? WHERE idx = ?').run(original.entries.entry, victim.idx);
        replaceHashes(original.hashes);
      });
    }
    expect(db.prepare('SELECT idx, entry FROM log_entries WHERE idx = ?').get(victim.idx)).toEqual(original.entries);
    expect(db.prepare('SELECT hash_index, hash FROM log_hashes').all()).toEqual(original.hashes);
    // The kept history agrees again: `log monitor` on a copy of the state file (it writes its state), without a whole audit.
    const copy = join(dir, 'after-undo.json');
    copyFileSync(stateFile, copy);
    const monitored = await run(['log', 'monitor', '--log-key', pinned, '--state', copy]);
    expect(monitored.code, monitored.stderr).toBe(0);
  }, WHOLE_LOG_MS);

  it('detects entries served that are not the signed tree (exit 9)', async () => {
    const victim = db.prepare('SELECT idx, entry FROM log_entries ORDER BY idx DESC LIMIT 1').get() as { idx: number; entry: string };
    // One byte more in the newest entry, its stored hashes left as they were: the tiles still hash to the signed root, the entries do not.
    tamper(() => db.prepare('UPDATE log_entries SET entry = ? WHERE idx = ?').run(`${victim.entry} `, victim.idx));
    try {
      const result = await audit();
      expect(result.code, result.stderr).toBe(9);
      expect(json<Audited>(result).reason).toMatch(/^the \d+ entries served hash to .*, not the signed root /);
    } finally {
      tamper(() => db.prepare('UPDATE log_entries SET entry = ? WHERE idx = ?').run(victim.entry, victim.idx));
    }
  }, WHOLE_LOG_MS);

  it('Ctrl-C stops it with exit 130 and nothing on stdout', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'log', 'audit', '--log-key', pinned, '--concurrency', '1', '--progress-every', '1'], { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await until('the first progress line', () => out.stderr.includes('entries read'));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/vigil: interrupted: log audit stopped; nothing printed/);
  });

  // Outsider finding: against the default per-IP budget (300 a minute) a whole-log audit ended in
  // exit 1 on a 429 after ten minutes. A proxy refuses the first attestation read with 429 more times
  // than the SDK retries: the audit waits what Retry-After says, says so, and goes on.
  it('waits out a spent rate limit (429 with Retry-After) and goes on instead of failing', { timeout: WHOLE_LOG_MS }, async () => {
    let refused = 0;
    let refusedPath: string | undefined;
    const proxy = createServer((request, response) => {
      const path = request.url ?? '/';
      if (path.startsWith('/v1/attestations/') && (refusedPath === undefined || refusedPath === path) && refused < 5) {
        refusedPath = path;
        refused++;
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end(JSON.stringify({ detail: 'rate limit exceeded', code: 'rate_limited' }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'connection')) as Record<string, string>;
      fetch(`${server.baseUrl}${path}`, { method: request.method ?? 'GET', headers })
        .then(async (upstream) => {
          const body = Buffer.from(await upstream.arrayBuffer());
          const kept: Record<string, string> = {};
          upstream.headers.forEach((value, name) => {
            if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') kept[name] = value;
          });
          response.writeHead(upstream.status, kept);
          response.end(body);
        })
        .catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const result = await audit([], { VIGIL_BASE_URL: `http://127.0.0.1:${port}` });
      expect(result.code, result.stderr).toBe(0);
      expect(json<Audited>(result)).toMatchObject({ ok: true, mismatch_count: 0 });
      expect(refused).toBe(5);
      expect(result.stderr).toMatch(/^vigil: log audit: the server's rate limit is spent; waiting 1 s \(Retry-After\) and going on$/m);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('a --state file that does not exist is exit 1, not a silent audit without the history check', async () => {
    const missing = join(dir, 'no-such-state.json');
    expect(await audit(['--state', missing])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: --state: .*no-such-state\.json: no such file/m) });
  });

  it('usage: a malformed --log-key or --concurrency is exit 2', async () => {
    expect(await run(['log', 'audit', '--log-key', 'nope'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: --log-key: malformed verifier key/m) });
    expect(await run(['log', 'audit', '--concurrency', '0'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: --concurrency: expected an integer from 1 to 32/m) });
  });
});
