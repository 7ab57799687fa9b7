import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory where this run's demo template is seeded on first use (demoTemplate below). */
    vigilDemoTemplateDir: string;
  }
}

/** The built `vigil-server` command (the same path as vigil-server.ts's SERVER_BIN). */
const BIN = fileURLToPath(new URL('../apps/server/dist/bin.js', import.meta.url));

/** Days of demo rounds the test servers seed: enough for every kind of row the suites read, few enough to be quick. */
export const DEMO_HISTORY_DAYS = 9;

/**
 * The environment the demo is seeded under, the template's and a server's own seeding alike: the
 * seed reads the history length and the round schedule from it, so both must see the same one.
 */
export function demoSeedEnv(dataDir: string): Record<string, string> {
  return { VIGIL_DATA_DIR: dataDir, LOG_LEVEL: 'warn', VIGIL_REGISTRY_FETCH: 'false', VIGIL_DEMO_HISTORY_DAYS: String(DEMO_HISTORY_DAYS) };
}

/** Runs a `vigil-server` command on a data directory; resolves with its stdout. */
export function serverCommand(args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`vigil-server ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** The keys every test server has: made with `vigil-server keys create`, as an operator would. */
export interface ServerKeys {
  /** An organization key on the paid plan with every scope (admin included). */
  paidKey: string;
  /** A personal key on the free plan with `read` and `verify`. */
  freeKey: string;
}

function tokenOf(output: string): string {
  const token = output.split('\n').find((line) => line.startsWith('vgl_'));
  if (!token) throw new Error(`keys create printed no token: ${output}`);
  return token.trim();
}

/** Creates the two keys of a test server in its data directory. */
export async function createServerKeys(cwd: string, env: Record<string, string>): Promise<ServerKeys> {
  const paidKey = tokenOf(await serverCommand(['keys', 'create', '--org', 'acme', '--plan', 'paid', '--scopes', 'read,upload,verify,policies,repositories,keys,admin'], cwd, env));
  const freeKey = tokenOf(await serverCommand(['keys', 'create', '--personal', 'bob', '--plan', 'free', '--scopes', 'read,verify'], cwd, env));
  return { paidKey, freeKey };
}

/**
 * A test server's data, made once per test run and shared by every file of the run through a
 * directory the run's globalSetup (demo-template-setup.ts) makes: the two keys (createServerKeys),
 * `vigil-server migrate` (the search index built, as `serve` builds it before seeding), then the
 * demo seeded by the real `vigil-server seed --demo` (the SQLite database, the metagraph snapshot,
 * the blobs), in the order a server without a template makes them (keys, then the demo when
 * `serve --seed-demo-if-empty` starts). Every server of the run then starts on a copy.
 * The seed was the costliest step of a start, and each of the three commands a process that loads
 * the server and migrates; every suite got the same rows anyway (round boundaries are whole hours
 * and days from `now`, so a template made during a run reads the same for the rest of it). Made on
 * first use, not in globalSetup, so a run of files that start no server never pays for it.
 *
 * Files may run in parallel worker processes: one takes the lock (an exclusive mkdir) and seeds
 * into a staging directory renamed into place when done; the others wait for that rename, or for
 * the failure it wrote down.
 */
export async function demoTemplate(shared: string, timeoutMs: number): Promise<{ dataDir: string; keys: ServerKeys }> {
  const ready = join(shared, 'ready');
  const failed = join(shared, 'failed');
  let mine = false;
  try {
    mkdirSync(join(shared, 'lock'));
    mine = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (mine) {
    const staging = join(shared, 'staging');
    try {
      const env = demoSeedEnv(join(staging, '.vigil'));
      const keys = await createServerKeys(shared, env);
      // `serve` builds the search index (empty here) before it seeds, and `seed --demo` does not:
      // without this, the index would be left "needed" and every server started on a copy would
      // rebuild it over the whole demo.
      await serverCommand(['migrate'], shared, env);
      await serverCommand(['seed', '--demo'], shared, env);
      writeFileSync(join(staging, 'keys.json'), JSON.stringify(keys));
      renameSync(staging, ready);
    } catch (error) {
      writeFileSync(failed, (error as Error).message);
      throw error;
    }
  } else {
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(ready)) {
      if (existsSync(failed)) throw new Error(`the run's demo template failed to seed: ${readFileSync(failed, 'utf8')}`);
      if (Date.now() > deadline) throw new Error(`the run's demo template was not seeded within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { dataDir: join(ready, '.vigil'), keys: JSON.parse(readFileSync(join(ready, 'keys.json'), 'utf8')) as ServerKeys };
}

/** Copies the seeded template to a server's (not yet existing) data directory. */
export function copyDemoTemplate(template: string, dataDir: string): void {
  cpSync(template, dataDir, { recursive: true });
}
