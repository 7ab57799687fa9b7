import type { FeatureCommand } from '../../platform/commands/feature-command.js';
import { usageOf } from '../../platform/commands/feature-command.js';
import { AdvisoriesCommandError, runAdvisoriesCommand } from './advisories/advisories-command.js';

/** `vigil-server advisories …` (docs/cli.md). */
export const policiesCommands: readonly FeatureCommand<unknown>[] = [
  {
    names: ['advisories'],
    error: { type: AdvisoriesCommandError, prefix: 'advisories' },
    async run(flags, context) {
      const output = await context.withMigratedDatabase((db) => usageOf('advisories', AdvisoriesCommandError, () => runAdvisoriesCommand(db, flags, Date.now)));
      context.log(output.lines.join('\n'));
      if (output.exitCode !== 0) context.setExitCode(output.exitCode);
    },
  },
];
