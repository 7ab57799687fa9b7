import type { FeatureCommand } from '../../platform/commands/feature-command.js';
import { usageOf } from '../../platform/commands/feature-command.js';
import type { RegistryFetchSettings } from './fetch-settings.js';
import { RegistriesCommandError, runRegistriesCommand } from './registries-command.js';

/** `vigil-server registries …` (docs/cli.md). */
export const registriesCommands: readonly FeatureCommand<{ registries: RegistryFetchSettings }>[] = [
  {
    names: ['registries'],
    error: { type: RegistriesCommandError, prefix: 'registries' },
    async run(flags, context) {
      const watching = context.config().registries.enabled;
      const lines = await context.withMigratedDatabase((db) =>
        usageOf('registries', RegistriesCommandError, () => runRegistriesCommand(db, flags, Date.now(), { watching })),
      );
      context.log(lines.join('\n'));
    },
  },
];
