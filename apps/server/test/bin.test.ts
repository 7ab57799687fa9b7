import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { bundleDirNextTo, bundleIsCurrent } from '../src/bundle-is-current.js';
import { ALL_CONFIG_VARIABLES } from '../src/config.js';
import { POSTGRES_MIGRATION_LOCK_KEY } from '../src/platform/db/dialect.js';
import { withSearchPath } from '../src/test-support/databases.js';
import { usageText } from '../src/usage.js';
import { afterEach, describe, expect, it } from 'vitest';

// The command as installed: the compiled dist/bin.js (turbo builds before testing).
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const built = existsSync(BIN);
const bundleCurrent = built && bundleIsCurrent(bundleDirNextTo(pathToFileURL(BIN).href));
if (built && !bundleCurrent) console.warn(`SKIPPED: the bundle test (dist/bundle is missing or older than its sources: run pnpm build)`);
if (!built) console.warn(`SKIPPED: vigil-server command tests (${BIN} not built; run npx tsc -b)`);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bin-'));
  dirs.push(dir);
  return dir;
}

function run(args: string[], env: Record<string, string> = {}, cwd = workDir(), nodeArgs: string[] = []): Promise<Run> {
  return runFile(BIN, args, env, cwd, nodeArgs);
}

/** Runs `node <file> <args>` as `run` does the command. */
function runFile(file: string, args: string[], env: Record<string, string> = {}, cwd = workDir(), nodeArgs: string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, file, ...args], { cwd, env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the command with a module loader hook that names every file loaded (no timing: the module
 * graph): `loaded` lists them under apps/server/, in load order; `stderr` is the command's own.
 */
async function runListingModules(args: string[]): Promise<Run & { loaded: string[] }> {
  const hook = `export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith('file:')) console.error('LOADED ' + r.url); return r; }`;
  const listModules = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`)}`;
  const result = await run(args, {}, workDir(), ['--import', listModules]);
  const lines = result.stderr.split('\n');
  const loaded = [...new Set(lines.filter((l) => l.startsWith('LOADED ')).map((l) => l.slice('LOADED '.length).replace(/^.*\/apps\/server\//, '')))];
  return { ...result, stderr: lines.filter((l) => !l.startsWith('LOADED ')).join('\n'), loaded };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

// Every test here runs built vigil-server processes, one to several in a row. A hang guard, not a
// performance limit: in a fresh clone's whole `pnpm test` this file starts first (it is one of the
// slow files) beside the demo script, the packages eval and the SDK and CLI suites' demo servers,
// where a machine of two cores ran at a load of 8 to 10 and a usage line took 11 s: four tests
// passed the suite's 30 s there (2026-12-02), and the advisories import 117 s.
describe.skipIf(!built)('vigil-server command', { timeout: 300_000 }, () => {
  it('help lists every command and every environment variable', async () => {
    for (const flag of ['help', '--help', '-h']) {
      const { code, stdout } = await run([flag]);
      expect(code).toBe(0);
      for (const command of ['serve', '--seed-demo-if-empty', 'worker', 'migrate', 'seed --demo', 'metagraph export']) expect(stdout).toContain(command);
      for (const variable of ALL_CONFIG_VARIABLES) expect(stdout).toContain(variable.name);
    }
  });

  it('help loads no module of the server but bin.js, and prints the usage of the configuration as it is', async () => {
    const { code, stdout, loaded } = await runListingModules(['help']);
    expect(code).toBe(0);
    expect(loaded).toEqual(['dist/bin.js']);
    expect(stdout).toBe(usageText(ALL_CONFIG_VARIABLES));
  });

  it('firewall is dispatched by bin.js alone: main.js and the server it loads stay unloaded, and a bad flag exits 2 with the usage', async () => {
    const { code, stdout, stderr, loaded } = await runListingModules(['firewall', '--wait-seconds', 'soon']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(loaded).toContain('dist/features/firewall/firewall-command.js');
    for (const module of ['dist/main.js', 'dist/app.js', 'dist/runtime.js', 'dist/serve.js', 'dist/workers.js']) expect(loaded).not.toContain(module);
    expect(stderr).toMatch(/^vigil-server: firewall: --wait-seconds: expected a number from 0 to 3600, got "soon"\n\nUsage: vigil-server/);
  });

  it.skipIf(!bundleCurrent)("migrate runs the build's bundle of main.js, not the modules tsc wrote", async () => {
    const { code, stdout, loaded } = await runListingModules(['migrate']);
    expect({ code, stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining('migrated: 0001-initial') });
    expect(loaded).toContain('dist/bundle/main.js');
    // Worker threads and the like still run tsc's modules; the command itself never loads them.
    for (const module of ['dist/main.js', 'dist/commands.js', 'dist/runtime.js', 'dist/platform/db/migrate.js']) expect(loaded).not.toContain(module);
  });

  // bin.js and bundle-is-current.js as built, beside stand-ins for main.js and the bundle that say
  // which one ran, and a bundle record (build.json) naming one input file.
  it('bin.js runs the bundle only while every file its record names is as it was built, the modules otherwise', async () => {
    const dist = workDir();
    for (const file of ['bin.js', 'bundle-is-current.js']) writeFileSync(join(dist, file), readFileSync(join(dirname(BIN), file)));
    const standIn = (which: string) => `export async function runCommand(argv) { process.stdout.write('${which} ' + argv.join(' ')); }\n`;
    writeFileSync(join(dist, 'main.js'), standIn('modules'));
    const ranWith = async () => {
      const child = await runFile(join(dist, 'bin.js'), ['migrate'], {}, dist);
      expect(child).toMatchObject({ code: 0, stderr: '' });
      return child.stdout;
    };
    expect(await ranWith()).toBe('modules migrate');
    mkdirSync(join(dist, 'bundle'));
    writeFileSync(join(dist, 'bundle', 'main.js'), standIn('bundle'));
    expect(await ranWith()).toBe('modules migrate'); // no record
    const source = join(dist, 'source.ts');
    writeFileSync(source, 'export const a = 1;\n');
    const record = () => {
      const stats = statSync(source);
      writeFileSync(join(dist, 'bundle', 'build.json'), JSON.stringify({ inputs: [['../source.ts', stats.mtimeMs, stats.size]], outputs: ['main.js'] }));
    };
    record();
    expect(await ranWith()).toBe('bundle migrate');
    const builtAt = statSync(source).mtime;
    utimesSync(source, builtAt, new Date(builtAt.getTime() + 1_000)); // `tsc -b` after an edit, a package rebuilt alone
    expect(await ranWith()).toBe('modules migrate');
    record();
    writeFileSync(source, 'export const a = 22;\n');
    utimesSync(source, builtAt, builtAt); // the same time, another size
    expect(await ranWith()).toBe('modules migrate');
    rmSync(source);
    expect(await ranWith()).toBe('modules migrate');
  });

  it('an unknown command prints the usage on stderr and exits 2', async () => {
    const { code, stdout, stderr } = await run(['frobnicate']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^vigil-server: unknown command: frobnicate\n/);
    expect(stderr).toContain('Usage: vigil-server');
  });

  it('an invalid variable is one line on stderr and exit 1', async () => {
    const { code, stderr } = await run(['serve'], { PORT: 'abc' });
    expect(code).toBe(1);
    expect(stderr).toBe('vigil-server: PORT: expected an integer 1-65535, got "abc"\n');
  });

  it('migrate is idempotent', async () => {
    const cwd = workDir();
    const first = await run(['migrate'], {}, cwd);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('migrated: ');
    expect(existsSync(join(cwd, '.vigil', 'vigil.db'))).toBe(true);
    const second = await run(['migrate'], {}, cwd);
    expect(second).toMatchObject({ code: 0, stdout: 'database is up to date\n' });
  });

  it('migrate waits VIGIL_MIGRATION_LOCK_TIMEOUT_MS for another process holding the database, then exits 1 saying so', async () => {
    const cwd = workDir();
    mkdirSync(join(cwd, '.vigil'));
    const other = new BetterSqlite3(join(cwd, '.vigil', 'vigil.db'));
    other.pragma('journal_mode = WAL');
    other.exec('begin immediate');
    try {
      const { code, stdout, stderr } = await run(['migrate'], { VIGIL_MIGRATION_LOCK_TIMEOUT_MS: '500' }, cwd);
      expect([code, stdout, stderr]).toEqual([
        1,
        '',
        'vigil-server: migrations not run: another process held the migration lock for over 500 ms (VIGIL_MIGRATION_LOCK_TIMEOUT_MS)\n',
      ]);
    } finally {
      other.exec('rollback');
      other.close();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'migrate processes started together on one fresh PostgreSQL schema while another instance migrates all succeed, though they wait longer than their statement timeouts (probe finding: "canceling statement due to statement timeout")',
    async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const schema = `vigil_t_${randomBytes(6).toString('hex')}`;
      const admin = async (query: string) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(query).finally(() => client.end());
      };
      await admin(`CREATE SCHEMA ${schema}`);
      // Another instance migrating: it holds the migration lock for the processes' first 6 s. A real
      // wait: the three `migrate` processes block on a PostgreSQL advisory lock, which no clock moves.
      // Both statement bounds are below that wait (the migration's at 3 s: at 1 s a statement of
      // the migration itself, not the wait, overran it under CI load).
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [POSTGRES_MIGRATION_LOCK_KEY.toString()]);
        const release = new Promise((resolve) => setTimeout(resolve, 6_000)).then(() => holder.query('select pg_advisory_unlock($1)', [POSTGRES_MIGRATION_LOCK_KEY.toString()]));
        const env = { DATABASE_URL: withSearchPath(url, schema), VIGIL_DB_STATEMENT_TIMEOUT_MS: '1000', VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS: '3000' };
        const runs = await Promise.all(Array.from({ length: 3 }, () => run(['migrate'], env)));
        await release;
        expect(runs.map((r) => [r.code, r.stderr])).toEqual(Array(3).fill([0, '']));
        expect(runs.filter((r) => r.stdout.includes('migrated: 0001-initial'))).toHaveLength(1);
      } finally {
        await holder.end();
        await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      }
    },
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'a migration statement is bounded by VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS, not by the requests\' VIGIL_DB_STATEMENT_TIMEOUT_MS (CI: "migrations failed: canceling statement due to statement timeout")',
    async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const schema = `vigil_t_${randomBytes(6).toString('hex')}`;
      const holder = new pg.Client({ connectionString: url });
      const watcher = new pg.Client({ connectionString: url });
      // Another session holds the migration table: the migrator's read of it waits, a slow statement
      // for a real reason. The watcher sees when `migrate` waits on the lock (no clock moves a
      // PostgreSQL lock, so the test waits on the database's own account of it).
      const migrateWhileTableHeld = async (env: Record<string, string>, holdAfterWaitMs: number) => {
        await holder.query('begin');
        await holder.query(`lock table ${schema}.kysely_migration in access exclusive mode`);
        const migration = run(['migrate'], { DATABASE_URL: withSearchPath(url, schema), ...env });
        let exited = false;
        let hold: NodeJS.Timeout | undefined;
        try {
          void migration.finally(() => (exited = true));
          for (;;) {
            const { rows } = await watcher.query<{ n: number }>(
              `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation join pg_namespace s on s.oid = c.relnamespace
                where not l.granted and s.nspname = $1 and c.relname = 'kysely_migration'`,
              [schema],
            );
            if (rows[0]!.n > 0 || exited) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          await Promise.race([migration, new Promise((resolve) => (hold = setTimeout(resolve, holdAfterWaitMs)))]);
        } finally {
          clearTimeout(hold);
          await holder.query('rollback').catch(() => undefined);
        }
        return migration;
      };
      try {
        await holder.connect();
        await watcher.connect();
        await holder.query(`CREATE SCHEMA ${schema}`);
        expect(await run(['migrate'], { DATABASE_URL: withSearchPath(url, schema) })).toMatchObject({ code: 0, stderr: '' });
        // Held 2.5 s past the wait's start against a 1 s request bound: the migration waits it out.
        expect(await migrateWhileTableHeld({ VIGIL_DB_STATEMENT_TIMEOUT_MS: '1000' }, 2_500)).toMatchObject({ code: 0, stderr: '' });
        // The migration's own bound at 300 ms: given up, the table still held.
        const bounded = await migrateWhileTableHeld({ VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS: '300' }, 60_000);
        expect(bounded.code).toBe(1);
        expect(bounded.stderr).toContain('canceling statement due to statement timeout');
      } finally {
        await holder.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
        await Promise.all([holder.end().catch(() => undefined), watcher.end().catch(() => undefined)]);
      }
    },
  );

  it('advisories import reports what it did with every file, exits 1 when nothing could be read; status and facts backfill', async () => {
    const cwd = workDir();
    const fixtures = fileURLToPath(new URL('./fixtures/osv', import.meta.url));
    const first = await run(['advisories', 'import', fixtures], {}, cwd);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      [
        `read 7 OSV record(s) from 7 .json file(s) in ${fixtures}`,
        'imported 7, updated 0 (withdrawn among them: 0)',
        'skipped 0: 0 already stored with the same modified time, 0 older than the stored version, 0 with no npm or PyPI package, 0 invalid',
        '',
      ].join('\n'),
    );
    const again = await run(['advisories', 'import', fixtures], {}, cwd);
    expect(again.stdout).toContain('imported 0, updated 0');
    expect(again.stdout).toContain('skipped 7: 7 already stored with the same modified time');

    const broken = join(cwd, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'GHSA-bad.json'), '{"id": "GHSA-bad"}');
    const nothing = await run(['advisories', 'import', broken], {}, cwd);
    expect(nothing.code).toBe(1);
    expect(nothing.stdout).toContain('invalid: GHSA-bad.json: modified: ');
    expect(nothing.stdout).toContain('no file could be read as an OSV record');
    const missing = await run(['advisories', 'import', join(cwd, 'nope')], {}, cwd);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^vigil-server: advisories: .*nope: ENOENT/);
    expect(await run(['advisories', 'import'], {}, cwd)).toMatchObject({ code: 2 });

    const status = await run(['advisories', 'status'], {}, cwd);
    expect(status.stdout).toMatch(/^advisories: 7 \(0 withdrawn\), npm packages: 6, PyPI packages: 2\nlast import: /);
    expect(await run(['facts', 'backfill'], {}, cwd)).toMatchObject({ code: 0, stdout: 'computed the facts of 0 artifact(s): 0 package archive(s), 0 other\n' });
  });

  it('serve evaluates policies against the imported advisories (the production sources)', async () => {
    const cwd = workDir();
    expect((await run(['advisories', 'import', fileURLToPath(new URL('./fixtures/osv', import.meta.url))], {}, cwd)).code).toBe(0);
    const created = await run(['keys', 'create', '--personal', 'alice', '--plan', 'paid', '--scopes', 'policies'], {}, cwd);
    const token = created.stdout.split('\n').find((line) => line.startsWith('vgl_'))!;
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd, env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' } });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let answer: Response | undefined;
      // Polls (real time, up to about 25 s: a loaded two-core machine has taken over 10 s to start the
      // server) until the child process listens: no clock reaches another process.
      for (let i = 0; i < 250 && !answer; i++) {
        answer = await fetch(`http://127.0.0.1:${port}/v1/policies/evaluate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ artifact: 'npm:minimist@1.2.5', policy: 'default', include: ['vulnerabilities'] }),
        }).catch(async () => {
          await new Promise((r) => setTimeout(r, 100));
          return undefined;
        });
      }
      expect(answer?.status).toBe(200);
      const evaluation = (await answer!.json()) as { verdict: string; vulnerabilities: { id: string }[] };
      expect(evaluation.verdict).toBe('block');
      expect(evaluation.vulnerabilities.map((v) => v.id)).toEqual(['GHSA-xvch-5gv4-984h']);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('serve answers, creates the 0600 identity key, and exits 0 on SIGTERM', async () => {
    const cwd = workDir();
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let health: Response | undefined;
      // Polls (real time, up to about 25 s: a loaded two-core machine has taken over 10 s to start the
      // server) until the child process listens: no clock reaches another process.
      for (let i = 0; i < 250 && !health; i++) {
        health = await fetch(`http://127.0.0.1:${port}/v1/health`).catch(async () => {
          await new Promise((r) => setTimeout(r, 100));
          return undefined;
        });
      }
      expect(health?.status).toBe(200);
      const identity = (await (await fetch(`http://127.0.0.1:${port}/v1/server-identity`)).json()) as { server_hotkey: string };
      expect(identity.server_hotkey).toMatch(/^[0-9a-f]{64}$/);
      expect(statSync(join(cwd, '.vigil', 'server-key')).mode & 0o777).toBe(0o600);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('SIGTERM with a stalled upload and keep-alive clients: the upload gets 408, no client is reset, the database is closed, exit 0', async () => {
    const cwd = workDir();
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve'], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        VIGIL_REQUEST_TIMEOUT_MS: '1000',
        // Generous for a loaded machine: the drain ends as soon as the last connection has closed.
        VIGIL_DRAIN_IDLE_MS: '3000',
        VIGIL_RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    try {
      let up = false;
      // Polls (real time, up to about 25 s: a loaded two-core machine has taken over 10 s to start the
      // server) until the child process listens: no clock reaches another process.
      for (let i = 0; i < 250 && !up; i++) {
        up = await fetch(`${base}/v1/leaderboard`).then(
          (r) => r.ok,
          async () => {
            await new Promise((r) => setTimeout(r, 100));
            return false;
          },
        );
      }
      expect(up).toBe(true);

      // A POST that declares 100 bytes and sends one: before request timeouts it held SIGTERM for
      // 70 s and the process then exited 1 without closing the database.
      const stalled = connect(port, '127.0.0.1');
      let stalledReply = '';
      stalled.on('data', (chunk: Buffer) => (stalledReply += chunk.toString()));
      stalled.on('error', () => undefined);
      const stalledClosed = new Promise<void>((resolve) => stalled.on('close', () => resolve()));
      stalled.write('POST /v1/health HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');

      // Keep-alive clients polling, between requests most of the time, as load balancer targets see.
      const errors: string[] = [];
      let stop = false;
      let connectedCount = 0;
      const poller = async () => {
        let connected = false;
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        try {
          while (!stop) {
            const outcome = await new Promise<string>((resolve) => {
              const request = http.get(`${base}/v1/health`, { agent }, (response) => {
                response.resume();
                response.on('end', () => resolve('ok'));
              });
              request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
            });
            if (outcome === 'ok' && !connected) {
              connected = true;
              connectedCount += 1;
            }
            if (outcome !== 'ok') {
              errors.push(outcome);
              return;
            }
            await new Promise((r) => setTimeout(r, 5));
          }
        } finally {
          agent.destroy();
        }
      };
      const pollers = Array.from({ length: 10 }, () => poller());
      // Every client holds an open keep-alive connection before the signal: a connect still in the
      // kernel's backlog when the listener closes is reset by the kernel, which no drain can prevent.
      // Real waits: real sockets to a real child process, which a test clock cannot reach.
      while (connectedCount < 10) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 50));

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      stop = true;
      await Promise.all(pollers);
      await stalledClosed;

      // A refused connect after the listener closed is expected; a reset of an open one is not.
      expect(errors.filter((code) => code !== 'ECONNREFUSED')).toEqual([]);
      expect(stalledReply).toMatch(/^HTTP\/1\.1 408 /);
      expect(stalledReply).toContain('{"detail":"request timed out","code":"request_timeout"}');
      // SQLite removes its write-ahead log when the last connection closes cleanly, not on a bare exit.
      expect(existsSync(join(cwd, '.vigil', 'vigil.db'))).toBe(true);
      expect(existsSync(join(cwd, '.vigil', 'vigil.db-wal'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('worker opens due rounds and exits 0 on SIGTERM after finishing its step', async () => {
    const cwd = workDir();
    const child = spawn(process.execPath, [BIN, 'worker'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', VIGIL_SCHEDULER_INTERVAL_S: '1' },
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // An empty network: the first step opens one round per track. The waits here are real: the
      // worker is a child process on the wall clock (VIGIL_SCHEDULER_INTERVAL_S), and no clock is injected into it.
      // Until the four rounds are opened or the worker exits, within the file's hang guard: a fixed 10 s
      // ran out on a loaded machine, where the worker took longer than that to start (2026-12-02).
      while ((stdout.match(/"action":"opened"/g) ?? []).length < 4 && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      expect((stdout.match(/"action":"opened"/g) ?? []).length).toBe(4);
      // A worker keeps running after its step, until told to stop.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(child.exitCode).toBeNull();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('metagraph export saves what the configured source reads, and names a missing source', async () => {
    const cwd = workDir();
    const source = join(cwd, 'source.json');
    const snapshot = {
      netuid: 76,
      block: 123,
      taken_at: '2026-11-21T10:00:00Z',
      neurons: [{ uid: 0, hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', validator_permit: true }],
    };
    writeFileSync(source, JSON.stringify(snapshot));
    const out = join(cwd, 'exported.json');
    const done = await run(['metagraph', 'export', out], { VIGIL_METAGRAPH_FILE: source }, cwd);
    expect(done).toMatchObject({ code: 0 });
    expect(done.stdout).toContain('saved netuid 76 at block 123: 1 neurons');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject(snapshot);
    const missing = await run(['metagraph', 'export', out], { VIGIL_METAGRAPH_FILE: join(cwd, 'nope.json') }, cwd);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.json');
    expect((await run(['metagraph', 'import'], {}, cwd)).code).toBe(2);
  });
});
