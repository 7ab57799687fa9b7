import type { FeatureCommand } from '../../platform/commands/feature-command.js';
import { UsageError } from '../../platform/commands/feature-command.js';
import { reindexSearch } from './reindex-search.js';

/** `vigil-server search reindex` (docs/search.md). */
export const searchCommands: readonly FeatureCommand<unknown>[] = [
  {
    names: ['search'],
    async run(flags, context) {
      if (flags.length !== 1 || flags[0] !== 'reindex') throw new UsageError('search: expected reindex');
      const result = await context.withMigratedDatabase((db) => reindexSearch(db, Date.now()));
      context.log(`indexed ${result.artifacts} artifacts and ${result.attestations} attestations`);
    },
  },
];
