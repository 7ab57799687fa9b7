import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSandboxLayers } from '@vigil/agents';
import { AGENT_BUNDLE_FORMAT } from '@vigil/core';
import { describe, expect, it } from 'vitest';
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

const alive = (pid: number) => processes().some(([p, , state]) => p === pid && state !== 'Z');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A validator or `vigil scan` killed mid-run (SIGKILL, the OOM killer) has no chance to stop its
// agent: the kernel must, or the agent idles on, unbounded by the dead runner's wall clock.
const layers = await detectSandboxLayers();
if (layers.setpriv === null) console.warn('[sandbox] no usable `setpriv --pdeathsig` here: an agent outliving its killed runner is not tested');

describe.skipIf(layers.setpriv === null)('a runner killed mid-run', () => {
  it('takes its agent with it', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-scan-killed-'));
    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg', 'package.json'), '{"name":"plain","version":"1.0.0"}\n');
    const idle = Buffer.from('setInterval(() => {}, 1000);\n').toString('base64');
    writeFileSync(join(dir, 'idle.bundle.json'), JSON.stringify({ format: AGENT_BUNDLE_FORMAT, entrypoint: 'agent.mjs', files: [{ path: 'agent.mjs', content_base64: idle }] }));
    const scan = spawn(process.execPath, [CLI_BIN, 'scan', join(dir, 'pkg'), '--agent', join(dir, 'idle.bundle.json'), '--budget-wall-ms', '50000'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      stdio: 'ignore',
    });
    let agent: number | undefined;
    try {
      for (let i = 0; i < 300 && agent === undefined; i++) {
        await sleep(100);
        // The agent is the scan's child once prlimit/unshare have exec'd into node.
        agent = processes().find(([pid, ppid]) => ppid === scan.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('permission'))?.[0];
      }
      expect(agent, 'the agent never started').toBeDefined();
      scan.kill('SIGKILL');
      for (let i = 0; i < 50 && alive(agent!); i++) await sleep(100);
      expect(alive(agent!), `agent ${agent} outlived its runner`).toBe(false);
    } finally {
      scan.kill('SIGKILL');
      if (agent !== undefined && alive(agent)) process.kill(agent, 'SIGKILL');
    }
  });
});
