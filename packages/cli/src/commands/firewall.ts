import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DecisionLogEntry, FirewallMode, FirewallOptions, WarnAction } from '@vigil/firewall';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import type { Context } from '../context.js';
import { CliError, UsageError } from '../exit-codes.js';

/** A repeatable option's values, in order. */
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const MODES: readonly FirewallMode[] = ['fail-open', 'fail-closed', 'wait'];
const WARNS: readonly WarnAction[] = ['allow', 'block'];
const DEFAULT_UPSTREAM = 'https://registry.npmjs.org';
const DEFAULT_PYPI_UPSTREAM = 'https://pypi.org/simple';
type Tool = 'npm' | 'pnpm' | 'yarn' | 'pip';

/** The firewall settings of a command line, each falling back to its VIGIL_FIREWALL_* variable (docs/firewall.md). */
interface FirewallFlags {
  port?: string;
  host?: string;
  npmUpstream?: string;
  npmScope?: string[];
  pypiUpstream?: string[];
  report?: boolean;
  policy?: string;
  mode?: string;
  waitSeconds?: string;
  warn?: string;
  cooldownHours?: string;
  log?: string;
}

function numberSetting(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${name}: expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}

function choiceSetting<T extends string>(name: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`${name}: expected one of ${choices.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

function upstreamSetting(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name}: expected an http:// or https:// URL, got ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) throw new UsageError(`${name}: expected an http:// or https:// URL without query or fragment, got ${JSON.stringify(value)}`);
  return url.href;
}

/** `@corp=https://npm.corp.example` entries (flags, or the comma-separated variable) as the firewall's `npmScopes`. */
function scopeSetting(name: string, entries: string[]): Record<string, string> {
  const scopes: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const scope = entry.slice(0, at).trim();
    if (at < 0 || !/^@[a-z0-9~-][a-z0-9._~-]*$/i.test(scope)) throw new UsageError(`${name}: expected @scope=<registry url>, got ${JSON.stringify(entry)}`);
    if (scope in scopes) throw new UsageError(`${name}: ${scope} given twice`);
    scopes[scope] = upstreamSetting(name, entry.slice(at + 1).trim());
  }
  return scopes;
}

/** A comma-separated variable's entries, blanks dropped. */
const listOf = (text: string | undefined): string[] | undefined => (text === undefined ? undefined : text.split(',').map((e) => e.trim()).filter((e) => e !== ''));

/** The flags, else the environment (`VIGIL_FIREWALL_MODE`, …), else the defaults; checked before anything starts. */
function settings(ctx: Context, flags: FirewallFlags): { options: Omit<FirewallOptions, 'vigilUrl' | 'apiKey'>; port: number; host: string; log: string | undefined; logName: string } {
  const env = ctx.io.env;
  // A variable that is empty or only whitespace counts as unset (docs/cli.md).
  const pick = (flag: string | undefined, variable: string) => flag ?? (env[variable]?.trim() ? env[variable] : undefined);
  const mode = choiceSetting(flags.mode !== undefined ? '--mode' : 'VIGIL_FIREWALL_MODE', pick(flags.mode, 'VIGIL_FIREWALL_MODE'), MODES);
  const warn = choiceSetting(flags.warn !== undefined ? '--warn' : 'VIGIL_FIREWALL_WARN', pick(flags.warn, 'VIGIL_FIREWALL_WARN'), WARNS);
  const waitSeconds = numberSetting(flags.waitSeconds !== undefined ? '--wait-seconds' : 'VIGIL_FIREWALL_WAIT_SECONDS', pick(flags.waitSeconds, 'VIGIL_FIREWALL_WAIT_SECONDS'), 0, 3600);
  const cooldownHours = numberSetting(flags.cooldownHours !== undefined ? '--cooldown-hours' : 'VIGIL_FIREWALL_COOLDOWN_HOURS', pick(flags.cooldownHours, 'VIGIL_FIREWALL_COOLDOWN_HOURS'), 0, 8760);
  const upstreamName = flags.npmUpstream !== undefined ? '--npm-upstream' : 'VIGIL_FIREWALL_NPM_UPSTREAM';
  const npmUpstream = upstreamSetting(upstreamName, pick(flags.npmUpstream, 'VIGIL_FIREWALL_NPM_UPSTREAM') ?? DEFAULT_UPSTREAM);
  const pypiName = flags.pypiUpstream !== undefined ? '--pypi-upstream' : 'VIGIL_FIREWALL_PYPI_UPSTREAM';
  const pypiUpstream = (flags.pypiUpstream ?? listOf(pick(undefined, 'VIGIL_FIREWALL_PYPI_UPSTREAM')) ?? [DEFAULT_PYPI_UPSTREAM]).map((u) => upstreamSetting(pypiName, u));
  const scopeName = flags.npmScope !== undefined ? '--npm-scope' : 'VIGIL_FIREWALL_NPM_SCOPES';
  const npmScopes = scopeSetting(scopeName, flags.npmScope ?? listOf(pick(undefined, 'VIGIL_FIREWALL_NPM_SCOPES')) ?? []);
  const reportText = pick(undefined, 'VIGIL_FIREWALL_REPORT');
  if (reportText !== undefined && reportText !== 'true' && reportText !== 'false') throw new UsageError(`VIGIL_FIREWALL_REPORT: expected true or false, got ${JSON.stringify(reportText)}`);
  const reportDecisions = flags.report === true || reportText === 'true';
  const policy = pick(flags.policy, 'VIGIL_FIREWALL_POLICY');
  const port = numberSetting('--port', flags.port, 0, 65535) ?? 0;
  if (!Number.isInteger(port)) throw new UsageError(`--port: expected an integer from 0 to 65535, got ${JSON.stringify(flags.port)}`);
  return {
    options: {
      npmUpstream,
      npmScopes,
      pypiUpstream: pypiUpstream.length === 1 ? pypiUpstream[0]! : pypiUpstream,
      reportDecisions,
      ...(policy !== undefined ? { policy } : {}),
      ...(mode ? { mode } : {}),
      ...(warn ? { warn } : {}),
      ...(waitSeconds !== undefined ? { waitSeconds } : {}),
      ...(cooldownHours !== undefined ? { cooldownHours } : {}),
    },
    port,
    host: flags.host ?? '127.0.0.1',
    log: pick(flags.log, 'VIGIL_FIREWALL_LOG'),
    logName: flags.log !== undefined ? '--log' : 'VIGIL_FIREWALL_LOG',
  };
}

