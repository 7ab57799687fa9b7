import { resolve } from 'node:path';
import { MAX_VERIFY_BATCH, notAllowed } from '@vigil/core';
import { Option, type Command } from 'commander';
import type { Dated } from '@vigil/client';
import type { RepositoryVerification } from '@vigil/core';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, packageRefArg, type Context } from '../context.js';
import { CliError, EXIT, UsageError, verdictExit, worstVerdict, type FailOn } from '../exit-codes.js';
import { findLockfiles, MAX_LOCKFILES_PER_REQUEST, readLockfiles, type FoundLockfile } from '../lockfiles.js';
import { when } from '../output.js';
import { toSarif } from '../sarif.js';
import type { PendingShape } from '../wait-plan.js';
import { pendingState } from '../pending-state.js';
import { VERSION } from '../version.js';
import { waitForVerdicts, type WaitOutcome } from '../wait-loop.js';
import { DEFAULT_WAIT_TIMEOUT_MS, formatElapsed, parseDuration } from '../wait-plan.js';

export const failOnOption = () =>
  new Option('--fail-on <level>', 'the verdict that fails the command: warn (exit 4 on WARN, 5 on BLOCK) or block (exit 5 on BLOCK only)').argParser(choiceArg('--fail-on', ['warn', 'block'] as const)).default('warn');

interface WaitFlags {
  wait?: boolean;
  timeout?: number;
}

/** `--wait` and `--timeout` (docs/cli.md, "Waiting for verdicts"). */
function waitOptions(command: Command): Command {
  return command
    .option('--wait', 'ask again until every pending answer is decided, its fetch failed, or nothing will decide it (progress on stderr)')
    .option('--timeout <duration>', `with --wait: give up after this long (90, 90s, 10m, 2h; default ${DEFAULT_WAIT_TIMEOUT_MS / 60_000}m) and print the answers as they are`, parseDuration);
}

/** The `--wait` loop when asked for; without it, the first answer as it is. Null when Ctrl-C stopped it (exit 130). */
async function maybeWait<T>(ctx: Context, flags: WaitFlags, first: T, poll: (signal: AbortSignal) => Promise<T>, answers: (answer: T) => readonly PendingShape[]): Promise<T | null> {
  if (flags.wait !== true) return first;
  const timeoutMs = flags.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
  const outcome: WaitOutcome<T> = await waitForVerdicts({ ctx, timeoutMs, first, poll, answers });
  if (outcome.kind === 'interrupted') {
    ctx.io.stderr('vigil: interrupted: stopped waiting; nothing printed\n');
    return null;
  }
  if (outcome.kind === 'timeout') ctx.io.stderr(`vigil: timed out after ${formatElapsed(timeoutMs)}: still ${outcome.summary}\n`);
  return outcome.answer;
}

/** A repository verification for people: verdict, summary, files, and the dependencies not allowed (all with `allDependencies`). */
export function printVerification(ctx: Context, verification: Dated<typeof RepositoryVerification>, allDependencies: boolean): void {
  const s = verification.summary;
  ctx.out.line(`${ctx.out.verdict(verification.verdict)} under policy ${verification.policy.name} v${verification.policy.version}${verification.complete ? '' : ctx.out.c.yellow(' (incomplete: pending dependencies)')}`);
  ctx.out.line(`${s.packages} packages (${s.direct} direct): ${s.blocked} blocked, ${s.warned} warned, ${s.pending} pending, ${s.allowed} allowed; ${s.skipped} entries skipped`);
  ctx.out.table(['lockfile', 'format', 'packages', 'direct', 'dev', 'skipped'], verification.files.map((f) => [f.path, `${f.format}${f.format_version ? ` ${f.format_version}` : ''}`, f.packages, f.direct, f.dev, f.skipped.length]));
  const shown = verification.dependencies.filter((d) => allDependencies || notAllowed(d));
  if (shown.length > 0) {
    ctx.out.table(
      ['verdict', 'package', 'state', 'why', 'lockfiles'],
      shown.map((d) => [ctx.out.verdict(d.verdict), d.purl, d.state === 'pending' ? pendingState(String(d.queued), d.fetch) : `decided (${d.published_verdict})`, [...d.failed, ...d.warnings].join(', '), d.files.join(', ')]),
    );
  }
}

