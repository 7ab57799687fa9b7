import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_MODULES, buildProgram, modulesFor } from '../src/program.js';
import { CLI_BIN } from './support/cli.js';

// What a command line loads (docs/benchmarks.md, "Command-line start-up"): the files, named by a
// loader hook on stderr, and whether Node's fetch implementation (undici) was loaded. dist/bin.js
// is a bundle (scripts/build-bin.mjs): the modules a file of it holds are the `sources` of its
// source map. No timing here: bench/cli-startup.mjs measures the CPU time.
const HOOK = `export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith('file:')) console.error('LOADED ' + r.url); return r; }`;
const UNDICI = `process.on('exit', () => { if (process.moduleLoadList.includes('NativeModule internal/deps/undici/undici')) console.error('LOADED node:undici'); });`;
const LIST_MODULES = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)}); ${UNDICI}`)}`;
const CLI_DIST = dirname(CLI_BIN);

function loadedBy(args: string[]): Promise<{ code: number | null; stdout: string; files: string[]; loaded: string[] }> {
  const home = mkdtempSync(join(tmpdir(), 'vigil-cli-home-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', LIST_MODULES, CLI_BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: home } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(home, { recursive: true, force: true });
      const loaded = [...new Set(stderr.split('\n').filter((l) => l.startsWith('LOADED ')).map((l) => l.slice('LOADED '.length)))];
      resolve({ code, stdout, files: loaded, loaded: loaded.flatMap(modulesIn) });
    });
  });
}

/** The modules a loaded file holds: a file of the CLI's bundle, the sources of its map; any other, itself. */
function modulesIn(url: string): string[] {
  if (!url.startsWith('file:') || !fileURLToPath(url).startsWith(CLI_DIST)) return [url];
  const file = fileURLToPath(url);
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
  return map.sources.map((source) => pathToFileURL(resolve(dirname(file), source)).href);
}

/** The packages a list of module URLs comes from: `@vigil/client`, `zod`, `cli` for the CLI's own. */
function packagesOf(urls: string[]): Set<string> {
  return new Set(
    urls.map((url) => {
      const dependency = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/.exec(url);
      if (dependency) return dependency[1]!;
      const workspace = /\/packages\/([^/]+)\/(?:dist|src)\//.exec(url);
      return workspace ? (workspace[1] === 'cli' ? 'cli' : `@vigil/${workspace[1]}`) : url;
    }),
  );
}

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('vigil start-up', () => {
  it('--version loads no command, no SDK and no schema', async () => {
    const r = await loadedBy(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.stdout).toBe(`${(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version}\n`);
    expect([...packagesOf(r.loaded)].sort()).toEqual(['cli', 'commander']);
    expect(r.loaded.filter((url) => url.includes('/commands/'))).toEqual([]);
  });

  it('a public read loads its own command module and the SDK, not the scanner, the lockfile readers, the webhooks or Node\'s fetch', async () => {
    const r = await loadedBy(['--base-url', baseUrl, 'health']);
    expect(r.code).toBe(0);
    const packages = packagesOf(r.loaded);
    expect(packages.has('@vigil/client')).toBe(true);
    // Every module comes from the bundle: none is read from node_modules at run time.
    expect(r.files.filter((url) => !url.startsWith(pathToFileURL(CLI_DIST).href))).toEqual([]);
    for (const heavy of ['@vigil/sandbox', '@vigil/reference-agents', '@vigil/lockfiles', '@vigil/webhooks', 'yaml', 'js-yaml', 'smol-toml', 'acorn', 'tar-stream', 'yauzl', 'node:undici']) expect(packages.has(heavy), heavy).toBe(false);
    expect(r.loaded.filter((url) => url.includes('/commands/')).map((url) => url.replace(/^.*\/commands\//, ''))).toEqual(['public-reads.ts']);
  });

  it("the program's help loads every command module but neither @vigil/sandbox nor @vigil/reference-agents, which only a scan, the operator commands and the validator loop import when they run", async () => {
    const r = await loadedBy(['--help']);
    expect(r.code).toBe(0);
    const commands = new Set(r.loaded.filter((url) => url.includes('/commands/')).map((url) => url.replace(/^.*\/commands\//, '')));
    for (const name of ['public-reads.ts', 'scan.ts', 'operator.ts', 'validator-run.ts', 'admin.ts']) expect(commands.has(name), name).toBe(true);
    for (const heavy of ['@vigil/sandbox', '@vigil/reference-agents']) expect(packagesOf(r.loaded).has(heavy), heavy).toBe(false);
  });

  it('a scan with --agent loads the sandbox but not the reference agents or their parsers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-cli-startup-scan-'));
    try {
      // The echo agent of @vigil/sandbox as a one-file bundle, and a package with nothing to report.
      const echo = readFileSync(join(dirname(createRequire(import.meta.url).resolve('@vigil/sandbox/package.json')), 'examples/echo-agent/agent.mjs'));
      const bundle = { format: 'vigil-agent-bundle/1', entrypoint: 'agent.mjs', files: [{ path: 'agent.mjs', mode: '0644', content_base64: echo.toString('base64') }] };
      writeFileSync(join(dir, 'agent.json'), JSON.stringify(bundle));
      mkdirSync(join(dir, 'pkg'));
      writeFileSync(join(dir, 'pkg', 'package.json'), JSON.stringify({ name: 'plain', version: '1.0.0' }));
      const r = await loadedBy(['scan', join(dir, 'pkg'), '--agent', join(dir, 'agent.json'), '--json']);
      expect(r.code, r.stdout).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ track: 'packages', verdict: 'ALLOW' });
      const packages = packagesOf(r.loaded);
      expect(packages.has('@vigil/sandbox')).toBe(true);
      for (const heavy of ['@vigil/reference-agents', '@vigil/lockfiles', 'acorn', 'yaml']) expect(packages.has(heavy), heavy).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the command modules', () => {
  const io = { stdout: () => {}, stderr: () => {}, env: {} };

  it('name every top-level command and alias each registers', async () => {
    for (const module of COMMAND_MODULES) {
      const program = new Command();
      (await module.load())(program, { io, state: { exitCode: 0 } });
      expect(program.commands.flatMap((c) => [c.name(), ...c.aliases()]).sort(), module.names[0]).toEqual([...module.names].sort());
    }
    const all = await buildProgram(io, { exitCode: 0 });
    expect(all.commands.flatMap((c) => [c.name(), ...c.aliases()])).toEqual(COMMAND_MODULES.flatMap((m) => m.names));
  });

  it('are chosen from the command line', () => {
    const names = (argv: string[]) => modulesFor(argv).map((m) => m.names[0]);
    expect(names(['--version'])).toEqual([]);
    expect(names(['--base-url', 'http://x', '--json', 'network'])).toEqual(['health']);
    expect(names(['help', 'rounds'])).toEqual(['health']);
    expect(names(['--token=vgl_x', 'admin', 'rounds', '--help'])).toEqual(['admin']);
    for (const argv of [[], ['--help'], ['help'], ['frobnicate'], ['completion', 'bash']]) expect(names(argv), argv.join(' ')).toHaveLength(COMMAND_MODULES.length);
  });
});
