import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));

/** A real Verdaccio on a loopback port chosen by the OS, with its storage in a temp dir. */
export interface Verdaccio {
  readonly url: string;
  readonly port: number;
  readonly storage: string;
  /** A token of the test user, for publishing (and for tests of `token`). */
  readonly token: string;
  /** Publishes a package directory with the real `npm publish`. */
  publish(dir: string, extraArgs?: string[]): Promise<void>;
  /** Runs `npm <args>` against this registry as the test user. */
  npm(args: string[], cwd?: string): Promise<string>;
  /** The stored tarball of a version, as Verdaccio keeps it on disk. */
  tarballPath(name: string, version: string): string;
  /** Verdaccio's stored packument (its `package.json` in storage). */
  storedPackumentPath(name: string): string;
  stop(): Promise<void>;
}

export async function startVerdaccio(options: { maxBodySize?: string } = {}): Promise<Verdaccio> {
  const root = await mkdtemp(join(tmpdir(), 'vigil-verdaccio-'));
  const storage = join(root, 'storage');
  await mkdir(storage);
  const config = {
    self_path: root,
    storage,
    auth: { htpasswd: { file: join(root, 'htpasswd'), max_users: 10 } },
    // No uplinks: everything this registry serves was published into it by the test.
    uplinks: {},
    packages: {
      '@*/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
      '**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
    },
    max_body_size: options.maxBodySize ?? '200mb',
    web: { enable: false },
    log: { type: 'stdout', format: 'json', level: 'error' },
  };
  const child: ChildProcess = fork(join(here, 'verdaccio-child.mjs'), [JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`verdaccio exited with ${code}: ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const user = `vigil${process.pid}`;
  const answer = await fetch(`${url}/-/user/org.couchdb.user:${user}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: user, password: 'vigil-test-password', type: 'user', roles: [], date: new Date().toISOString() }),
  });
  if (!answer.ok) throw new Error(`verdaccio adduser: ${answer.status} ${await answer.text()}`);
  const { token } = (await answer.json()) as { token: string };
  const npmrc = join(root, '.npmrc');
  await writeFile(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  const env = { ...process.env, npm_config_userconfig: npmrc, npm_config_registry: `${url}/`, npm_config_cache: join(root, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
  const npm = async (args: string[], cwd = root) => (await run('npm', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 })).stdout;
  return {
    url,
    port,
    storage,
    token,
    npm,
    publish: async (dir, extraArgs = []) => {
      await npm(['publish', '--registry', `${url}/`, ...extraArgs], dir);
    },
    tarballPath: (name, version) => join(storage, name, `${name.split('/').at(-1)}-${version}.tgz`),
    storedPackumentPath: (name) => join(storage, name, 'package.json'),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Writes a package directory (package.json plus files) to publish. */
export async function writePackage(dir: string, manifest: Record<string, unknown>, files: Record<string, string | Buffer> = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests edit a stored packument by path, as JSON
type StoredPackument = Record<string, any>;

/** Rewrites Verdaccio's stored packument (e.g. to add `dist.attestations` or lie about sizes). */
export async function editStoredPackument(verdaccio: Verdaccio, name: string, edit: (doc: StoredPackument) => void): Promise<void> {
  const path = verdaccio.storedPackumentPath(name);
  const doc = JSON.parse(await readFile(path, 'utf8')) as StoredPackument;
  edit(doc);
  await writeFile(path, JSON.stringify(doc));
}
