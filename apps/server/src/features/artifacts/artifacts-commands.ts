import type { FeatureCommand } from '../../platform/commands/feature-command.js';
import { usageOf } from '../../platform/commands/feature-command.js';
import { ArtifactsCommandError, runArtifactsCommand } from './artifacts-command.js';
import { FactsCommandError, runFactsCommand } from './facts/facts-command.js';

/** `vigil-server facts …` and `artifacts …` (docs/cli.md). */
export const artifactsCommands: readonly FeatureCommand<{ artifactLimitBytes: number }>[] = [
  {
    names: ['facts'],
    error: { type: FactsCommandError, prefix: 'facts' },
    async run(flags, context) {
      const lines = await context.withMigratedDatabase((db) =>
        usageOf('facts', FactsCommandError, () => context.withBlobStore((blobs) => runFactsCommand(db, blobs, flags, Date.now))),
      );
      context.log(lines.join('\n'));
    },
  },
  {
    names: ['artifacts'],
    error: { type: ArtifactsCommandError, prefix: 'artifacts' },
    async run(flags, context) {
      const maxBytes = context.config().artifactLimitBytes;
      const code = await context.withMigratedDatabase((db) =>
        usageOf('artifacts', ArtifactsCommandError, () =>
          context.withBlobStore((blobs) => runArtifactsCommand({ db, blobs, maxBytes, now: Date.now, log: (line) => context.log(line) }, flags)),
        ),
      );
      if (code !== 0) context.setExitCode(code);
    },
  },
];
