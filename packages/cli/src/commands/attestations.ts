import { canonicalHash, MetagraphSnapshot, Sha256Hash, SEARCH_KINDS, VERDICTS, type SearchKind, type Verdict } from '@vigil/core';
import { fromHex, verifyAttestation, verifyAttestationDsse } from '@vigil/crypto';
import { formatVerifierKey, noteVerifier, TlogError } from '@vigil/tlog';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg, readJson, type Context } from '../context.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { short, when } from '../output.js';
import { checkLogInclusion, proofOrigin, type LogCheck, type LogFailure } from '../log-inclusion.js';
import { pageOptions, readPages, sdkPageOptions, type PageFlags } from '../pages.js';

interface OfflineFlags {
  metagraph?: string;
  log?: boolean;
  logKey?: string;
}

/** `--log-key <vkey>`: a C2SP Ed25519 verifier key, checked before anything is sent. */
function logKeyArg(value: string): string {
  try {
    noteVerifier(value);
  } catch (err) {
    if (err instanceof TlogError) throw new UsageError(`--log-key: ${err.message}`);
    throw err;
  }
  return value;
}

const LOG_EXIT: Record<LogFailure, number> = { not_in_log: EXIT.notInLog, bad_proof: EXIT.badLogProof, bad_checkpoint_signature: EXIT.badCheckpointSignature };

/**
 * The attestation's entry in the server's log (GET /v1/attestations/{hash}?proof=true), checked
 * offline against the pinned key, or the one derived from GET /v1/server-identity.
 */
