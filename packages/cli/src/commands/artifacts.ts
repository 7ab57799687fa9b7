import { stat } from 'node:fs/promises';
import { fileFromPath } from '@vigil/client/node';
import type { Track } from '@vigil/core';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { type Context } from '../context.js';
import { CliError } from '../exit-codes.js';
import { when } from '../output.js';
import { trackOption } from './public-reads.js';

type Detail = Awaited<ReturnType<Awaited<ReturnType<Context['customer']>>['artifacts']['get']>>;

function printDetail(ctx: Context, a: Detail): void {
  ctx.out.fields([
    ['artifact', a.id],
    ['track', a.track],
    ['sha256', a.sha256],
    ['size', a.size === null ? null : `${a.size} bytes`],
    ['packages', a.packages.map((p) => p.purl).join(', ')],
    ['state', a.state],
    ['verdict', a.verdict ? `${ctx.out.verdict(a.verdict.verdict)} (risk ${a.verdict.risk_score}, round ${a.verdict.round_id})` : 'pending'],
    ['attestations', a.attestations.length],
    ['findings', a.findings_withheld ? 'withheld on the free plan' : (a.findings?.length ?? 0)],
    ['uploaded', when(a.created_at)],
  ]);
}

/** Artifacts (docs/artifacts.md): upload bytes, read one. */
export function registerArtifacts(program: Command, kit: Kit): void {
  const artifacts = program.command('artifacts').alias('artifact').description('artifacts: upload bytes for evaluation, read one');
  examples(
    artifacts
      .command('upload <file>')
      .description('uploads an artifact (a package tarball, a skill, an MCP server…) under a package reference (POST /v1/artifacts; scope upload)')
      .addOption(trackOption().makeOptionMandatory())
      .requiredOption('--package <purl>', 'the package reference the bytes are (pkg:npm/left-pad@1.3.0)')
      .action(
        action(kit, async (ctx, file: string, opts: { track: Track; package: string }) => {
          const vigil = await ctx.customer();
          let blob: Blob;
          try {
            blob = await fileFromPath(file);
          } catch (err) {
            const code = (err as NodeJS.ErrnoException).code;
            throw new CliError(`<file>: cannot read ${file}: ${code ?? (err as Error).message.replace(/^path: /, '')}`);
          }
          const size = (await stat(file)).size;
          const a = await ctx.withProgress(`uploading ${file} (${size} bytes) to ${vigil.baseUrl}`, () => vigil.artifacts.upload({ track: opts.track, package: opts.package, file: blob }));
          ctx.emit(() => printDetail(ctx, a));
        }),
      ),
    ['vigil artifacts upload left-pad-1.3.0.tgz --track packages --package pkg:npm/left-pad@1.3.0'],
  );
  examples(
    artifacts
      .command('get <id>')
      .description('an artifact with its verdict, attestations and findings (GET /v1/artifacts/{id})')
      .action(
        action(kit, async (ctx, id: string) => {
          const a = await (await ctx.customer()).artifacts.get(id);
          ctx.emit(() => printDetail(ctx, a));
        }),
      ),
    ['vigil artifacts get 42', 'vigil artifacts get 42 --json | jq .verdict'],
  );
}