/** Package and repository verification (docs/artifacts.md, docs/repositories.md), gated by verdict. */
export function registerVerify(program: Command, kit: Kit): void {
  examples(
    waitOptions(
      program
        .command('verify <purl...>')
        .description(`Vigil's verdict for packages (POST /v1/artifacts/verify; several: /verify/batch, at most ${MAX_VERIFY_BATCH}); paid plan`)
        .addOption(failOnOption()),
    ).action(
        action(kit, async (ctx, refs: string[], opts: { failOn: FailOn } & WaitFlags) => {
          if (refs.length > MAX_VERIFY_BATCH) throw new UsageError(`purl: at most ${MAX_VERIFY_BATCH} references per call, got ${refs.length}`);
          for (const ref of refs) packageRefArg('purl', ref);
          if (opts.timeout !== undefined && opts.wait !== true) throw new UsageError('--timeout: only with --wait');
          const vigil = await ctx.customer();
          const ask = async (signal?: AbortSignal) => (refs.length === 1 ? [await vigil.artifacts.verify(refs[0]!, signal ? { signal } : undefined)] : (await vigil.artifacts.verifyBatch(refs, signal ? { signal } : undefined)).results);
          const results = await maybeWait(ctx, opts, await ask(), ask, (r) => r);
          if (results === null) return EXIT.interrupted;
          ctx.emit(() =>
            ctx.out.table(
              ['artifact', 'state', 'verdict', 'risk', 'decided', 'attestations'],
              results.map((r) => [r.artifact, r.state === 'pending' ? ctx.out.c.yellow(pendingState(r.queued ? 'queued' : 'not uploaded', r.fetch)) : r.state, ctx.out.verdict(r.verdict), r.risk_score, when(r.decided_at), r.attestations.length]),
            ),
          );
          // A package without a verdict is never allowed: pending counts as WARN.
          return verdictExit(worstVerdict(results.map((r) => (r.state === 'pending' || r.verdict === null ? 'WARN' : r.verdict))), opts.failOn);
        }),
      ),
    ['vigil verify pkg:npm/left-pad@1.3.0', 'vigil verify npm:lodash@4.17.21 pypi:requests@2.32.3 --fail-on block', 'vigil verify pkg:npm/left-pad@1.3.0 --wait --timeout 5m', 'vigil verify pkg:npm/left-pad@1.3.0 --json | jq .verdict'],
  );

  examples(
    waitOptions(
      program
        .command('verify-repo [dir]')
        .description('find the lockfiles of a local checkout, verify every dependency against a policy (POST /v1/repositories/verify), print a table, --json or --sarif; paid plan')
        .option('--policy <name>', "the organization's policy to apply (default: the built-in default)")
        .option('--lockfile <path...>', 'send these lockfiles (relative to dir) instead of searching for them')
        .option('--sarif', 'print SARIF 2.1.0 for GitHub code scanning instead of a table')
        .option('--all-dependencies', 'list allowed dependencies too (the table lists the others by default)')
        .addOption(failOnOption()),
    ).action(
        action(kit, async (ctx, dir: string | undefined, opts: { policy?: string; lockfile?: string[]; sarif?: boolean; allDependencies?: boolean; failOn: FailOn } & WaitFlags) => {
          if (opts.timeout !== undefined && opts.wait !== true) throw new UsageError('--timeout: only with --wait');
          const root = resolve(dir ?? '.');
          const vigil = await ctx.customer();
          let lockfiles: FoundLockfile[];
          if (opts.lockfile) {
            lockfiles = await readLockfiles(root, opts.lockfile);
          } else {
            const scan = await ctx.withProgress(`searching ${root} for lockfiles`, (progress) => findLockfiles(root, (path) => progress.update(`searching ${root} for lockfiles: ${path}`)));
            for (const path of scan.unread) ctx.out.note(`vigil: ${path}: not sent (Vigil does not read bun's binary lockfile; bun 1.2 and later write bun.lock)`);
            lockfiles = scan.lockfiles;
          }
          if (lockfiles.length === 0) throw new CliError(`${root}: no lockfile found (Vigil reads package-lock.json, npm-shrinkwrap.json, pnpm-lock.yaml, yarn.lock, bun.lock, requirements*.txt, poetry.lock, Pipfile.lock, uv.lock)`);
          if (lockfiles.length > MAX_LOCKFILES_PER_REQUEST) throw new CliError(`${root}: ${lockfiles.length} lockfiles found; the server takes at most ${MAX_LOCKFILES_PER_REQUEST} per verification: pass a subdirectory or --lockfile`);
          const body = { lockfiles, ...(opts.policy !== undefined ? { policy: opts.policy } : {}) };
          const first = await ctx.withProgress(`verifying ${lockfiles.length} lockfile${lockfiles.length === 1 ? '' : 's'} on ${vigil.baseUrl}`, () => vigil.repositories.verify(body));
          // Each check verifies the same lockfiles again: the answer of POST /v1/repositories/verify is not stored.
          const verification = await maybeWait(ctx, opts, first, (signal) => vigil.repositories.verify(body, { signal }), (v) => v.dependencies);
          if (verification === null) return EXIT.interrupted;
          if (opts.sarif) {
            ctx.out.printJson(toSarif(verification, lockfiles, { version: VERSION }));
          } else {
            ctx.emit(() => printVerification(ctx, verification, opts.allDependencies === true));
          }
          return verdictExit(verification.verdict, opts.failOn);
        }),
      ),
    [
      'vigil verify-repo',
      'vigil verify-repo ./services/api --policy prod-only --fail-on block',
      'vigil verify-repo --sarif > vigil.sarif   # then upload with github/codeql-action/upload-sarif',
      'vigil verify-repo --wait --timeout 15m --fail-on block',
      'vigil verify-repo --lockfile package-lock.json --lockfile requirements/prod.txt --json',
    ],
  );
}
