// The fault proxies of the server's own fault tests (apps/server/src/test-support/tcp-proxy.ts and
// http-fault-proxy.ts), reused as they are: they are TypeScript outside the build, so they are
// transpiled once with esbuild (a bench dependency) into the run's directory and imported.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

const SOURCES = new URL('../../apps/server/src/test-support/', import.meta.url);

async function importTs(dir, name) {
  const source = await readFile(new URL(`${name}.ts`, SOURCES), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20' });
  const file = join(dir, `${name}.mjs`);
  await writeFile(file, code);
  return import(pathToFileURL(file).href);
}

/** `{ startTcpProxy, startHttpFaultProxy }` as the server's tests use them, transpiled under `runDir`. */
export async function loadFaultProxies(runDir) {
  const dir = join(runDir, 'proxies');
  await mkdir(dir, { recursive: true });
  const { startTcpProxy } = await importTs(dir, 'tcp-proxy');
  const { startHttpFaultProxy } = await importTs(dir, 'http-fault-proxy');
  return { startTcpProxy, startHttpFaultProxy };
}
