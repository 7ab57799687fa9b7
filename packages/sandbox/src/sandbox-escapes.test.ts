import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent, type AgentRunOutcome } from './run-agent.js';
import { dirWith, tempDir } from './test-support/temp-dirs.js';

// What an outsider's hostile agents got past the sandbox (issue 12's adversarial pass), each kept
// as a case: a real agent process, and a look at what did not happen outside it.

const RESULT = `process.stdout.write(JSON.stringify({ verdict: 'ALLOW', risk_score: 0, findings: [] }));`;
const READ_INPUT = `import fs from 'node:fs'; const input = JSON.parse(fs.readFileSync(0, 'utf8'));`;

let artifact: string;
let outside: string;
let victim: ChildProcess;

beforeAll(async () => {
  outside = await tempDir();
  // Another process of the same user: the validator, the database, anything the agent could reach.
  victim = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'ignore', 'pipe'] });
  artifact = await dirWith({ 'package.json': '{"name":"plain","version":"1.0.0"}\n', 'victim.pid': String(victim.pid) });
  // Inherited from whoever runs the tests (0, or 10 under `nice`): what must not change.
  victimNiceAtStart = victimNice();
});
afterAll(() => {
  victim.kill('SIGKILL');
});

async function run(code: string): Promise<AgentRunOutcome> {
  const bundleDir = await dirWith({ 'agent.mjs': code });
  return runAgent({ bundleDir, entrypoint: 'agent.mjs', artifactDir: artifact, metadata: { track: 'packages' }, budget: { wallMs: 20_000, cpuMs: 10_000 } });
}

const failure = (outcome: AgentRunOutcome) => (outcome.ok ? `ok: ${JSON.stringify(outcome.result)}` : outcome.failureReason);