/** Starts the firewall with the connection of `ctx` (a token is required: the firewall asks Vigil with it). */
async function start(ctx: Context, flags: FirewallFlags, writeLog: (line: string) => void) {
  const chosen = settings(ctx, flags);
  const { baseUrl, token } = await ctx.connect();
  if (token === null) throw new UsageError('the firewall needs an API token (a paid plan with the verify scope): pass --token, set VIGIL_API_TOKEN, or run vigil login');
  const log = chosen.log;
  const sink = log === undefined ? writeLog : (line: string) => appendFileSync(log, line);
  if (log !== undefined) {
    try {
      appendFileSync(log, '');
    } catch (err) {
      throw new CliError(`${chosen.logName}: cannot write ${log}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  // Imported here: the firewall's code loads only for these commands.
  const { startFirewall } = await import('@vigil/firewall');
  try {
    const firewall = await startFirewall(
      {
        ...chosen.options,
        vigilUrl: baseUrl,
        apiKey: token,
        onDecision: (entry: DecisionLogEntry) => sink(`${JSON.stringify(entry)}\n`),
        onReportDropped: (why: string, count: number) => ctx.io.stderr(`vigil: firewall: ${count} decision(s) not reported to Vigil: ${why}\n`),
      },
      { port: chosen.port, host: chosen.host },
    );
    return { firewall, settings: chosen };
  } catch (err) {
    if (err instanceof TypeError) throw new UsageError(err.message.replace(/^policy:/, flags.policy !== undefined ? '--policy:' : 'VIGIL_FIREWALL_POLICY:'));
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`cannot listen on ${chosen.host}:${chosen.port}: ${code ?? (err as Error).message}`);
  }
}

/** An upstream as the banners print it: without the `/` URL parsing adds to a bare host. */
function shown(upstream: string | string[] | null | undefined): string {
  return (Array.isArray(upstream) ? upstream : [String(upstream)]).map((u) => u.replace(/\/$/, '')).join(', then ');
}

/** The environment that points each package manager at `registry` (docs/firewall.md "Pointing package managers at it"). */
export function registryEnvironment(tool: Tool, registry: string): Record<string, string> {
  const slash = `${registry}/`;
  if (tool === 'pip') return { PIP_INDEX_URL: `${registry}/pypi/simple/` };
  const host = new URL(registry).hostname;
  const common = { npm_config_registry: slash };
  if (tool === 'npm') return { ...common, npm_config_replace_registry_host: 'always' };
  if (tool === 'pnpm') return common;
  // Yarn 1 reads YARN_REGISTRY (and npm_config_registry); Yarn 2+ reads YARN_NPM_REGISTRY_SERVER and refuses plain http unless whitelisted.
  return { ...common, YARN_REGISTRY: slash, YARN_NPM_REGISTRY_SERVER: registry, YARN_UNSAFE_HTTP_WHITELIST: host };
}

function runTool(tool: string, args: string[], env: Record<string, string | undefined>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
    // Ctrl-C reaches the package manager from the terminal: wait for it to end rather than dying first.
    const ignore = () => {};
    process.on('SIGINT', ignore);
    child.once('error', (err: NodeJS.ErrnoException) => {
      process.off('SIGINT', ignore);
      reject(err.code === 'ENOENT' ? new CliError(`${tool}: not found on PATH`) : err);
    });
    child.once('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : signal === 'SIGKILL' ? 9 : 1));
    });
  });
}

/** The lockfiles that record tarball URLs (npm's, and Yarn 1's), relative to the directory the tool ran in. */
const URL_LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', join('node_modules', '.package-lock.json'), 'yarn.lock'];

/**
 * The private firewall's address is gone once the command ends: tarball URLs recorded through it
 * are written back to the upstream's, so the lockfile is the one a direct install writes.
 */
export function restoreLockfileUrls(dir: string, firewallUrl: string, upstream: string, yarnUpstream: string = upstream, scopes: Record<string, string> = {}): string[] {
  const changed: string[] = [];
  for (const name of URL_LOCKFILES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    if (!text.includes(`${firewallUrl}/`)) continue;
    const to = name === 'yarn.lock' ? yarnUpstream : upstream;
    const slash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
    // A scope's packages came from the scope's registry (`--npm-scope`), the rest from the upstream.
    let restored = text;
    for (const [scope, registry] of Object.entries(scopes)) restored = restored.split(`${firewallUrl}/${scope}/`).join(`${slash(registry)}${scope}/`);
    writeFileSync(path, restored.split(`${firewallUrl}/`).join(slash(to)));
    changed.push(name);
  }
  return changed;
}

/** Hosts Yarn 1 writes for the public registry: with it as the upstream, both are the upstream. */
const PUBLIC_NPM = ['https://registry.npmjs.org/', 'https://registry.yarnpkg.com/'];

/**
 * Yarn 1 fetches a yarn.lock's `resolved` URL as written, whatever registry is configured: before
 * `vigil yarn` runs, the upstream's tarball URLs in ./yarn.lock are pointed at the firewall (and
 * written back afterwards by restoreLockfileUrls, to the host this answers), so a locked install is decided like a fresh one
 * instead of fetching from the upstream directly (outsider F2). Yarn 2+ lockfiles record no URLs.
 */
export function pointYarnLockAtFirewall(dir: string, firewallUrl: string, upstream: string): string {
  const path = join(dir, 'yarn.lock');
  const base = upstream.endsWith('/') ? upstream : `${upstream}/`;
  if (!existsSync(path)) return base;
  const text = readFileSync(path, 'utf8');
  const hosts = PUBLIC_NPM.includes(base) ? PUBLIC_NPM : [base];
  let changed = text;
  for (const host of hosts) changed = changed.split(`resolved "${host}`).join(`resolved "${firewallUrl}/`);
  if (changed !== text) writeFileSync(path, changed);
  // Written back with the host the lockfile used: Yarn 1 records the public registry as registry.yarnpkg.com.
  return hosts.length > 1 && text.includes(`resolved "${PUBLIC_NPM[1]}`) ? PUBLIC_NPM[1]! : base;
}

function registerWrapper(program: Command, kit: Kit, tool: Tool): void {
  examples(
    program
      .command(tool)
      .description(`runs ${tool} with every argument after "${tool}" passed as it is, its registry pointed at a private firewall on a loopback port for this one command; exits with ${tool}'s exit status (settings: the VIGIL_FIREWALL_* variables)`)
      .usage('[args...]')
      .action(
        action(kit, async (ctx) => {
          const args = kit.state.toolArgs ?? [];
          const { firewall, settings: chosen } = await start(ctx, {}, (line) => ctx.io.stderr(`vigil: firewall: ${line}`));
          try {
            ctx.io.stderr(`vigil: ${tool} through the Vigil firewall at ${firewall.url} (upstream ${shown(tool === 'pip' ? chosen.options.pypiUpstream : chosen.options.npmUpstream)})\n`);
            const env = { ...ctx.io.env, ...registryEnvironment(tool, firewall.url) };
            const yarnUpstream = tool === 'yarn' ? pointYarnLockAtFirewall(process.cwd(), firewall.url, chosen.options.npmUpstream) : chosen.options.npmUpstream;
            try {
              return await runTool(tool, args, env);
            } finally {
              // Also when the tool could not be run: the lockfile never keeps the private port.
              restoreLockfileUrls(process.cwd(), firewall.url, chosen.options.npmUpstream, yarnUpstream, chosen.options.npmScopes);
            }
          } finally {
            await firewall.close();
          }
        }),
      ),
    tool === 'pip'
      ? ['vigil pip install requests', 'VIGIL_FIREWALL_MODE=wait vigil pip install -r requirements.txt']
      : [`vigil ${tool} ${tool === 'npm' ? 'install left-pad' : 'add left-pad'}`, `VIGIL_FIREWALL_MODE=wait vigil ${tool} install`],
  );
}

/** `vigil firewall` and the wrappers `vigil npm`, `vigil pnpm`, `vigil yarn` (docs/firewall.md). */
export function registerFirewall(program: Command, kit: Kit): void {
  examples(
    program
      .command('firewall')
      .description('runs the registry firewall until Ctrl-C: an npm registry (in front of --npm-upstream) and a PyPI simple index (/pypi/simple/, in front of --pypi-upstream) that hide and refuse the versions Vigil blocks')
      .option('--port <n>', 'port to listen on (0: one the system chooses; default 0)')
      .option('--host <address>', 'address to listen on (default 127.0.0.1)')
      .option('--npm-upstream <url>', `the npm registry in front of which it stands (env VIGIL_FIREWALL_NPM_UPSTREAM; default ${DEFAULT_UPSTREAM})`)
      .option('--npm-scope <@scope=url>', 'read the packages of a scope from another npm registry (repeatable; env VIGIL_FIREWALL_NPM_SCOPES, comma-separated)', collect)
      .option('--pypi-upstream <url>', `a PyPI simple index in front of which it stands, served under /pypi/simple/; repeat it for several, asked in order: a project comes from the first that has it (env VIGIL_FIREWALL_PYPI_UPSTREAM, comma-separated; default ${DEFAULT_PYPI_UPSTREAM})`, collect)
      .option('--report', "report each decision to the key's account (POST /v1/firewall/decisions), counted on the dashboard's Firewall page (env VIGIL_FIREWALL_REPORT=true)")
      .option('--policy <name>', "a policy of the key's organization that decides each download (POST /v1/policies/evaluate; the key needs the policies scope) (env VIGIL_FIREWALL_POLICY; default: Vigil's published verdict)")
      .option('--mode <mode>', 'undecided versions, and every version while Vigil cannot be asked: fail-open, fail-closed or wait (env VIGIL_FIREWALL_MODE; default fail-closed)')
      .option('--wait-seconds <n>', 'with --mode wait: how long a download waits for a verdict, 0-3600 (env VIGIL_FIREWALL_WAIT_SECONDS; default 30)')
      .option('--warn <action>', 'versions whose verdict is WARN: allow or block (env VIGIL_FIREWALL_WARN; default allow)')
      .option('--cooldown-hours <n>', 'hide versions published less than this many hours ago, 0-8760 (env VIGIL_FIREWALL_COOLDOWN_HOURS; default 0: off)')
      .option('--log <file>', 'append the decision log (JSON lines) to this file instead of standard output (env VIGIL_FIREWALL_LOG)')
      .action(
        action(kit, async (ctx, flags: FirewallFlags) => {
          const { firewall, settings: chosen } = await start(ctx, flags, (line) => ctx.io.stdout(line));
          const mode = chosen.options.mode ?? 'fail-closed';
          ctx.io.stderr(`vigil: firewall listening on ${firewall.url} (upstream ${shown(chosen.options.npmUpstream)}, mode ${mode}); point npm at it: npm config set registry ${firewall.url}/\n`);
          ctx.io.stderr(`vigil: PyPI simple index at ${firewall.url}/pypi/simple/ (upstream ${shown(chosen.options.pypiUpstream)}); point pip at it: pip config set global.index-url ${firewall.url}/pypi/simple/\n`);
          await (ctx.io.interrupted ? ctx.io.interrupted() : new Promise<void>(() => {}));
          await firewall.close();
          ctx.io.stderr('vigil: firewall stopped\n');
        }),
      ),
    ['vigil firewall --port 4873 --mode wait --wait-seconds 60', 'vigil firewall --npm-upstream https://npm.internal.example --cooldown-hours 48 --log decisions.jsonl'],
  );
  registerWrapper(program, kit, 'npm');
  registerWrapper(program, kit, 'pnpm');
  registerWrapper(program, kit, 'yarn');
  registerWrapper(program, kit, 'pip');
}
