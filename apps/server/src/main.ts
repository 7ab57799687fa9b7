import { BlobsCommandError, runBlobsCommand } from './platform/blobs/blobs-command.js';
import type { CommandContext, FeatureCommand } from './platform/commands/feature-command.js';
import { ALL_CONFIG_VARIABLES, ConfigError, loadConfig, type Config } from './config.js';
import { usageText } from './usage.js';
import { commands as accountsCommands } from './features/accounts/index.js';
import { commands as artifactsCommands } from './features/artifacts/index.js';
import { commands as networkCommands } from './features/network/index.js';
import { commands as policiesCommands } from './features/policies/index.js';
import { commands as registriesCommands } from './features/registries/index.js';
import { commands as searchCommands } from './features/search/index.js';
import { countRounds, log, migrate, migrateAndRebuild, seedDemo, UsageError, withBlobStore, withDatabase } from './commands.js';
import { createRuntime } from './runtime.js';
import { serve } from './serve.js';
import { worker } from './worker.js';

// argv → command: the usage and the dispatch; `serve` and `worker` build the process's one runtime.
const USAGE = usageText(ALL_CONFIG_VARIABLES);

/**
 * The commands features own (`keys`, `validators`, `facts`, …); `serve`, `worker`, `migrate`, `seed`
 * and `blobs` are the process's own. `firewall` is not here: bin.ts runs it without importing this
 * module, which loads the whole server (docs/benchmarks.md).
 */
const FEATURE_COMMANDS: readonly FeatureCommand<Config>[] = [
  ...networkCommands,
  ...registriesCommands,
  ...searchCommands,
  ...policiesCommands,
  ...artifactsCommands,
  ...accountsCommands,
];

/** What a feature's command runs with: the configuration read once, on first use. */
function commandContext(): CommandContext<Config> {
  let loaded: Config | undefined;
  const config = () => (loaded ??= loadConfig());
  return {
    config,
    withMigratedDatabase: (work) =>
      withDatabase(config(), async (database) => {
        await migrate(database, config());
        return work(database.db);
      }),
    withBlobStore: (work) => withBlobStore(config(), work),
    log,
    setExitCode: (code) => {
      process.exitCode = code;
    },
  };
}

function expectFlags(command: string, flags: string[], allowed: string[]): void {
  const unknown = flags.filter((f) => !allowed.includes(f));
  if (unknown.length > 0) throw new UsageError(`${command}: unknown option ${unknown[0]}`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...flags] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  switch (command) {
    case 'serve': {
      expectFlags(command, flags, ['--seed-demo-if-empty']);
      await serve(await createRuntime(loadConfig()), { seedDemoIfEmpty: flags.includes('--seed-demo-if-empty') });
      return;
    }
    case 'migrate': {
      expectFlags(command, flags, []);
      const config = loadConfig();
      const lines = await withDatabase(config, (database) => migrateAndRebuild(database, config));
      log(lines.length === 0 ? 'database is up to date' : lines.join('\n'));
      return;
    }
    case 'seed': {
      if (flags.length !== 1 || flags[0] !== '--demo') throw new UsageError('seed: expected --demo');
      const config = loadConfig();
      await withDatabase(config, async (database) => {
        await migrate(database, config);
        const rounds = await countRounds(database);
        if (rounds > 0) throw new Error(`seed --demo: the database already has ${rounds} round(s); the demo needs an empty one`);
        await withBlobStore(config, (blobs) => seedDemo(database, config, blobs));
      });
      return;
    }
    case 'worker': {
      expectFlags(command, flags, []);
      await worker(await createRuntime(loadConfig()));
      return;
    }
    case 'blobs': {
      // Only VIGIL_DATA_DIR of the configuration matters; the target is on the command line.
      const config = loadConfig();
      const code = await runBlobsCommand(flags, {
        dataDir: config.dataDir,
        env: process.env,
        progress: (line) => process.stderr.write(`${line}\n`),
        log,
      });
      if (code !== 0) process.exitCode = code;
      return;
    }
    default: {
      const owned = FEATURE_COMMANDS.find((c) => c.names.includes(command));
      if (owned === undefined) throw new UsageError(`unknown command: ${command}`);
      await owned.run(flags, commandContext(), command);
      return;
    }
  }
}

/** Runs one `vigil-server` command line (bin.ts imports this module for every command but help). */
export function runCommand(argv: string[]): Promise<void> {
  return main(argv).catch((error: unknown) => {
    if (error instanceof BlobsCommandError && error.usage) error = new UsageError(`blobs: ${error.message}`);
    if (error instanceof UsageError) {
      process.stderr.write(`vigil-server: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`vigil-server: ${error.message}\n`);
      process.exit(1);
    }
    // A command's own error class names the command in front of its message.
    const prefixes: [new (...args: never[]) => Error, string][] = [
      ...FEATURE_COMMANDS.flatMap((c) => (c.error ? [[c.error.type, c.error.prefix] as [new (...args: never[]) => Error, string]] : [])),
      [BlobsCommandError, 'blobs'],
    ];
    const prefix = prefixes.find(([type]) => error instanceof type)?.[1];
    const text = error instanceof Error ? error.message : String(error);
    const message = prefix === undefined ? text : `${prefix}: ${text}`;
    process.stderr.write(`vigil-server: ${message}\n`);
    process.exit(1);
  });
}