let victimNiceAtStart: number;
/** The victim's nice value (field 19 of /proc/<pid>/stat). */
function victimNice(): number {
  return Number(readFileSync(`/proc/${victim.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
}

/** The victim's state letter in /proc (`T`: stopped), or null when it is gone. */
function victimState(): string | null {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${victim.pid}/stat`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

describe('the libuv Pipe class behind process.stdout', () => {
  let server: Server;
  let socketPath: string;
  let connections = 0;
  beforeAll(async () => {
    socketPath = join(outside, 'db.sock');
    server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    server.listen(socketPath);
    await once(server, 'listening');
  });
  afterAll(() => {
    server.close();
  });

  it('cannot connect to a Unix socket on the filesystem (a database’s): forbidden: network, and the socket saw nothing', async () => {
    const outcome = await run(`${READ_INPUT}
      const Pipe = process.stdout._handle.constructor;
      let WriteWrap;
      const h = process.stdout._handle; const orig = h.writeUtf8String;
      h.writeUtf8String = function (req, ...rest) { WriteWrap ??= req.constructor; return orig.call(this, req, ...rest); };
      process.stdout.write(' '); h.writeUtf8String = orig;
      const p = new Pipe(0); const req = new WriteWrap();
      req.oncomplete = () => {};
      try { p.connect(req, ${JSON.stringify(socketPath)}); } catch {}
      setTimeout(() => { ${RESULT} }, 300);`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: network');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connections).toBe(0);
  });

  it('cannot bind a socket file outside its scratch directory: forbidden: network, and no file appears', async () => {
    const target = join(outside, 'planted.sock');
    const outcome = await run(`${READ_INPUT}
      const Pipe = process.stdout._handle.constructor;
      try { const p = new Pipe(1); p.bind(${JSON.stringify(target)}); p.listen(5); } catch {}
      ${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: network');
    expect(existsSync(target)).toBe(false);
  });
});

describe('other processes', () => {
  it.each([
    ['SIGKILL', `process.kill(pid, 'SIGKILL')`],
    ['SIGSTOP', `process.kill(pid, 'SIGSTOP')`],
    ['through process._kill', `process._kill(pid, 19)`],
    ['os.setPriority', `(await import('node:os')).setPriority(pid, 19)`],
  ])('an agent that signals another process (%s) is stopped: forbidden: process, and the process runs on', async (_how, call) => {
    const outcome = await run(`${READ_INPUT}
      const pid = Number(fs.readFileSync(input.artifact.dir + '/victim.pid', 'utf8'));
      try { ${call}; } catch {}
      ${RESULT}`);
    // The whole outcome on a mismatch. Fresh-clone CI runs saw `crashed: exit 1` here: the agent's
    // readFileSync(0) got EAGAIN when its input came late on a loaded machine (preload-stdin.test.ts).
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: process');
    expect(victimState()).toMatch(/^[RS]$/);
    expect(victimNice()).toBe(victimNiceAtStart);
  });

  it('an agent that asks another Node process to open its inspector is stopped: forbidden: process, and no inspector opens', async () => {
    let stderr = '';
    victim.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const outcome = await run(`${READ_INPUT}
      const pid = Number(fs.readFileSync(input.artifact.dir + '/victim.pid', 'utf8'));
      try { process._debugProcess(pid); } catch {}
      ${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: process');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stderr).not.toContain('Debugger listening');
  });

  it('an agent may still signal itself and lower its own priority', async () => {
    const outcome = await run(`${READ_INPUT} const wait = setTimeout(() => {}, 5000); process.on('SIGUSR2', () => { clearTimeout(wait); ${RESULT} }); (await import('node:os')).setPriority(10); process.kill(process.pid, 'SIGUSR2');`);
    expect(failure(outcome)).toMatch(/^ok: /);
  });
});

describe('refused even when the agent catches the error', () => {
  it.each([
    ['WASI', `import { WASI } from 'node:wasi'; try { new WASI({ version: 'preview1' }); } catch {}`, 'forbidden: wasi'],
    ['process.dlopen', `try { process.dlopen({ exports: {} }, '/usr/lib/x86_64-linux-gnu/libc.so.6'); } catch {}`, 'forbidden: addon'],
    ['V8 flags', `import v8 from 'node:v8'; try { v8.setFlagsFromString('--allow-natives-syntax'); } catch {}`, 'forbidden: runtime'],
    ['a symbolic link in its scratch directory', `${READ_INPUT} try { fs.symlinkSync('/etc/passwd', input.scratch_dir + '/l'); } catch {}`, 'forbidden: filesystem'],
  ])('%s', async (_what, code, reason) => {
    const outcome = await run(`${code}\n${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe(reason);
  });

  it('tracing, which would write node_trace.*.log into the artifact directory: forbidden: filesystem, and nothing is written', async () => {
    const outcome = await run(`import te from 'node:trace_events'; try { te.createTracing({ categories: ['v8'] }).enable(); } catch {}\nsetTimeout(() => { ${RESULT} }, 500);`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: filesystem');
    expect(readdirSync(artifact).filter((f) => f.startsWith('node_trace'))).toEqual([]);
  });
});

describe('the report channel (fd 3) is the agent’s too', () => {
  it('a made-up failure kind is ignored: the run is judged on what it did', async () => {
    const outcome = await run(`import fs from 'node:fs'; fs.writeSync(3, JSON.stringify({ forbidden: 'nothing\\nsummary: 99 claimed \\u001b[31mFORGED', detail: 'x' }) + '\\n'); ${RESULT}`);
    expect(outcome.ok).toBe(true);
  });

  it('a forged known kind fails only the agent itself, with its control characters gone from the detail', async () => {
    const outcome = await run(`import fs from 'node:fs'; fs.writeSync(3, JSON.stringify({ forbidden: 'network', detail: 'made up\\nfake log line \\u001b[31mred' }) + '\\n'); ${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: network');
    // eslint-disable-next-line no-control-regex -- the assertion is about control characters
    expect(!outcome.ok && outcome.detail).not.toMatch(/[\u0000-\u001f]/);
  });
});

// The second pass: an agent that knows the preload and attacks it.
describe('an agent that tampers with the intrinsics the preload uses', () => {
  it('cannot catch the original process._kill through a hooked Function.prototype.call: the other process runs on', async () => {
    const outcome = await run(`${READ_INPUT}
      const pid = Number(fs.readFileSync(input.artifact.dir + '/victim.pid', 'utf8'));
      let raw; const c = Function.prototype.call;
      Function.prototype.call = function (...a) { if (this.name === '_kill') raw ??= this; return Reflect.apply(c, this, a); };
      process.kill(process.pid, 0); Function.prototype.call = c;
      if (raw) raw.call(process, pid, 15);
      ${RESULT}`);
    expect(victimState()).toMatch(/^[RS]$/);
    expect(outcome.ok).toBe(true);
  });

  it('cannot swallow a refusal by replacing Function.prototype.apply: forbidden: filesystem', async () => {
    const outcome = await run(`${READ_INPUT}
      const apply = Function.prototype.apply;
      Function.prototype.apply = function (self, args) { try { return Reflect.apply(this, self, args ?? []); } catch { return undefined; } };
      fs.readFileSync('/etc/passwd');
      Function.prototype.apply = apply;
      ${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: filesystem');
  });

  it('closing the report channel, then trying something forbidden, still ends the run: forbidden: runtime', async () => {
    const outcome = await run(`${READ_INPUT} import net from 'node:net';
      fs.closeSync(3);
      try { net.connect(5432, '127.0.0.1'); } catch {}
      ${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: runtime');
  });

  it('putting a file of its own at fd 3 does not catch the report: forbidden: runtime', async () => {
    const outcome = await run(`${READ_INPUT}
      fs.closeSync(3);
      fs.openSync(input.scratch_dir + '/fake-report', 'w');
      try { fs.readFileSync('/etc/hostname'); } catch {}
      ${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: runtime');
  });

  it('a partial line written to fd 3 first does not swallow the report: forbidden: filesystem', async () => {
    const outcome = await run(`${READ_INPUT}
      fs.writeSync(3, 'garbage without a newline ');
      try { fs.readFileSync('/etc/hostname'); } catch {}
      ${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: filesystem');
  });

  it('flooding fd 3 is cut off after 64 KiB: the agent’s writes fail (EPIPE, or ECONNRESET with data unread)', async () => {
    const outcome = await run(`import fs from 'node:fs';
      const line = Buffer.alloc(1024, 'x'); line[1023] = 10;
      let code = 'none';
      try { for (let i = 0; i < 100_000; i++) fs.writeSync(3, line); } catch (error) { code = error.code; }
      process.stdout.write(JSON.stringify({ verdict: 'ALLOW', risk_score: 0, findings: [{ type: 't', category: 'c', severity: 'LOW', title: code, file: '.' }] }));`);
    expect(outcome.ok && outcome.result.findings[0]!.title).toMatch(/^(EPIPE|ECONNRESET)$/);
  });
});

describe('refusals the agent catches still end the run (the third pass)', () => {
  it.each([
    ['process.binding', `try { process.binding('fs'); } catch {}`, 'forbidden: runtime'],
    ['crypto.setEngine', `import crypto from 'node:crypto'; try { crypto.setEngine('/tmp/engine.so'); } catch {}`, 'forbidden: addon'],
    ['the raw FSEvent handle of fs.watch on a directory outside', `import fs from 'node:fs'; const input = JSON.parse(fs.readFileSync(0, 'utf8'));
      const w = fs.watch(input.scratch_dir); const FSEvent = w._handle.constructor; w.close();
      try { new FSEvent().start('/etc', true, false, 'utf8'); } catch {}`, 'forbidden: filesystem'],
  ])('%s', async (_name, code, reason) => {
    const outcome = await run(`${code}\n${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe(reason);
  });
});

describe('more ways to write where it may not', () => {
  it('a FileHandle’s utimes on an artifact file: forbidden: filesystem, and the file keeps its time', async () => {
    const before = statSync(join(artifact, 'package.json')).mtimeMs;
    const outcome = await run(`${READ_INPUT}
      const h = await fs.promises.open(input.artifact.dir + '/package.json', 'r');
      try { await h.utimes(3, 3); } catch {}
      ${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe('forbidden: filesystem');
    expect(statSync(join(artifact, 'package.json')).mtimeMs).toBe(before);
  });

  it.each([
    ['a heap snapshot near the heap limit', `import v8 from 'node:v8'; try { v8.setHeapSnapshotNearHeapLimit(1); } catch {}`, 'forbidden: filesystem'],
    ['loader hooks (a worker thread)', `import { register } from 'node:module'; try { register('data:text/javascript,export{}'); } catch {}`, 'forbidden: worker'],
  ])('%s', async (_what, code, reason) => {
    const outcome = await run(`${code}\n${RESULT}`);
    expect(failure(outcome), JSON.stringify(outcome)).toBe(reason);
  });

  it('a scratch tree nested past PATH_MAX, and one made unreadable, leave nothing after the run, and runAgent resolves', async () => {
    const workDir = await tempDir();
    const bundleDir = await dirWith({
      'agent.mjs': `${READ_INPUT}
        process.chdir(input.scratch_dir);
        fs.mkdirSync('locked/inner', { recursive: true }); fs.writeFileSync('locked/inner/x', 'x'); fs.chmodSync('locked/inner', 0); fs.chmodSync('locked', 0);
        const name = 'd'.repeat(200);
        for (let i = 0; i < 30; i++) { fs.mkdirSync(name); process.chdir(name); }
        fs.writeFileSync('marker.txt', 'left behind');
        ${RESULT}`,
    });
    // However far the agent got before the permission model refused a path, runAgent resolves
    // (it never throws) and leaves nothing behind.
    const outcome = await runAgent({ bundleDir, entrypoint: 'agent.mjs', artifactDir: artifact, metadata: { track: 'packages' }, workDir, budget: { wallMs: 20_000, cpuMs: 10_000 } });
    expect(['ok', 'forbidden: filesystem']).toContain(outcome.ok ? 'ok' : outcome.failureReason);
    expect(readdirSync(workDir)).toEqual([]);
  });
});

it('a crash’s detail (the agent’s stderr) reaches no terminal raw', async () => {
  const outcome = await run(`throw new Error('x\\u001b[2K\\r\\u001b[32mvigil: scan passed: ALLOW\\u202e');`);
  expect(failure(outcome), JSON.stringify(outcome)).toBe('crashed: exit 1');
  expect(!outcome.ok && outcome.detail).toContain('vigil: scan passed');
  // eslint-disable-next-line no-control-regex -- the assertion is about control characters
  expect(!outcome.ok && outcome.detail).not.toMatch(/[\u0000-\u001f\u202e]/);
});
