import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real Vigil server for the tests of the SDK and the CLI: the built `vigil-server` command
 * (apps/server/dist/bin.js, which turbo builds before those packages' tests) on a temporary SQLite
 * database with the demo data, its keys made with `vigil-server keys create`, as an operator would.
 * The demo is the real seed over 9 days (VIGIL_DEMO_HISTORY_DAYS) instead of 36: every kind of row
 * the tests read (closed rounds with winners, an open round in each phase, resubmissions,
 * attestations, verdicts, events) in about a quarter of the rows.
 * No dependency on the server package: the command is run as a program. Shared from the repository
 * root so that each package's tests start the same server the same way.
 */
export const SERVER_BIN = fileURLToPath(new URL('../apps/server/dist/bin.js', import.meta.url));

/**
 * Whether the suites against a real server can run. A developer without a build gets a visible skip;
 * with CI=true a missing build throws, failing every suite that imports this module, as .ci/run
 * does for PostgreSQL and Redis: a skip there would report green without those suites having run.
 */
export function checkServerBuilt(bin: string, env: Readonly<Record<string, string | undefined>>): boolean {
  if (existsSync(bin)) return true;
  if (env.CI?.trim() === 'true') {
    throw new Error(`${bin} is not built; CI=true requires the tests against a real server (run pnpm build)`);
  }
  console.warn(`SKIPPED: tests against a real server (${bin} is not built; run pnpm build)`);
  return false;
}
export const serverBuilt = checkServerBuilt(SERVER_BIN, process.env);

/** Days of demo rounds these servers seed: enough for every kind of row (see above), few enough to be quick. */
export const DEMO_HISTORY_DAYS = 9;

/** How long a start (with the demo seed) may take; the callers' beforeAll hooks allow a little more. */
export const START_TIMEOUT_MS = 600_000;

export interface VigilServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  /** An organization key on the paid plan with every scope (admin included). */
  paidKey: string;
  /** A personal key on the free plan with `read` and `verify`. */
  freeKey: string;
  /** The demo's metagraph snapshot (VIGIL_DATA_DIR/metagraph.json). */
  metagraph(): unknown;
  /** Runs a `vigil-server` command against this server's data directory. */
  command(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

function run(args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`vigil-server ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function tokenOf(output: string): string {
  const token = output.split('\n').find((line) => line.startsWith('vgl_'));
  if (!token) throw new Error(`keys create printed no token: ${output}`);
  return token.trim();
}

export async function startVigilServer(options: { corsOrigins?: string[]; env?: Record<string, string>; demo?: boolean } = {}): Promise<VigilServer> {
  const cwd = mkdtempSync(join(tmpdir(), 'vigil-server-'));
  const dataDir = join(cwd, '.vigil');
  // No test reaches the public registries: a suite that tests fetching turns it on with `env`.
  const env = { VIGIL_DATA_DIR: dataDir, LOG_LEVEL: 'warn', VIGIL_REGISTRY_FETCH: 'false' };
  const paidKey = tokenOf(await run(['keys', 'create', '--org', 'acme', '--plan', 'paid', '--scopes', 'read,upload,verify,policies,repositories,keys,admin'], cwd, env));
  const freeKey = tokenOf(await run(['keys', 'create', '--personal', 'bob', '--plan', 'free', '--scopes', 'read,verify'], cwd, env));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [SERVER_BIN, 'serve', ...(options.demo === false ? [] : ['--seed-demo-if-empty'])], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      VIGIL_ADMIN_ALLOWLIST: '127.0.0.1,::1',
      VIGIL_RATE_LIMIT_PER_MINUTE: '1000000',
      VIGIL_ENDPOINT_RATE_LIMIT_PER_MINUTE: '1000000',
      VIGIL_DEMO_HISTORY_DAYS: String(DEMO_HISTORY_DAYS),
      ...(options.corsOrigins ? { VIGIL_CORS_ORIGINS: options.corsOrigins.join(',') } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Seeding the demo (about 4,000 attestations over 9 days) takes seconds alone, but longer when CI
  // runs every package's tests at once on two cores: wait by the clock, generously.
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vigil-server serve exited ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${baseUrl}/v1/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`vigil-server serve did not answer within ${START_TIMEOUT_MS / 1000} s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    port,
    dataDir,
    paidKey,
    freeKey,
    metagraph: () => JSON.parse(readFileSync(join(dataDir, 'metagraph.json'), 'utf8')) as unknown,
    command: (args) => run(args, cwd, env),
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
