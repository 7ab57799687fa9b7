import { stat } from 'node:fs/promises';
import { fileFromPath } from '@vigil/client/node';
import type { ProvenanceUpload, Track } from '@vigil/core';
import type { Command } from 'commander';
import { pageOptions, readPages, sdkPageOptions, type PageFlags } from '../pages.js';
import { action, examples, type Kit } from '../command-kit.js';
import { readJson, type Context } from '../context.js';
import { CliError, UsageError } from '../exit-codes.js';
import { short, when } from '../output.js';
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

/** Artifacts (docs/artifacts.md, docs/package-facts.md): upload bytes, look them up, their facts and provenance. */
export function registerArtifacts(program: Command, kit: Kit): void {
  const artifacts = program.command('artifacts').alias('artifact').description('artifacts: upload bytes for evaluation, look them up, read one, its package facts, attach provenance');
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
            throw new CliError(`file: cannot read ${file}: ${code ?? (err as Error).message.replace(/^path: /, '')}`);
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
  examples(
    pageOptions(
      artifacts
        .command('list')
        .description('the artifacts uploaded under a package reference, or with a content hash (GET /v1/artifacts?purl= or ?sha256=)')
        .option('--purl <purl>', 'a package reference (pkg:npm/left-pad@1.3.0 or npm:left-pad@1.3.0)')
        .option('--sha256 <hash>', 'a content hash, sha256:<64 hex>'),
    ).action(
      action(kit, async (ctx, flags: PageFlags & { purl?: string; sha256?: string }) => {
        if ((flags.purl === undefined) === (flags.sha256 === undefined)) throw new UsageError('give one of --purl and --sha256');
        const vigil = await ctx.customer();
        const pages = flags.purl !== undefined ? vigil.artifacts.getByPurl(flags.purl, sdkPageOptions(flags)) : vigil.artifacts.getByHash(flags.sha256!, sdkPageOptions(flags));
        const { items, raw } = await readPages(ctx, pages, 'artifacts', flags);
        ctx.emit(
          () => ctx.out.table(['artifact', 'track', 'sha256', 'state', 'verdict', 'uploaded'], items.map((a) => [a.id, a.track, short(a.sha256, 23), a.state, ctx.out.verdict(a.verdict?.verdict), when(a.created_at)])),
          raw,
        );
      }),
    ),
    ['vigil artifacts list --purl pkg:npm/left-pad@1.3.0', 'vigil artifacts list --sha256 sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 --json'],
  );
  examples(
    artifacts
      .command('facts <id>')
      .description("an artifact's package facts: declared license, install scripts, registry provenance (GET /v1/artifacts/{id}/facts)")
      .action(
        action(kit, async (ctx, id: string) => {
          const f = await (await ctx.customer()).artifacts.facts(id);
          ctx.emit(() =>
            ctx.out.fields([
              ['artifact', f.artifact_id],
              ['kind', f.kind],
              ['license', f.license === null ? null : `${f.license}${f.license_source ? ` (${f.license_source})` : ''}`],
              ['install scripts', f.install_scripts.length === 0 ? 'none' : f.install_scripts.join('; ')],
              ['registry provenance', f.registry_provenance],
              ['published', when(f.published_at)],
              ['provenance', f.provenance === null ? null : `${f.provenance.status}: ${f.provenance.subject}${f.provenance.source_repository ? ` from ${f.provenance.source_repository}` : ''}`],
            ]),
          );
        }),
      ),
    ['vigil artifacts facts art_42', 'vigil artifacts facts art_42 --json | jq .install_scripts'],
  );
  examples(
    artifacts
      .command('provenance <id> <file>')
      .description('attaches a Sigstore bundle or the npm registry\'s attestations document to an artifact, verified by the server against its bytes; "-" reads standard input (POST /v1/artifacts/{id}/provenance; scope upload)')
      .action(
        action(kit, async (ctx, id: string, file: string) => {
          // Sent as read: the server checks the bundle and says why one does not verify.
          const document = (await readJson(ctx.io, file, 'file')) as ProvenanceUpload;
          const p = await (await ctx.customer()).artifacts.provenance(id, document);
          ctx.emit(() =>
            ctx.out.fields([
              ['artifact', p.artifact_id],
              ['status', p.status],
              ['subject', p.subject],
              ['source repository', p.source_repository],
              ['logged', when(p.logged_at)],
            ]),
          );
        }),
      ),
    ['vigil artifacts provenance art_42 left-pad-1.3.0.sigstore.json', 'curl -s https://registry.npmjs.org/-/npm/v1/attestations/left-pad@1.3.0 | vigil artifacts provenance art_42 -'],
  );
}
