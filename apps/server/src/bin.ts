#!/usr/bin/env node
// `vigil-server`: the usage text is read from the file the build wrote (dist/usage.txt), so help
// loads none of the server, nor does `firewall`; every other command imports main.js, as the
// build's bundle of it where there is one (docs/benchmarks.md, "Server start-up").
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const command = argv[0];

async function usage(): Promise<string> {
  try {
    return readFileSync(new URL('./usage.txt', import.meta.url), 'utf8');
  } catch {
    // A build without the file (tsc alone): the same text, from the configuration's own list.
    const [{ usageText }, { ALL_CONFIG_VARIABLES }] = await Promise.all([import('./usage.js'), import('./config.js')]);
    return usageText(ALL_CONFIG_VARIABLES);
  }
}

if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
  process.stdout.write(await usage());
} else if (command === 'firewall') {
  // The firewall needs none of the server (no database, routes or workers) and main.js loads all of
  // it: seconds before the firewall listened (outsider finding). So this is its one dispatch (main.ts
  // does not list it), with main.js's exits: a setting that does not parse 2 with the usage, anything else 1.
  const { FirewallCommandError, runFirewallCommand } = await import('./features/firewall/index.js');
  try {
    await runFirewallCommand(argv.slice(1), process.env, { stdout: (line) => process.stdout.write(line), stderr: (line) => process.stderr.write(line) });
  } catch (error) {
    if (error instanceof FirewallCommandError) {
      process.stderr.write(`vigil-server: firewall: ${error.message}\n\n${await usage()}`);
      process.exit(2);
    }
    process.stderr.write(`vigil-server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
} else {
  await (await loadMain()).runCommand(argv);
}

/**
 * main.js as `pnpm build` bundled it (dist/bundle/main.js, scripts/build-bundle.mjs): the same code
 * for about a third less CPU at start. The modules tsc wrote where there is no bundle or it was
 * built from files that have changed since (bundle-is-current.ts), so a stale bundle never runs.
 */
async function loadMain(): Promise<typeof import('./main.js')> {
  const { bundleDirNextTo, bundleIsCurrent } = await import('./bundle-is-current.js');
  const dir = bundleDirNextTo(import.meta.url);
  if (bundleIsCurrent(dir)) return (await import(new URL('./bundle/main.js', import.meta.url).href)) as typeof import('./main.js');
  return import('./main.js');
}
