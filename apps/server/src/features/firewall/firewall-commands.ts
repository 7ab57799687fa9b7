import type { FeatureCommand } from '../../platform/commands/feature-command.js';
import { UsageError } from '../../platform/commands/feature-command.js';
import { runFirewallCommand } from './firewall-command.js';
import { FirewallCommandError } from './firewall-flags.js';

/** `vigil-server firewall` (docs/firewall.md, "vigil-server firewall: the team firewall"). */
export const firewallCommands: readonly FeatureCommand<unknown>[] = [
  {
    names: ['firewall'],
    async run(flags) {
      // No database: the firewall asks the deployment's API with each caller's key (docs/operations.md).
      // Every error of its settings is a command line or environment that does not parse: usage, exit 2.
      try {
        await runFirewallCommand(flags, process.env, { stdout: (line) => process.stdout.write(line), stderr: (line) => process.stderr.write(line) });
      } catch (error) {
        if (error instanceof FirewallCommandError) throw new UsageError(`firewall: ${error.message}`);
        throw error;
      }
    },
  },
];
