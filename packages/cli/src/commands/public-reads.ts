import { TRACKS, type Track } from '@vigil/core';
import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, intArg } from '../context.js';
import { short, when } from '../output.js';

export const trackOption = () => new Option('--track <track>', `one track: ${TRACKS.join(', ')}`).argParser(choiceArg('--track', TRACKS));

/** The public reads (docs/api.md): no token needed. */
export function registerPublicReads(program: Command, kit: Kit): void {
  examples(
    program
      .command('health')
      .description('liveness of the server (GET /v1/health)')
      .action(
        action(kit, async (ctx) => {
          const health = await (await ctx.vigil()).network.health();
          ctx.emit(() => ctx.out.line(ctx.out.c.green(health.status)));
        }),
      ),
    ['vigil health', 'vigil --base-url https://api.vigil.example health --json'],
  );

  examples(
    program
      .command('identity')
      .description("the server's ed25519 identity key (GET /v1/server-identity): what attestations and signed requests are bound to")
      .action(
        action(kit, async (ctx) => {
          const identity = await (await ctx.vigil()).network.identity();
          ctx.emit(() => ctx.out.line(identity.server_hotkey));
        }),
      ),
    ['vigil identity'],
  );

  examples(
    program
      .command('network')
      .alias('dashboard')
      .description('network telemetry: validators, miners, agents, attestations, verdicts (GET /v1/dashboard/network)')
      .action(
        action(kit, async (ctx) => {
          const d = await (await ctx.vigil()).network.dashboard();
          ctx.emit(() => {
            ctx.out.fields([
              ['validators', `${d.validators.active} active of ${d.validators.total}`],
              ['miners', d.miners.total],
              ['agents', `${d.agents.total} (${Object.entries(d.agents.by_track).map(([t, n]) => `${t} ${n}`).join(', ')})`],
              ['attestations', d.attestations],
              ['tasks (24 h)', d.tasks_24h],
              ['reruns (24 h)', d.reruns_24h],
              ['verdicts', Object.entries(d.verdicts).map(([v, n]) => `${v} ${n}`).join(', ')],
              ['last update', when(d.last_update)],
            ]);
          });
        }),
      ),
    ['vigil network', 'vigil network --json | jq .validators'],
  );

  examples(
    program
      .command('trends')
      .description('threat trends over the last N days (GET /v1/threats/trends)')
      .option('--days <n>', 'days, 1-180 (server default 30)', intArg('--days', 1, 180))
      .action(
        action(kit, async (ctx, opts: { days?: number }) => {
          const t = await (await ctx.vigil()).trends.get(opts.days === undefined ? {} : { days: opts.days });
          ctx.emit(() => {
            ctx.out.fields([
              ['days', t.days],
              ['attestations', t.attestations],
              ['scanned', t.scanned],
              ['blocked', t.totals.blocked],
              ['warned', t.totals.warned],
              ['flagged artifacts', t.totals.flagged_artifacts],
              ['findings this week', `${t.week.findings} (previous week ${t.week.prev_findings})`],
              ['severity', Object.entries(t.severity).map(([s, n]) => `${s} ${n}`).join(', ')],
            ]);
            ctx.out.line();
            ctx.out.table(['day', 'scanned', 'flagged', 'blocked', 'warned'], t.series.map((d) => [d.day, d.scanned, d.flagged, d.blocked, d.warned]));
          });
        }),
      ),
    ['vigil trends --days 7', 'vigil trends --json | jq .totals'],
  );

  const rounds = examples(program.command('rounds').description('rounds: closed rounds, the current ones, scores and attestations'), [
    'vigil rounds --limit 5',
    'vigil rounds status',
    'vigil rounds scores 5f2c9a1e0b7d4c3a',
  ]);
  examples(
    rounds
      .command('list', { isDefault: true })
      .description('closed rounds, newest first (GET /v1/rounds)')
      .option('--limit <n>', 'rounds, 1-200 (server default 60)', intArg('--limit', 1, 200))
      .action(
        action(kit, async (ctx, opts: { limit?: number }) => {
          const r = await (await ctx.vigil()).rounds.list(opts.limit === undefined ? {} : { limit: opts.limit });
          ctx.emit(() =>
            ctx.out.table(
              ['round', '#', 'track', 'closed', 'miners', 'winner', 'score'],
              r.rounds.map((x) => [x.round_id, x.round_number, x.track, when(x.closed_at), x.miners, x.winners[0]?.name ?? '-', x.winners[0]?.score.toFixed(3) ?? '-']),
            ),
          );
        }),
      ),
    ['vigil rounds', 'vigil rounds list --limit 5 --json'],
  );
  examples(
    rounds
      .command('status')
      .description('the current round of every track (GET /v1/rounds/status)')
      .action(
        action(kit, async (ctx) => {
          const s = await (await ctx.vigil()).rounds.status();
          ctx.emit(() => {
            ctx.out.table(
              ['track', 'round', '#', 'status', 'phase', 'opened', 'submissions close', 'participants'],
              s.tracks.map((t) => [t.track, t.round_id, t.round_number, t.status, t.phase, when(t.opened_at), when(t.submission_closes_at), t.participants]),
            );
            ctx.out.line(`server time ${when(s.server_time)}; next round opens ${when(s.next_round_opens_at)}`);
          });
        }),
      ),
    ['vigil rounds status'],
  );
  examples(
    rounds
      .command('scores <round_id>')
      .description('the ranked scores of a closed round (GET /v1/rounds/{round_id}/scores)')
      .action(
        action(kit, async (ctx, roundId: string) => {
          const s = await (await ctx.vigil()).rounds.scores(roundId);
          ctx.emit(() => {
            ctx.out.line(`round ${s.round_id} (#${s.round_number}, ${s.track}), closed ${when(s.closed_at)}`);
            ctx.out.table(['rank', 'agent', 'hotkey', 'score', 'validators'], s.scores.map((e) => [e.rank, e.name, e.hotkey, e.score.toFixed(3), e.validators]));
          });
        }),
      ),
    ['vigil rounds scores 5f2c9a1e0b7d4c3a'],
  );
  examples(
    rounds
      .command('attestations <round_id>')
      .description("a miner's attestations in a closed round (GET /v1/rounds/{round_id}/attestations)")
      .requiredOption('--miner <hotkey>', "the miner's ss58 hotkey")
      .action(
        action(kit, async (ctx, roundId: string, opts: { miner: string }) => {
          const a = await (await ctx.vigil()).rounds.attestations(roundId, { miner: opts.miner });
          ctx.emit(() => {
            ctx.out.fields([
              ['round', `${a.round_id || roundId} (${a.round_status})`],
              ['miner', a.miner_hotkey || opts.miner],
              ['score', a.score],
              ['runs', a.runs],
              ['failure', a.failure_reason],
            ]);
            if (a.tasks.length > 0) ctx.out.table(['verdict', 'risk', 'findings', 'canonical hash'], a.tasks.map((t) => [ctx.out.verdict(t.verdict), t.risk_score, t.findings.length, t.canonical_hash]));
          });
        }),
      ),
    ['vigil rounds attestations 5f2c9a1e0b7d4c3a --miner 5C9TqVEs5Q51zUdjvp6tSsjHAfLseJKq1Dq6ULcuSLqEuRSf'],
  );

  examples(
    program
      .command('leaderboard')
      .description('current standings per track (GET /v1/leaderboard)')
      .addOption(trackOption())
      .action(
        action(kit, async (ctx, opts: { track?: Track }) => {
          const board = await (await ctx.vigil()).leaderboard.get();
          const rows = board.rows.filter((r) => opts.track === undefined || r.track === opts.track);
          // The endpoint answers every track; --track narrows it, and --json prints what is shown.
          const raw = opts.track === undefined ? undefined : { ...(ctx.recorder.last as object), rows: (ctx.recorder.last as { rows: { track: string }[] }).rows.filter((r) => r.track === opts.track) };
          ctx.emit(() => {
            ctx.out.table(['rank', 'track', 'agent', 'version', 'hotkey', 'score', 'attestations'], rows.map((r) => [r.rank, r.track, r.name, r.version, short(r.hotkey, 12), r.score === null ? '-' : r.score.toFixed(3), r.attestations]));
            ctx.out.line(`${board.meta.total_agents} agents; last update ${when(board.meta.last_update)}`);
          }, raw);
        }),
      ),
    ['vigil leaderboard --track skills', 'vigil leaderboard --json'],
  );

  examples(
    program
      .command('agents')
      .description('active agents (GET /v1/agents)')
      .addOption(trackOption())
      .action(
        action(kit, async (ctx, opts: { track?: Track }) => {
          const r = await (await ctx.vigil()).agents.list(opts.track === undefined ? {} : { track: opts.track });
          ctx.emit(() =>
            ctx.out.table(['track', 'agent', 'version', 'hotkey', 'provider', 'score', 'runs', 'updated'], r.agents.map((a) => [a.track, a.name, a.version, short(a.hotkey, 12), a.provider, a.score.toFixed(3), a.runs, when(a.updated_at)])),
          );
        }),
      ),
    ['vigil agents', 'vigil agents --track packages --json'],
  );

  examples(
    program
      .command('agent <hotkey>')
      .description("an agent's eligibility for the next round (GET /v1/agents/{hotkey})")
      .addOption(trackOption())
      .action(
        action(kit, async (ctx, hotkey: string, opts: { track?: Track }) => {
          const a = await (await ctx.vigil()).agents.get(hotkey, opts.track === undefined ? {} : { track: opts.track });
          ctx.emit(() =>
            ctx.out.fields([
              ['hotkey', a.hotkey],
              ['track', a.track],
              ['agent', `${a.name} v${a.version}`],
              ['agent hash', a.agent_hash],
              ['state', a.state],
              ['next round', a.qualifies_next_round ? ctx.out.c.green('qualifies') : ctx.out.c.yellow('does not qualify')],
              ['reason', a.reason],
            ]),
          );
        }),
      ),
    ['vigil agent 5C9TqVEs5Q51zUdjvp6tSsjHAfLseJKq1Dq6ULcuSLqEuRSf --track skills'],
  );
}
