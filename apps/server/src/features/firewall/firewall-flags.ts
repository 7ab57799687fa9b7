import type { FirewallOptions } from '@vigil/firewall';
import { envText, type Env } from '../../platform/config/env.js';

/** A command line `vigil-server firewall` cannot run: the usage and exit 2. */
export class FirewallCommandError extends Error {
  override name = 'FirewallCommandError';
}

export interface FirewallCommandSettings {
  options: Omit<FirewallOptions, 'onDecision' | 'onReportDropped'>;
  port: number;
  host: string;
  /** The decision log's file; undefined: standard output. */
  log: string | undefined;
}

const VALUE_FLAGS = ['--port', '--host', '--vigil-url', '--npm-upstream', '--npm-scope', '--pypi-upstream', '--policy', '--mode', '--wait-seconds', '--warn', '--cooldown-hours', '--dashboard-url', '--log'] as const;
const REPEATABLE = new Set(['--npm-scope', '--pypi-upstream']);

function number(flag: string, text: string, min: number, max: number, integer = false): number {
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) throw new FirewallCommandError(`${flag}: expected ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return n;
}

/**
 * Reads `vigil-server firewall`'s command line (docs/operations.md "The team firewall"): every
 * setting a flag, the anonymous callers' key from `VIGIL_FIREWALL_ANONYMOUS_KEY` (a secret stays
 * out of the process list). Values the firewall itself checks (URLs, the policy name) are checked
 * when it starts, naming the setting.
 */
export function readFirewallFlags(args: readonly string[], env: Env): FirewallCommandSettings {
  const values = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const eq = flag.indexOf('=');
    const name = flag.startsWith('--') && eq > 0 ? flag.slice(0, eq) : flag;
    if (!(VALUE_FLAGS as readonly string[]).includes(name)) throw new FirewallCommandError(`unknown option ${flag}`);
    const value = eq > 0 && flag.startsWith('--') ? flag.slice(eq + 1) : args[++i];
    if (value === undefined || value === '') throw new FirewallCommandError(`${name}: expected a value`);
    if (values.has(name) && !REPEATABLE.has(name)) throw new FirewallCommandError(`${name}: given twice`);
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  const one = (flag: string) => values.get(flag)?.[0];
  const npmScopes: Record<string, string> = {};
  for (const entry of values.get('--npm-scope') ?? []) {
    const at = entry.indexOf('=');
    if (at < 0) throw new FirewallCommandError(`--npm-scope: expected @scope=<registry url>, got ${JSON.stringify(entry)}`);
    const scope = entry.slice(0, at);
    if (scope in npmScopes) throw new FirewallCommandError(`--npm-scope: ${scope} given twice`);
    npmScopes[scope] = entry.slice(at + 1);
  }
  const mode = one('--mode');
  if (mode !== undefined && !['fail-open', 'fail-closed', 'wait'].includes(mode)) throw new FirewallCommandError(`--mode: expected one of fail-open, fail-closed, wait, got ${JSON.stringify(mode)}`);
  const warn = one('--warn');
  if (warn !== undefined && warn !== 'allow' && warn !== 'block') throw new FirewallCommandError(`--warn: expected allow or block, got ${JSON.stringify(warn)}`);
  const anonymousKey = envText(env, 'VIGIL_FIREWALL_ANONYMOUS_KEY');
  const waitSeconds = one('--wait-seconds');
  const cooldownHours = one('--cooldown-hours');
  const policy = one('--policy');
  const dashboardUrl = one('--dashboard-url');
  const pypi = values.get('--pypi-upstream');
  return {
    options: {
      npmUpstream: one('--npm-upstream') ?? 'https://registry.npmjs.org',
      npmScopes,
      pypiUpstream: pypi ?? 'https://pypi.org/simple',
      // The deployment's own API: where this process runs beside `vigil-server serve`.
      vigilUrl: one('--vigil-url') ?? `http://127.0.0.1:${envText(env, 'PORT') ?? '8080'}`,
      callerKeys: true,
      reportDecisions: true,
      ...(anonymousKey !== undefined ? { apiKey: anonymousKey } : {}),
      ...(policy !== undefined ? { policy } : {}),
      ...(mode !== undefined ? { mode: mode as 'fail-open' | 'fail-closed' | 'wait' } : {}),
      ...(warn !== undefined ? { warn } : {}),
      ...(waitSeconds !== undefined ? { waitSeconds: number('--wait-seconds', waitSeconds, 0, 3600) } : {}),
      ...(cooldownHours !== undefined ? { cooldownHours: number('--cooldown-hours', cooldownHours, 0, 8760) } : {}),
      ...(dashboardUrl !== undefined ? { dashboardUrl } : {}),
    },
    port: one('--port') === undefined ? 4873 : number('--port', one('--port')!, 0, 65535, true),
    host: one('--host') ?? '127.0.0.1',
    log: one('--log'),
  };
}
