import { relative, resolve } from 'node:path';
import { notAllowed, SBOM_OUTPUT_FORMATS, type SbomOutputFormat } from '@vigil/core';
import { Option, type Command } from 'commander';
import type { Dated } from '@vigil/client';
import type { SbomVerification } from '@vigil/core';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, readJson, type Context } from '../context.js';
import { CliError, verdictExit, type FailOn } from '../exit-codes.js';
import { pendingState } from '../pending-state.js';
import { failOnOption } from './verify.js';

/** An SBOM verification for people: verdict, summary, the dependencies not allowed (all with `allDependencies`), the components not verified. */
export function printSbomVerification(ctx: Context, verification: Dated<typeof SbomVerification>, allDependencies: boolean): void {
  const s = verification.summary;
  const sbom = verification.sbom;
  ctx.out.line(`${ctx.out.verdict(verification.verdict)} under policy ${verification.policy.name} v${verification.policy.version}${verification.complete ? '' : ctx.out.c.yellow(' (incomplete: pending dependencies)')}`);
  ctx.out.line(`${sbom.spec === 'cyclonedx' ? 'CycloneDX' : 'SPDX'} ${sbom.spec_version}${sbom.name === null ? '' : ` of ${sbom.name}${sbom.version === null ? '' : `@${sbom.version}`}`}`);
  ctx.out.line(`${s.components} components: ${s.verified} verified, ${s.without_purl} without purl, ${s.unsupported} unsupported`);
  ctx.out.line(`${s.packages} packages (${s.direct} direct): ${s.blocked} blocked, ${s.warned} warned, ${s.pending} pending, ${s.allowed} allowed`);
  const shown = verification.dependencies.filter((d) => allDependencies || notAllowed(d));
  if (shown.length > 0) {
    ctx.out.table(
      ['verdict', 'package', 'state', 'why', 'components'],
      shown.map((d) => [ctx.out.verdict(d.verdict), d.purl, d.state === 'pending' ? pendingState(String(d.queued), d.fetch) : `decided (${d.published_verdict})`, [...d.failed, ...d.warnings].join(', '), d.components.join(', ')]),
    );
  }
  if (verification.unverified.length > 0) {
    ctx.out.table(
      ['not verified', 'purl', 'why'],
      verification.unverified.map((u) => [u.name ?? u.ref, u.purl ?? '-', u.detail]),
    );
  }
}

/** `vigil sbom`: a CycloneDX or SPDX SBOM verified (docs/sbom.md), gated by verdict as `verify-repo` is. */
export function registerSbom(program: Command, kit: Kit): void {
  examples(
    program
      .command('sbom <file>')
      .description('verify every npm and PyPI component of a CycloneDX 1.5/1.6 or SPDX 2.3 JSON SBOM (- reads standard input) against a policy (POST /v1/sboms/verify); a table, or --format json, cyclonedx (VEX) or sarif; paid plan')
      .addOption(new Option('--format <format>', 'print the answer as json, cyclonedx (a CycloneDX 1.6 VEX document) or sarif (SARIF 2.1.0) instead of a table').argParser(choiceArg('--format', SBOM_OUTPUT_FORMATS)))
      .option('--policy <name>', "the organization's policy to apply (default: the built-in default)")
      .option('--sbom-path <path>', "with --format sarif: the SBOM's path in the repository for each result's location (default: <file> relative to the current directory)")
      .option('--all-dependencies', 'list allowed dependencies too (the table lists the others by default)')
      .addOption(failOnOption())
      .action(
        action(kit, async (ctx, file: string, opts: { format?: SbomOutputFormat; policy?: string; sbomPath?: string; allDependencies?: boolean; failOn: FailOn }) => {
          const document = await readJson(ctx.io, file, 'file');
          if (typeof document !== 'object' || document === null || Array.isArray(document)) {
            throw new CliError(`file: ${file === '-' ? 'standard input' : file} is not a JSON object (an SBOM is one document)`);
          }
          const sbom = document as Record<string, unknown>;
          const vigil = await ctx.customer();
          const policy = opts.policy !== undefined ? { policy: opts.policy } : {};
          if (opts.format === 'cyclonedx' || opts.format === 'sarif') {
            const sbomPath = opts.sbomPath ?? (file === '-' ? undefined : relative(process.cwd(), resolve(file)).split('\\').join('/'));
            const answer = await ctx.withProgress(`verifying ${file} on ${vigil.baseUrl}`, () => vigil.sboms.verifyAs(sbom, opts.format as 'cyclonedx' | 'sarif', { ...policy, ...(sbomPath ? { sbomPath } : {}) }));
            ctx.out.printJson(answer.document);
            return verdictExit(answer.verdict, opts.failOn);
          }
          const verification = await ctx.withProgress(`verifying ${file} on ${vigil.baseUrl}`, () => vigil.sboms.verify(sbom, policy));
          if (opts.format === 'json') ctx.out.printJson(ctx.recorder.last);
          else ctx.emit(() => printSbomVerification(ctx, verification, opts.allDependencies === true));
          return verdictExit(verification.verdict, opts.failOn);
        }),
      ),
    [
      'vigil sbom bom.json',
      'vigil sbom bom.json --policy prod-only --fail-on block',
      'npx @cyclonedx/cyclonedx-npm --output-file - | vigil sbom - --json',
      'vigil sbom sbom.spdx.json --format sarif > vigil.sarif   # then upload with github/codeql-action/upload-sarif',
      'vigil sbom bom.json --format cyclonedx > vigil.vex.json',
    ],
  );
}