async function checkLog(ctx: Context, envelope: unknown, pinnedKey: string | undefined): Promise<LogCheck> {
  const env = (typeof envelope === 'object' && envelope !== null ? envelope : {}) as { canonical_hash?: unknown };
  if (typeof env.canonical_hash !== 'string') throw new CliError('envelope: no canonical_hash to look up in the log');
  const vigil = await ctx.customer();
  let answer: { log_proof?: string | null | undefined; log_entry?: string | null | undefined };
  try {
    answer = await vigil.attestations.getWithProof(env.canonical_hash);
  } catch (err) {
    // The server knows no such attestation: nothing of it is in its log.
    if ((err as { status?: unknown }).status === 404) {
      return { ok: false, failure: 'not_in_log', reason: `the server has no attestation ${env.canonical_hash}`, index: null, tree_size: null, root: null, origin: null, log_key: pinnedKey ?? null, log_key_source: pinnedKey ? 'pinned' : 'server-identity' };
    }
    throw err;
  }
  let logKey = pinnedKey;
  if (logKey === undefined) {
    // Not pinned: the server's own identity key, under the origin the checkpoint names. Proves the
    // proof is the server's and consistent, not that the server shows everyone the same log.
    const identity = await vigil.network.identity();
    const origin = typeof answer.log_proof === 'string' ? proofOrigin(answer.log_proof) : null;
    if (origin !== null) {
      try {
        logKey = formatVerifierKey(origin, fromHex(identity.server_hotkey));
      } catch {
        return { ok: false, failure: 'bad_checkpoint_signature', reason: `the checkpoint's origin ${JSON.stringify(origin)} is not a valid key name`, index: null, tree_size: null, root: null, origin: null, log_key: null, log_key_source: 'server-identity' };
      }
    }
  }
  if (logKey === undefined) {
    // No origin to derive the key under: no proof at all (not in the log), or one that does not parse.
    const notInLog = typeof answer.log_proof !== 'string';
    return { ok: false, failure: notInLog ? 'not_in_log' : 'bad_proof', reason: notInLog ? 'the server has no log entry for this attestation (recorded before its log existed)' : 'log_proof is not a tlog-proof', index: null, tree_size: null, root: null, origin: null, log_key: null, log_key_source: 'server-identity' };
  }
  return checkLogInclusion({ envelope: envelope as never, logProof: answer.log_proof, logEntry: answer.log_entry, logKey, logKeySource: pinnedKey ? 'pinned' : 'server-identity' });
}

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
async function verifyOffline(ctx: Context, file: string, flags: OfflineFlags): Promise<number> {
  const { metagraph } = flags;
  if (flags.logKey !== undefined && flags.log !== true) throw new UsageError('--log-key: only with --log');
  const envelope = await readJson(ctx.io, file, 'envelope');
  if (!metagraph) throw new UsageError('--metagraph: required (a metagraph snapshot file)');
  const snapshot = MetagraphSnapshot.safeParse(await readJson(ctx.io, metagraph, '--metagraph'));
  if (!snapshot.success) {
    const issue = snapshot.error.issues[0];
    // A bad local file, like one that is not JSON (exit 1); the command line itself was right.
    throw new CliError(`--metagraph: ${metagraph === '-' ? 'standard input' : metagraph} is not a metagraph snapshot (${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''})`);
  }
  const result = verifyAttestation(envelope, snapshot.data);
  const log = flags.log === true ? await checkLog(ctx, envelope, flags.logKey) : null;
  ctx.emit(
    () => {
      const mark = (ok: boolean) => (ok ? ctx.out.c.green('ok') : ctx.out.c.red('FAILED'));
      ctx.out.line(result.ok ? ctx.out.c.green('genuine') : ctx.out.c.red('NOT genuine'));
      ctx.out.fields([
        ['canonical hash', mark(result.checks.hash)],
        ['signature', mark(result.checks.signature)],
        ['validator permit', mark(result.checks.permit)],
        ...(result.reason ? ([['reason', result.reason]] as [string, string][]) : []),
        ...(log === null
          ? []
          : ([
              ['log inclusion', log.ok ? mark(true) : `${mark(false)} (${log.failure!.replace(/_/g, ' ')})`],
              ...(log.ok ? ([['log entry', `index ${log.index} in the tree of ${log.tree_size} (${log.origin}, root ${log.root})`]] as [string, string][]) : []),
              ['log key', log.log_key ? `${log.log_key} (${log.log_key_source === 'pinned' ? 'pinned with --log-key' : 'from GET /v1/server-identity: not pinned'})` : '-'],
              ...(log.reason ? ([['log reason', log.reason]] as [string, string][]) : []),
            ] as [string, string][])),
      ]);
    },
    log === null ? result : { ...result, log },
  );
  if (!result.ok) return EXIT.notGenuine;
  if (log !== null && !log.ok) return LOG_EXIT[log.failure!];
  return EXIT.ok;
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
      .command('dsse <canonical_hash>')
      .description("the attestation as an in-toto Statement in a DSSE envelope signed by its validator (GET /v1/attestations/{canonical_hash}/dsse), checked offline before it is shown; --json prints the envelope for in-toto and DSSE tools")
      .action(
        action(kit, async (ctx, hash: string) => {
          // A canonical hash is sha256:<64 lowercase hex>; anything else is a usage error, nothing sent.
          if (!Sha256Hash.safeParse(hash).success) throw new UsageError(`canonical_hash: expected sha256:<64 lowercase hex>, got ${JSON.stringify(hash)}`);
          const envelope = await (await ctx.customer()).attestations.dsse(hash);
          // Checked here too, so a pipeline that keeps the envelope never keeps one that does not verify.
          const check = verifyAttestationDsse(envelope);
          const genuine = check.ok && check.canonical_hash === hash;
          ctx.emit(() => {
            ctx.out.line(genuine ? ctx.out.c.green('signed by its validator') : ctx.out.c.red('NOT genuine'));
            ctx.out.fields([
              ['canonical hash', check.canonical_hash ?? '-'],
              ['validator', check.payload?.validator_hotkey ?? '-'],
              ['subject', check.payload ? `${check.payload.artifact.bundle_hash} (${check.payload.artifact.sha256})` : '-'],
              ['payload type', envelope.payloadType],
              ['reason', genuine ? null : (check.reason ?? `the envelope carries attestation ${check.canonical_hash}, not ${hash}`)],
              ['envelope', '--json prints it'],
            ]);
          }, envelope);
          return genuine ? EXIT.ok : EXIT.notGenuine;
        }),
      ),
    ['vigil attestations dsse sha256:3f9a…', 'vigil attestations dsse sha256:3f9a… --json > attestation.dsse.json'],
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
      .option('--log', "also check the attestation is in the server's transparency log: its inclusion proof (GET /v1/attestations/{hash}?proof=true) verified offline; needs a token")
      .option('--log-key <vkey>', "with --log: the log's verifier key to trust (vigil/<hotkey>+<id>+<key>); without it, the key derived from GET /v1/server-identity", logKeyArg)
      .action(action(kit, async (ctx, file: string, opts: OfflineFlags) => verifyOffline(ctx, file, opts))),
    [
      'vigil attestation verify envelope.json --metagraph metagraph.json',
      'vigil attestations get sha256:3f9a… --json | jq .envelope | vigil attestation verify - --metagraph metagraph.json',
      'vigil attestation verify envelope.json --metagraph metagraph.json --log --log-key "$VIGIL_LOG_KEY"',
    ],
  );
  examples(
    program
      .command('verify-attestation <file>')
      .description('the same as "vigil attestation verify" (kept from earlier versions)')
      .option('--metagraph <file>', 'the metagraph snapshot (JSON)')
      .option('--log', 'as for "vigil attestation verify"')
      .option('--log-key <vkey>', 'as for "vigil attestation verify"', logKeyArg)
      .action(action(kit, async (ctx, file: string, opts: OfflineFlags) => verifyOffline(ctx, file, opts))),
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
