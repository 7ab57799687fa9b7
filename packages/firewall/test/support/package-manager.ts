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

/** The real Yarn 1 (1.22.22, from npm through npx) pointed at `registry`, with a cache of its own. */
export function yarnClassic(args: string[], cwd: string, registry: string): Promise<Run> {
  return runCommand('npx', ['-y', 'yarn@1.22.22', ...args, `--registry=${registry}/`, `--cache-folder=${mkdtempSync(join(tmpdir(), 'vigil-fw-yarn1-cache-'))}`, '--non-interactive', '--no-progress'], cwd, {
    npm_config_update_notifier: 'false',
  });
}

/**
 * The real Yarn 4 (`@yarnpkg/cli-dist` 4.18.1, from npm through npx) pointed at `registry` by its
 * own settings (`npmRegistryServer`, `unsafeHttpWhitelist`) from the environment, as `vigil yarn`
 * sets them, with a cache of its own and a node_modules layout.
 */
export function yarnBerry(args: string[], cwd: string, registry: string): Promise<Run> {
  return runCommand('npx', ['-y', '-p', '@yarnpkg/cli-dist@4.18.1', 'yarn', ...args], cwd, {
    npm_config_update_notifier: 'false',
    YARN_NPM_REGISTRY_SERVER: registry,
    YARN_UNSAFE_HTTP_WHITELIST: new URL(registry).hostname,
    YARN_ENABLE_GLOBAL_CACHE: 'false',
    YARN_CACHE_FOLDER: mkdtempSync(join(tmpdir(), 'vigil-fw-yarn4-cache-')),
    YARN_NODE_LINKER: 'node-modules',
    YARN_ENABLE_TELEMETRY: '0',
    YARN_ENABLE_IMMUTABLE_INSTALLS: 'false',
    YARN_ENABLE_PROGRESS_BARS: 'false',
    // Yarn 4's own cooldown ("quarantined" versions younger than a day): the test publishes just now.
    YARN_NPM_MINIMAL_AGE_GATE: '0',
  });
}

/** The real pip (`python3 -m pip`) installing into a directory of its own from `index` only, without its cache. */
export function pip(args: string[], cwd: string, index: string): Promise<Run> {
  return runCommand('python3', ['-m', 'pip', ...args, '--index-url', index, '--no-cache-dir', '--disable-pip-version-check', '--no-input', '--retries', '0', '--target', mkdtempSync(join(tmpdir(), 'vigil-fw-pip-target-'))], cwd, {
    PIP_CONFIG_FILE: '/dev/null',
  });
}
