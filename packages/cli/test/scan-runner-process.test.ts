import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSandboxLayers } from '@vigil/sandbox';
import { AGENT_BUNDLE_FORMAT } from '@vigil/core';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from './support/cli.js';

/** [pid, parent pid, state letter] of every process /proc shows. */
function processes(): Array<[number, number, string]> {
  const rows: Array<[number, number, string]> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      rows.push([Number(name), Number(fields[1]), fields[0]!]);
    } catch {
      // gone meanwhile
    }
  }
  return rows;
}

function bundle(dir: string, name: string, code: string): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ format: AGENT_BUNDLE_FORMAT, entrypoint: 'agent.mjs', files: [{ path: 'agent.mjs', content_base64: Buffer.from(code).toString('base64') }] }));
  return path;
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function artifact(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-scan-process-'));
  made.push(dir);
  mkdirSync(join(dir, 'pkg'));
  writeFileSync(join(dir, 'pkg', 'package.json'), '{"name":"plain","version":"1.0.0"}\n');
  return dir;
}

/** The scan's agent: its child running node under the permission model, once the exec chain is done. */
function agentOf(scanPid: number | undefined): number | undefined {
  return processes().find(([pid, ppid]) => {
    if (ppid !== scanPid) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('permission');
    } catch {
      return false; // a probe that ended meanwhile
    }
  })?.[0];
}

/** Waits up to 30 s for the scan's agent to be running and returns its pid. */
async function agentStarted(scanPid: number | undefined): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const agent = agentOf(scanPid);
    if (agent !== undefined) return agent;
    await sleep(100);
  }
  throw new Error('the agent never started');
}

const alive = (pid: number) => processes().some(([p, , state]) => p === pid && state !== 'Z');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A validator or `vigil scan` killed mid-run (SIGKILL, the OOM killer) has no chance to stop its
// agent: the kernel must, or the agent idles on, unbounded by the dead runner's wall clock.
const layers = await detectSandboxLayers();
if (layers.setpriv === null) console.warn('[sandbox] no usable `setpriv --pdeathsig` here: an agent outliving its killed runner is not tested');

describe.skipIf(layers.setpriv === null)('a runner killed mid-run', () => {
  it('takes its agent with it', { timeout: 60_000 }, async () => {
    const dir = artifact();
    const idle = bundle(dir, 'idle.bundle.json', 'setInterval(() => {}, 1000);\n');
    // A scan killed outright cannot remove its temporary directory: keep it inside ours.
    const scan = spawn(process.execPath, [CLI_BIN, 'scan', join(dir, 'pkg'), '--agent', idle, '--budget-wall-ms', '50000'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, TMPDIR: dir },
      stdio: 'ignore',
    });
    let agent: number | undefined;
    try {
      agent = await agentStarted(scan.pid);
      scan.kill('SIGKILL');
      // Up to a minute (a fixed 5 s is short on a loaded two-core machine); a live agent still fails below.
      for (const end = Date.now() + 60_000; Date.now() < end && alive(agent!); ) await sleep(100);
      expect(alive(agent!), `agent ${agent} outlived its runner`).toBe(false);
    } finally {
      scan.kill('SIGKILL');
      if (agent !== undefined && alive(agent)) process.kill(agent, 'SIGKILL');
    }
  });
});

describe.skipIf(process.platform !== 'linux')('Ctrl-C during a scan', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s stops the agent, removes the scan’s files and exits 130', { timeout: 60_000 }, async (signal) => {
    const dir = artifact();
    const tmp = mkdtempSync(join(tmpdir(), 'vigil-scan-tmp-'));
    made.push(tmp);
    const idle = bundle(dir, 'idle.bundle.json', 'setInterval(() => {}, 1000);\n');
    const scan = spawn(process.execPath, [CLI_BIN, 'scan', join(dir, 'pkg'), '--agent', idle, '--budget-wall-ms', '50000'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, TMPDIR: tmp },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    scan.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const closed = new Promise<number | null>((resolve) => scan.on('close', resolve));
    let agent: number | undefined;
    try {
      agent = await agentStarted(scan.pid);
      scan.kill(signal);
      expect(await closed).toBe(130);
      expect(stderr).toContain('vigil: interrupted: the agent run was stopped and its files removed');
      expect(alive(agent!)).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      scan.kill('SIGKILL');
      if (agent !== undefined && alive(agent)) process.kill(agent, 'SIGKILL');
    }
  });
});

// Whatever started the validator may hand it descriptors without close-on-exec (a shell's pipe, a
// supervisor's socket); the agent must not inherit them and talk to whoever holds the other end.
describe.skipIf(process.platform !== 'linux')('a descriptor the runner inherited', () => {
  it('is /dev/null (read-only) in the agent: nothing it writes reaches the other end', { timeout: 60_000 }, async () => {
    const dir = artifact();
    const probe = bundle(
      dir,
      'probe.bundle.json',
      `import fs from 'node:fs';
      let wrote;
      try { fs.writeSync(20, 'leaked by the agent\\n'); wrote = 'wrote'; } catch (error) { wrote = error.code; }
      let read;
      try { read = String(fs.readSync(20, Buffer.alloc(64))); } catch (error) { read = error.code; }
      process.stdout.write(JSON.stringify({ verdict: 'ALLOW', risk_score: 0, findings: [{ type: 'probe', category: 'probe', severity: 'LOW', title: wrote + ' ' + read, file: '.' }] }));
      `,
    );
    // fd 20 of the scan process: a pipe the test holds the other end of, as a parent shell would.
    // (Low descriptors are no test: Node takes 3 to about 10 over for itself at startup.)
    const stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe'];
    while (stdio.length < 20) stdio.push('ignore');
    stdio.push('pipe');
    const scan = spawn(process.execPath, [CLI_BIN, 'scan', join(dir, 'pkg'), '--agent', probe, '--json'], { env: { PATH: process.env.PATH ?? '', HOME: dir }, stdio });
    let stdout = '';
    let leaked = '';
    scan.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    (scan.stdio as unknown as NodeJS.ReadableStream[])[20]!.on('data', (c: Buffer) => (leaked += c.toString()));
    const code = await new Promise((resolve) => scan.on('close', resolve));
    expect(code, stdout).toBe(0);
    expect(leaked).toBe('');
    // Read-only /dev/null: the write is refused, a read finds end of file.
    expect((JSON.parse(stdout) as { findings: Array<{ title: string }> }).findings[0]!.title).toBe('EBADF 0');
  });
});
