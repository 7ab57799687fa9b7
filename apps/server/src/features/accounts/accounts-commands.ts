import type { FeatureCommand } from '../../platform/commands/feature-command.js';
import { usageOf } from '../../platform/commands/feature-command.js';
import { KeysCommandError, runKeysCommand } from './keys-command.js';

/** `vigil-server keys …` and its other name `accounts …` (docs/accounts.md). */
export const accountsCommands: readonly FeatureCommand<unknown>[] = [
  {
    names: ['keys', 'accounts'],
    error: { type: KeysCommandError, prefix: 'keys' },
    async run(flags, context, name) {
      const lines = await context.withMigratedDatabase((db) => usageOf(name, KeysCommandError, () => runKeysCommand(db, name as 'keys' | 'accounts', flags, Date.now())));
      context.log(lines.join('\n'));
    },
  },
];
