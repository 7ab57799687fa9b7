import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { copyDemoTemplate, createServerKeys, demoSeedEnv, demoTemplate, serverCommand, type ServerKeys } from './demo-template.js';

/**
 * A real Vigil server for the tests of the SDK and the CLI: the built `vigil-server` command
 * (apps/server/dist/bin.js, which turbo builds before those packages' tests) on a temporary SQLite
 * database with the demo data, its keys made with `vigil-server keys create`, as an operator would.
 * The demo is the real seed over 9 days (VIGIL_DEMO_HISTORY_DAYS) instead of 36: every kind of row
 * the tests read (closed rounds with winners, an open round in each phase, resubmissions,
 * attestations, verdicts, events) in about a quarter of the rows. Where the package's vitest
 * config has the demo-template globalSetup, the keys and the demo are made once per run and each
 * server with the demo starts on a copy (demo-template.ts); elsewhere each server makes its own.
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

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startVigilServer(options: { corsOrigins?: string[]; env?: Record<string, string>; demo?: boolean } = {}): Promise<VigilServer> {
  const cwd = mkdtempSync(join(tmpdir(), 'vigil-server-'));
  const dataDir = join(cwd, '.vigil');
  // No test reaches the public registries: a suite that tests fetching turns it on with `env`.
  const env = demoSeedEnv(dataDir);
  // The run's template, when there is one, becomes this server's data, its keys included:
  // `--seed-demo-if-empty` below then finds rounds and seeds nothing (and still seeds, as before,
  // where there is no template).
  const templateDir = options.demo === false ? undefined : inject('vigilDemoTemplateDir');
  let keys: ServerKeys;
  if (templateDir === undefined) keys = await createServerKeys(cwd, env);
  else {
    const template = await demoTemplate(templateDir, START_TIMEOUT_MS);
    copyDemoTemplate(template.dataDir, dataDir);
    keys = template.keys;
  }
  const { paidKey, freeKey } = keys;
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
    command: (args) => serverCommand(args, cwd, env),
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
