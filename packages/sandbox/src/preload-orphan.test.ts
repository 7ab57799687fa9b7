import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dirWith } from './test-support/temp-dirs.js';

// `setpriv --pdeathsig` covers a runner that dies once setpriv has run; a runner SIGKILLed between
// the spawn and that moment (found on a loaded machine: "agent … outlived its runner") left the agent
// running as an orphan. The preload reads the runner's pid from its URL and ends an agent whose
// parent is someone else, before the agent's code runs.
const PRELOAD = pathToFileURL(fileURLToPath(new URL('./sandbox-preload.mjs', import.meta.url))).href;

function run(runner: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  return dirWith({ 'agent.mjs': `process.stdout.write('agent ran');` }).then(
    (dir) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [`--import=${PRELOAD}?runner=${runner}`, `${dir}/agent.mjs`], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        (child.stdio[3] as NodeJS.ReadableStream).resume();
        child.stdin.end('{}\n');
        child.on('close', (code, signal) => resolve({ code, signal, stdout }));
      }),
  );
}

describe('the preload, given the runner pid', () => {
  it('runs the agent when its parent is the runner', async () => {
    expect(await run(process.pid)).toMatchObject({ code: 0, stdout: 'agent ran' });
  });

  it('kills the agent before its code runs when its parent is not the runner (the runner died before the parent-death signal was set)', async () => {
    // A pid that is not this process: the agent's parent (this process) is then "not the runner".
    expect(await run(process.pid + 1_000_000)).toMatchObject({ code: null, signal: 'SIGKILL', stdout: '' });
  });
});
