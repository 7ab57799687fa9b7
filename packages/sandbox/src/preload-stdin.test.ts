import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dirWith } from './test-support/temp-dirs.js';

// The preload makes process.stdin before the agent runs, which turns fd 0 non-blocking: an agent's
// `fs.readFileSync(0)` then failed with EAGAIN whenever its input reached the pipe after the read
// began (the runner writes right after spawning, so only a loaded machine showed it, as
// `crashed: exit 1`). Here the input is written late on purpose.
const PRELOAD = pathToFileURL(fileURLToPath(new URL('./sandbox-preload.mjs', import.meta.url))).href;

function runLate(code: string, delayMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return dirWith({ 'agent.mjs': code }).then(
    (dir) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [`--import=${PRELOAD}`, `${dir}/agent.mjs`], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        (child.stdio[3] as NodeJS.ReadableStream).resume();
        setTimeout(() => child.stdin.write('{"artifact":'), delayMs);
        setTimeout(() => child.stdin.end('{"dir":"/x"}}\n'), delayMs * 2);
        child.on('close', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
      }),
  );
}

describe('an agent reading its input under the preload, when the input arrives late', () => {
  it('reads it whole with fs.readFileSync(0)', async () => {
    const outcome = await runLate(`import fs from 'node:fs'; const input = JSON.parse(fs.readFileSync(0, 'utf8')); process.stdout.write(input.artifact.dir);`, 400);
    expect(outcome, outcome.stderr).toMatchObject({ code: 0, stdout: '/x' });
  });

  it('reads it whole from process.stdin as a stream', async () => {
    const outcome = await runLate(`let text = ''; process.stdin.setEncoding('utf8'); for await (const chunk of process.stdin) text += chunk; process.stdout.write(JSON.parse(text).artifact.dir);`, 400);
    expect(outcome, outcome.stderr).toMatchObject({ code: 0, stdout: '/x' });
  });
});
