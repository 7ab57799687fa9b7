import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, whatever its exit code. */
export function runCommand(file: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env }, maxBuffer: 32 * 1024 * 1024, timeout: 170_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The real npm pointed at `registry` by its environment, as `vigil npm` does: a fresh cache each
 * run (a cached tarball would never reach the firewall), no retries (a refusal is final), no audit.
 */
export function npm(args: string[], cwd: string, registry: string, extra: Record<string, string> = {}): Promise<Run> {
  return runCommand('npm', args, cwd, {
    npm_config_registry: `${registry}/`,
    npm_config_cache: mkdtempSync(join(tmpdir(), 'vigil-fw-npm-cache-')),
    npm_config_userconfig: join(cwd, '.npmrc-none'),
    npm_config_fetch_retries: '0',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  });
}

/**
 * The real pnpm (10.34.8, the workspace's) pointed at `registry` by its flags (npx itself must keep
 * fetching pnpm from the machine's npm registry and cache), with a store of its own.
 */
export function pnpm(args: string[], cwd: string, registry: string): Promise<Run> {
  const own = [`--registry=${registry}/`, `--store-dir=${mkdtempSync(join(tmpdir(), 'vigil-fw-pnpm-store-'))}`, `--cache-dir=${mkdtempSync(join(tmpdir(), 'vigil-fw-pnpm-cache-'))}`, '--config.fetch-retries=0'];
  return runCommand('npx', ['-y', 'pnpm@10.34.8', ...args, ...own], cwd, { npm_config_update_notifier: 'false' });
}
