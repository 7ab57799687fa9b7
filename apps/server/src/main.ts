import { BlobsCommandError, runBlobsCommand } from './platform/blobs/blobs-command.js';
import { ALL_CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';
import { usageText } from './usage.js';
import { createMetagraphSource, exportMetagraphSnapshot } from './features/network/index.js';
import { runValidatorsCommand, ValidatorsCommandError } from './features/network/index.js';
import { KeysCommandError, runKeysCommand } from './features/accounts/index.js';
import { AdvisoriesCommandError, runAdvisoriesCommand } from './features/policies/index.js';
import { FactsCommandError, runFactsCommand } from './features/artifacts/index.js';
import { ArtifactsCommandError, runArtifactsCommand } from './features/artifacts/index.js';
import { reindexSearch } from './features/search/index.js';
import { RegistriesCommandError, runRegistriesCommand } from './features/registries/index.js';
import { FirewallCommandError, runFirewallCommand } from './features/firewall/index.js';
import { countRounds, log, migrate, migrateAndRebuild, seedDemo, UsageError, withBlobStore, withDatabase } from './commands.js';
import { createRuntime } from './runtime.js';
import { serve } from './serve.js';
import { worker } from './worker.js';

// argv → command: the usage and the dispatch; `serve` and `worker` build the process's one runtime.
const USAGE = usageText(ALL_CONFIG_VARIABLES);

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
    case 'metagraph': {
      if (flags[0] !== 'export' || flags.length !== 2) throw new UsageError('metagraph: expected export <file>');
      const config = loadConfig();
      const snapshot = await exportMetagraphSnapshot(createMetagraphSource(config.metagraph), flags[1]!);
      log(`saved netuid ${snapshot.netuid} at block ${snapshot.block}: ${snapshot.neurons.length} neurons to ${flags[1]}`);
      return;
    }
    case 'validators': {
      const config = loadConfig();
      const lines = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await runValidatorsCommand(database.db, flags, Date.now());
        } catch (error) {
          if (error instanceof ValidatorsCommandError && error.usage) throw new UsageError(`validators: ${error.message}`);
          throw error;
        }
      });
      log(lines.join('\n'));
      return;
    }
    case 'registries': {
      const config = loadConfig();
      const lines = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await runRegistriesCommand(database.db, flags, Date.now(), { watching: config.registries.enabled });
        } catch (error) {
          if (error instanceof RegistriesCommandError && error.usage) throw new UsageError(`registries: ${error.message}`);
          throw error;
        }
      });
      log(lines.join('\n'));
      return;
    }
    case 'search': {
      if (flags.length !== 1 || flags[0] !== 'reindex') throw new UsageError('search: expected reindex');
      const config = loadConfig();
      const result = await withDatabase(config, async (database) => {
        await migrate(database, config);
        return reindexSearch(database.db, Date.now());
      });
      log(`indexed ${result.artifacts} artifacts and ${result.attestations} attestations`);
      return;
    }
    case 'advisories': {
      const config = loadConfig();
      const output = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await runAdvisoriesCommand(database.db, flags, Date.now);
        } catch (error) {
          if (error instanceof AdvisoriesCommandError && error.usage) throw new UsageError(`advisories: ${error.message}`);
          throw error;
        }
      });
      log(output.lines.join('\n'));
      if (output.exitCode !== 0) process.exitCode = output.exitCode;
      return;
    }
    case 'facts': {
      const config = loadConfig();
      const lines = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await withBlobStore(config, (blobs) => runFactsCommand(database.db, blobs, flags, Date.now));
        } catch (error) {
          if (error instanceof FactsCommandError && error.usage) throw new UsageError(`facts: ${error.message}`);
          throw error;
        }
      });
      log(lines.join('\n'));
      return;
    }
    case 'artifacts': {
      const config = loadConfig();
      const code = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await withBlobStore(config, (blobs) =>
            runArtifactsCommand({ db: database.db, blobs, maxBytes: config.artifactLimitBytes, now: Date.now, log }, flags),
          );
        } catch (error) {
          if (error instanceof ArtifactsCommandError && error.usage) throw new UsageError(`artifacts: ${error.message}`);
          throw error;
        }
      });
      if (code !== 0) process.exitCode = code;
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
    case 'firewall': {
      // No database: the firewall asks the deployment's API with each caller's key (docs/operations.md).
      try {
        await runFirewallCommand(flags, process.env, { stdout: (line) => process.stdout.write(line), stderr: (line) => process.stderr.write(line) });
      } catch (error) {
        if (error instanceof FirewallCommandError) throw new UsageError(`firewall: ${error.message}`);
        throw error;
      }
      return;
    }
    case 'keys':
    case 'accounts': {
      const config = loadConfig();
      const lines = await withDatabase(config, async (database) => {
        await migrate(database, config);
        try {
          return await runKeysCommand(database.db, command, flags, Date.now());
        } catch (error) {
          if (error instanceof KeysCommandError && error.usage) throw new UsageError(`${command}: ${error.message}`);
          throw error;
        }
      });
      log(lines.join('\n'));
      return;
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
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
      [ValidatorsCommandError, 'validators'],
      [AdvisoriesCommandError, 'advisories'],
      [FactsCommandError, 'facts'],
      [ArtifactsCommandError, 'artifacts'],
      [KeysCommandError, 'keys'],
      [RegistriesCommandError, 'registries'],
      [BlobsCommandError, 'blobs'],
    ];
    const prefix = prefixes.find(([type]) => error instanceof type)?.[1];
    const text = error instanceof Error ? error.message : String(error);
    const message = prefix === undefined ? text : `${prefix}: ${text}`;
    process.stderr.write(`vigil-server: ${message}\n`);
    process.exit(1);
  });
}
