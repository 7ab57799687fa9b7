import { appendFileSync } from 'node:fs';
import type { DecisionLogEntry } from '@vigil/firewall';
import type { Env } from '../../platform/config/env.js';
import { FirewallCommandError, readFirewallFlags } from './firewall-flags.js';

/**
 * `vigil-server firewall` (docs/operations.md "The team firewall"): the registry firewall of
 * @vigil/firewall for a team. Each caller is decided with its own Vigil API key, over this
 * deployment's HTTP API (the firewall runs as its own process, beside or apart from `serve`, and
 * holds no database connection); its decisions are reported to that key's account. Runs until
 * SIGTERM or SIGINT, then stops listening, reports what is queued, and resolves.
 */
export async function runFirewallCommand(args: readonly string[], env: Env, io: { stdout: (line: string) => void; stderr: (line: string) => void }): Promise<void> {
  const settings = readFirewallFlags(args, env);
  const log = settings.log;
  if (log !== undefined) {
    try {
      appendFileSync(log, '');
    } catch (error) {
      throw new Error(`firewall: --log: cannot write ${log}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  const write = log === undefined ? io.stdout : (line: string) => appendFileSync(log, line);
  const { startFirewall } = await import('@vigil/firewall');
  let firewall;
  try {
    firewall = await startFirewall(
      {
        ...settings.options,
        onDecision: (entry: DecisionLogEntry) => write(`${JSON.stringify(entry)}\n`),
        onReportDropped: (why, count) => io.stderr(`vigil-server: firewall: ${count} decision(s) not reported to Vigil: ${why}\n`),
      },
      { port: settings.port, host: settings.host },
    );
  } catch (error) {
    // A setting the firewall refused names itself (`npmScopes[@corp]: not a URL …`).
    if (error instanceof TypeError) throw new FirewallCommandError(error.message);
    throw new Error(`firewall: cannot listen on ${settings.host}:${settings.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const o = settings.options;
  // Credentials in an upstream's URL (`https://user:token@npm.corp.example`) stay out of the banner.
  const shown = (url: string) => url.replace(/\/\/[^/@]*@/, '//');
  const scopes = Object.entries(o.npmScopes ?? {}).map(([scope, url]) => `, ${scope} from ${shown(url)}`).join('');
  const pypi = (Array.isArray(o.pypiUpstream) ? o.pypiUpstream : [String(o.pypiUpstream)]).map(shown).join(', then ');
  io.stderr(
    `vigil-server: firewall listening on ${firewall.url} (npm from ${shown(o.npmUpstream)}${scopes}; PyPI from ${pypi}; Vigil at ${o.vigilUrl}; ` +
      `callers without a key: ${o.apiKey === undefined ? 'refused (401)' : 'decided with VIGIL_FIREWALL_ANONYMOUS_KEY'})\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await firewall.close();
}
