import type { FeatureCommand } from '../../platform/commands/feature-command.js';
import { UsageError, usageOf } from '../../platform/commands/feature-command.js';
import { createMetagraphSource, exportMetagraphSnapshot } from './metagraph/index.js';
import type { MetagraphSettings } from './metagraph/create-metagraph.js';
import { runValidatorsCommand, ValidatorsCommandError } from './validators/validators-command.js';

/** `vigil-server validators …` and `metagraph export <file>` (docs/cli.md). */
export const networkCommands: readonly FeatureCommand<{ metagraph: MetagraphSettings }>[] = [
  {
    names: ['metagraph'],
    async run(flags, context) {
      if (flags[0] !== 'export' || flags.length !== 2) throw new UsageError('metagraph: expected export <file>');
      const config = context.config();
      const snapshot = await exportMetagraphSnapshot(createMetagraphSource(config.metagraph), flags[1]!);
      context.log(`saved netuid ${snapshot.netuid} at block ${snapshot.block}: ${snapshot.neurons.length} neurons to ${flags[1]}`);
    },
  },
  {
    names: ['validators'],
    error: { type: ValidatorsCommandError, prefix: 'validators' },
    async run(flags, context) {
      const lines = await context.withMigratedDatabase((db) => usageOf('validators', ValidatorsCommandError, () => runValidatorsCommand(db, flags, Date.now())));
      context.log(lines.join('\n'));
    },
  },
];
