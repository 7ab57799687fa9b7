import { canonicalHash, MetagraphSnapshot, SEARCH_KINDS, VERDICTS, type SearchKind, type Verdict } from '@vigil/core';
import { verifyAttestation } from '@vigil/crypto';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, readJson, type Context } from '../context.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { short, when } from '../output.js';
import { pageOptions, readPages, sdkPageOptions, type PageFlags } from '../pages.js';

interface ListFlags extends PageFlags {
  artifact?: number;
  sha256?: string;
  canonicalHash?: string;
  validator?: string;
  miner?: string;
  round?: string;
  verdict?: Verdict;
  since?: string;
  until?: string;
}

/** `art_42` or `42`: the attestations filter takes the number, every other command prints the id with its prefix. */
function artifactIdArg(value: string): number {
  const match = /^(?:art_)?([1-9]\d{0,15})$/.exec(value);
  if (!match || !Number.isSafeInteger(Number(match[1]))) throw new UsageError(`--artifact: expected an artifact id art_<n> or <n>, got ${JSON.stringify(value)}`);
  return Number(match[1]);
}

/** The three offline checks of an envelope against a snapshot file; exit 3 when not genuine. */
async function verifyOffline(ctx: Context, file: string, metagraph: string | undefined): Promise<number> {
  const envelope = await readJson(ctx.io, file, 'envelope');
  if (!metagraph) throw new UsageError('--metagraph: required (a metagraph snapshot file)');
  const snapshot = MetagraphSnapshot.safeParse(await readJson(ctx.io, metagraph, '--metagraph'));
  if (!snapshot.success) {
    const issue = snapshot.error.issues[0];
    // A bad local file, like one that is not JSON (exit 1); the command line itself was right.
    throw new CliError(`--metagraph: ${metagraph === '-' ? 'standard input' : metagraph} is not a metagraph snapshot (${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''})`);
  }
  const result = verifyAttestation(envelope, snapshot.data);
  ctx.emit(() => {
    const mark = (ok: boolean) => (ok ? ctx.out.c.green('ok') : ctx.out.c.red('FAILED'));
    ctx.out.line(result.ok ? ctx.out.c.green('genuine') : ctx.out.c.red('NOT genuine'));
    ctx.out.fields([
      ['canonical hash', mark(result.checks.hash)],
      ['signature', mark(result.checks.signature)],
      ['validator permit', mark(result.checks.permit)],
      ...(result.reason ? ([['reason', result.reason]] as [string, string][]) : []),
    ]);
  }, result);
  return result.ok ? EXIT.ok : EXIT.notGenuine;
}

