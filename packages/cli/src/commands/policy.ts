import type { Dated } from '@vigil/client';
import { POLICY_INCLUDES, type PolicyEvaluation, type PolicyInclude } from '@vigil/core';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, packageRefArg, readJson, type Context } from '../context.js';
import { UsageError, verdictExit, type FailOn } from '../exit-codes.js';
import { when } from '../output.js';
import { pageOptions, readPages, sdkPageOptions, type PageFlags } from '../pages.js';

function includesArg(value: string): PolicyInclude[] {
  const parts = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const bad = parts.find((p) => !(POLICY_INCLUDES as readonly string[]).includes(p));
  if (bad !== undefined) throw new UsageError(`--include: expected a comma-separated list of ${POLICY_INCLUDES.join(', ')}, got ${JSON.stringify(bad)}`);
  return parts as PolicyInclude[];
}

function printEvaluation(ctx: Context, e: Dated<typeof PolicyEvaluation>): void {
  ctx.out.fields([
    ['artifact', `${e.artifact} (${e.purl})`],
    ['verdict', ctx.out.verdict(e.verdict.toUpperCase())],
    ['state', e.state],
    ['policy', `${e.applied_policy.name} v${e.applied_policy.version}`],
    ['score', e.score],
    ['risk', e.risk],
    ['evaluation', e.id],
  ]);
  ctx.out.table(['check', 'action', 'outcome', 'error'], e.checks.map((c) => [c.name, c.action, c.outcome, c.error]));
}

/** The organization's policies (docs/policies.md; scope policies). */
export function registerPolicy(program: Command, kit: Kit): void {
  const policy = program.command('policy').alias('policies').description("the organization's policies: create, list, read, update, delete, evaluate");
  examples(
    policy
      .command('create')
      .description('a new policy from a JSON file {name, description?, rules} (POST /v1/policies)')
      .requiredOption('-f, --file <file>', 'the policy (JSON); "-" reads standard input')
      .action(
        action(kit, async (ctx, opts: { file: string }) => {
          const body = await readJson(ctx.io, opts.file, '--file');
          const p = await (await ctx.customer()).policies.create(body as never);
          ctx.emit(() => ctx.out.line(`Created policy ${p.name} (${p.id}, version ${p.version}, ${p.rules.length} rules).`));
        }),
      ),
    ['vigil policy create -f prod-only.json'],
  );
  examples(
    pageOptions(policy.command('list').description("the organization's policies by name (GET /v1/policies)")).action(
      action(kit, async (ctx, flags: PageFlags) => {
        const { items, raw } = await readPages(ctx, (await ctx.customer()).policies.list(sdkPageOptions(flags)), 'policies', flags);
        ctx.emit(() => ctx.out.table(['policy', 'name', 'version', 'rules', 'built-in', 'updated'], items.map((p) => [p.id, p.name, p.version, p.rules.length, p.builtin ? 'yes' : '', when(p.updated_at)])), raw);
      }),
    ),
    ['vigil policy list', 'vigil policy list --json | jq -r ".policies[].name"'],
  );
  examples(
    policy
      .command('get <policy_id>')
      .description("a policy's current version, or an earlier one (GET /v1/policies/{policy_id})")
      .addOption(new Option('--policy-version <n>', 'an earlier version (1, 2, …)').argParser((v) => {
        if (!/^[1-9]\d*$/.test(v)) throw new UsageError(`--policy-version: expected a positive integer, got ${JSON.stringify(v)}`);
        return Number(v);
      }))
      .action(
        action(kit, async (ctx, id: string, opts: { policyVersion?: number }) => {
          const vigil = await ctx.customer();
          const p = opts.policyVersion === undefined ? await vigil.policies.get(id) : await vigil.policies.versions.get(id, opts.policyVersion);
          ctx.emit(() => {
            ctx.out.fields([
              ['policy', `${p.name} (${p.id})`],
              ['version', p.version],
              ['description', p.description],
              ['updated', when(p.updated_at)],
            ]);
            ctx.out.table(['rule', 'action', 'expression'], p.rules.map((r) => [r.name, r.action, r.expression]));
          });
        }),
      ),
    ['vigil policy get pol_default', 'vigil policy get pol_3f9a1c0e7b2d4a58 --policy-version 2 --json'],
  );
  examples(
    policy
      .command('update <policy_id>')
      .description('the next version from a JSON file: the fields it gives replace those of the current version (POST /v1/policies/{policy_id})')
      .requiredOption('-f, --file <file>', 'the changes (JSON): name, description, rules; "-" reads standard input')
      .action(
        action(kit, async (ctx, id: string, opts: { file: string }) => {
          const p = await (await ctx.customer()).policies.update(id, (await readJson(ctx.io, opts.file, '--file')) as never);
          ctx.emit(() => ctx.out.line(`Updated policy ${p.name} (${p.id}) to version ${p.version}.`));
        }),
      ),
    ['vigil policy update pol_3f9a1c0e7b2d4a58 -f prod-only.json'],
  );
  examples(
    policy
      .command('delete <policy_id>')
      .description('deletes a policy (DELETE /v1/policies/{policy_id})')
      .action(
        action(kit, async (ctx, id: string) => {
          const p = await (await ctx.customer()).policies.delete(id);
          ctx.emit(() => ctx.out.line(`Deleted policy ${p.name} (${p.id}).`));
        }),
      ),
    ['vigil policy delete pol_3f9a1c0e7b2d4a58'],
  );
  examples(
    policy
      .command('evaluate <artifact>')
      .description('evaluates a package reference against a policy (POST /v1/policies/evaluate); paid plan')
      .option('--policy <name>', 'the policy name', 'default')
      .option('--include <list>', `more in the answer: ${POLICY_INCLUDES.join(', ')}`, includesArg)
      .addOption(new Option('--fail-on <level>', 'warn (exit 4 on warn, 5 on block) or block (exit 5 on block only)').argParser(choiceArg('--fail-on', ['warn', 'block'] as const)).default('warn'))
      .action(
        action(kit, async (ctx, artifact: string, opts: { policy: string; include?: PolicyInclude[]; failOn: FailOn }) => {
          packageRefArg('artifact', artifact);
          const e = await (await ctx.customer()).policies.evaluate({ artifact, policy: opts.policy, ...(opts.include ? { include: opts.include } : {}) });
          const verdict = e.verdict.toUpperCase() as 'ALLOW' | 'WARN' | 'BLOCK';
          ctx.emit(() => printEvaluation(ctx, e));
          return verdictExit(verdict, opts.failOn);
        }),
      ),
    ['vigil policy evaluate npm:lodash@4.17.21 --policy prod-only', 'vigil policy evaluate pkg:pypi/requests@2.32.3 --include vulnerabilities,licenses --json'],
  );
  examples(
    policy
      .command('evaluation <evaluation_id>')
      .description('a stored evaluation, as evaluate answered it (GET /v1/policies/evaluations/{evaluation_id}); exit status 0 whatever its verdict')
      .action(
        action(kit, async (ctx, id: string) => {
          const e = await (await ctx.customer()).policies.evaluations.get(id);
          ctx.emit(() => printEvaluation(ctx, e));
        }),
      ),
    ['vigil policy evaluation eval_7Qm2xK9pLr4T', 'vigil policy evaluation eval_7Qm2xK9pLr4T --json | jq .checks'],
  );
}
