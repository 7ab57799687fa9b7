import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built command, as `npm i -g @vigil/cli` installs it: the tests run this file, not the sources. */
export const CLI_BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `vigil` with a clean environment: a fresh HOME (so no profile file of the machine is read)
 * and only the variables given, as a CI job would.
 */
export function vigil(args: string[], options: { env?: Record<string, string | undefined>; stdin?: string; home?: string } = {}): Promise<CliResult> {
  const ownHome = options.home === undefined;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'vigil-cli-home-'));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home };
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (ownHome) rmSync(home, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** stdout parsed as JSON, failing with what the command printed when it is not. */
export function json<T = Record<string, unknown>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
}

/**
 * Asks `check` every 50 ms until it answers something other than `undefined` or `false`, and
 * answers that; after `ms` an error naming `what`. Not a speed check: a hang guard.
 */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