/** Recorded attestations (docs/customer-attestations.md), offline verification, canonical hashes. */
export function registerAttestations(program: Command, kit: Kit): void {
  const attestations = program.command('attestations').description('recorded attestations: list, read, verify on the server');
  examples(
    pageOptions(
      attestations
        .command('list')
        .description('recorded attestations, newest first, filtered (GET /v1/attestations)')
        .option('--artifact <id>', 'an artifact id: art_<n> (as every command prints it) or <n>', artifactIdArg)
        .option('--sha256 <hash>', 'the artifact bytes: sha256:<64 hex>')
        .option('--canonical-hash <hash>', 'one attestation: sha256:<64 hex>')
        .option('--validator <hotkey>', 'the validator that signed')
        .option('--miner <hotkey>', 'the miner whose agent ran')
        .option('--round <round_id>', 'the round')
        .option('--verdict <verdict>', VERDICTS.join(', '), choiceArg('--verdict', VERDICTS))
        .option('--since <timestamp>', 'recorded at or after, with a zone offset (2026-11-21T00:00:00+00:00)')
        .option('--until <timestamp>', 'recorded before'),
    ).action(
      action(kit, async (ctx, flags: ListFlags) => {
        const vigil = await ctx.customer();
        const filters = {
          ...(flags.artifact !== undefined ? { artifact: flags.artifact } : {}),
          ...(flags.sha256 !== undefined ? { sha256: flags.sha256 } : {}),
          ...(flags.canonicalHash !== undefined ? { canonical_hash: flags.canonicalHash } : {}),
          ...(flags.validator !== undefined ? { validator: flags.validator } : {}),
          ...(flags.miner !== undefined ? { miner: flags.miner } : {}),
          ...(flags.round !== undefined ? { round_id: flags.round } : {}),
          ...(flags.verdict !== undefined ? { verdict: flags.verdict } : {}),
          ...(flags.since !== undefined ? { since: flags.since } : {}),
          ...(flags.until !== undefined ? { until: flags.until } : {}),
        };
        const { items, raw } = await readPages(ctx, vigil.attestations.list(filters, sdkPageOptions(flags)), 'attestations', flags);
        ctx.emit(
          () =>
            ctx.out.table(
              ['recorded', 'verdict', 'risk', 'track', 'artifact', 'validator', 'canonical hash'],
              items.map((a) => [when(a.recorded_at), ctx.out.verdict(a.verdict), a.risk_score, a.track, short(a.artifact.bundle_hash, 40), short(a.validator_hotkey, 12), a.canonical_hash]),
            ),
          raw,
        );
      }),
    ),
    ['vigil attestations list --verdict BLOCK', 'vigil attestations list --miner 5C9Tq… --all --json'],
  );
  examples(
    attestations
      .command('get <canonical_hash>')
      .description('one attestation with its signed envelope (GET /v1/attestations/{canonical_hash})')
      .action(
        action(kit, async (ctx, hash: string) => {
          const d = await (await ctx.customer()).attestations.get(hash);
          const a = d.attestation;
          ctx.emit(() => {
            ctx.out.fields([
              ['canonical hash', a.canonical_hash],
              ['verdict', ctx.out.verdict(a.verdict)],
              ['risk score', a.risk_score],
              ['track', a.track],
              ['artifact', a.artifact.bundle_hash],
              ['round', a.round_id],
              ['miner', a.miner_hotkey],
              ['validator', a.validator_hotkey],
              ['recorded', when(a.recorded_at)],
              ['findings', a.findings_withheld ? `${a.findings_count} (withheld on the free plan)` : a.findings_count],
              ['envelope', d.envelope ? 'included (--json prints it)' : 'withheld'],
            ]);
            if (a.findings && a.findings.length > 0) ctx.out.table(['severity', 'category', 'title', 'file'], a.findings.map((f) => [f.severity, f.category, f.title, f.file]));
          });
        }),
      ),
    ['vigil attestations get sha256:3f9a…', 'vigil attestations get sha256:3f9a… --json | jq .envelope > envelope.json'],
  );
  examples(
    attestations
      .command('verify <file>')
      .description('the three checks of an envelope, done by the server against its metagraph (POST /v1/attestations/verify, paid plan); "-" reads standard input')
      .action(
        action(kit, async (ctx, file: string) => {
          const envelope = await readJson(ctx.io, file, 'envelope');
          const r = await (await ctx.customer()).attestations.verify(envelope as never);
          ctx.emit(() => {
            ctx.out.line(r.ok ? ctx.out.c.green('genuine') : ctx.out.c.red('NOT genuine'));
            ctx.out.fields([
              ['canonical hash', r.checks.hash ? 'ok' : 'FAILED'],
              ['signature', r.checks.signature ? 'ok' : 'FAILED'],
              ['validator permit', r.checks.permit ? 'ok' : 'FAILED'],
              ['reason', r.reason],
              ['metagraph', `netuid ${r.checked_against.netuid}, block ${r.checked_against.block}`],
            ]);
          });
          return r.ok ? EXIT.ok : EXIT.notGenuine;
        }),
      ),
    ['vigil attestations verify envelope.json', 'cat envelope.json | vigil attestations verify -'],
  );

  const attestation = program.command('attestation').description('an attestation envelope, checked offline');
  examples(
    attestation
      .command('verify <file>')
      .description('the three checks of an envelope with no network: canonical hash, ed25519 signature, validator permit in a metagraph snapshot; "-" reads standard input')
      .option('--metagraph <file>', 'the metagraph snapshot (JSON) to check the permit against')
      .action(action(kit, async (ctx, file: string, opts: { metagraph?: string }) => verifyOffline(ctx, file, opts.metagraph))),
    ['vigil attestation verify envelope.json --metagraph metagraph.json', 'vigil attestations get sha256:3f9a… --json | jq .envelope | vigil attestation verify - --metagraph metagraph.json'],
  );
  examples(
    program
      .command('verify-attestation <file>')
      .description('the same as "vigil attestation verify" (kept from earlier versions)')
      .option('--metagraph <file>', 'the metagraph snapshot (JSON)')
      .action(action(kit, async (ctx, file: string, opts: { metagraph?: string }) => verifyOffline(ctx, file, opts.metagraph))),
    ['vigil verify-attestation envelope.json --metagraph metagraph.json'],
  );
  examples(
    program
      .command('canonical-hash <file>')
      .description('sha256:<hex> of the RFC 8785 canonical form of a JSON file, offline; "-" reads standard input')
      .action(
        action(kit, async (ctx, file: string) => {
          const hash = canonicalHash(await readJson(ctx.io, file, 'file'));
          ctx.emit(() => ctx.out.line(hash), { canonical_hash: hash });
        }),
      ),
    ['vigil canonical-hash payload.json', 'vigil canonical-hash payload.json --json'],
  );

  examples(
    pageOptions(
      program
        .command('search <query...>')
        .description('artifacts and attestations matching every word, best first (GET /v1/search)')
        .option('--kind <kind>', `only one kind of result: ${SEARCH_KINDS.join(' or ')}`, choiceArg('--kind', SEARCH_KINDS)),
    ).action(
      action(kit, async (ctx, words: string[], flags: PageFlags & { kind?: SearchKind }) => {
        const vigil = await ctx.customer();
        const params = { q: words.join(' '), ...(flags.kind !== undefined ? { kind: flags.kind } : {}) } as Parameters<typeof vigil.search>[0];
        const { items, raw } = await readPages(ctx, vigil.search(params, sdkPageOptions(flags)), 'results', flags);
        ctx.emit(() => {
          const rows = items.map((r) => {
            const item = r as unknown as Record<string, unknown>;
            return [String(item.type ?? item.kind ?? ''), String(item.title ?? ''), String(item.snippet ?? ''), String(item.href ?? item.id ?? '')];
          });
          ctx.out.table(['kind', 'title', 'matched', 'where'], rows);
        }, raw);
      }),
    ),
    ['vigil search left-pad', 'vigil search "exfiltration npmrc" --kind attestation --json'],
  );
}
