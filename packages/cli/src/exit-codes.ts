/**
 * The exit statuses of `vigil` (docs/cli.md, "Exit status"). A CI job gates on them, so each has one
 * meaning whatever the command.
 */
export const EXIT = {
  /** Success; for a verdict command, nothing at or above `--fail-on`. */
  ok: 0,
  /** The server answered an error, could not be reached, or a local file could not be read. */
  error: 1,
  /** The command line was wrong (unknown command or option, missing or malformed argument). */
  usage: 2,
  /** An attestation checked offline is not genuine. */
  notGenuine: 3,
  /**
   * The worst verdict is WARN and `--fail-on` is `warn`. For `verify` a pending package counts as
   * WARN; for `policy evaluate` the policy's verdict decides, pending or not.
   */
  warn: 4,
  /** The worst verdict is BLOCK. */
  block: 5,
  /** `attestation verify --log`: the server's log has no entry for the attestation. */
  notInLog: 6,
  /** `attestation verify --log`: the inclusion proof (or the entry it proves) does not hold. */
  badLogProof: 7,
  /** `attestation verify --log`, `log monitor`: the checkpoint is not signed by the log key for its origin. */
  badCheckpointSignature: 8,
  /**
   * `log monitor`: the log does not extend the last checkpoint seen (a different root at the same
   * size, a consistency proof that fails, a smaller tree), or its tiles and entries do not match the
   * signed checkpoint.
   */
  logInconsistent: 9,
  /** `log monitor --witness`: fewer of the given witnesses cosigned the checkpoint than `--min-witnesses`. */
  notWitnessed: 10,
  /** `log audit`: the server serves something its log does not say (an attestation gone or changed, a published verdict that is not the latest logged). */
  servedMismatch: 11,
  /** Ctrl-C: `scan` stopped its agent, `--wait` stopped waiting, or a second one ended `validator run` at once (128 + SIGINT, as a shell reports it). */
  interrupted: 130,
} as const;

/** A mistake in the command line: exit 2, with the message and a pointer to `--help`. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A local failure that is not the command line's fault (an unreadable file): exit 1. */
export class CliError extends Error {
  override name = 'CliError';
}

export type FailOn = 'warn' | 'block';

/** The exit status of a verdict under `--fail-on`. */
export function verdictExit(verdict: 'ALLOW' | 'WARN' | 'BLOCK', failOn: FailOn): number {
  if (verdict === 'BLOCK') return EXIT.block;
  if (verdict === 'WARN' && failOn === 'warn') return EXIT.warn;
  return EXIT.ok;
}

const RANK = { ALLOW: 0, WARN: 1, BLOCK: 2 } as const;

/** The most severe of some verdicts (ALLOW for none). */
export function worstVerdict(verdicts: Iterable<'ALLOW' | 'WARN' | 'BLOCK'>): 'ALLOW' | 'WARN' | 'BLOCK' {
  let worst: 'ALLOW' | 'WARN' | 'BLOCK' = 'ALLOW';
  for (const v of verdicts) if (RANK[v] > RANK[worst]) worst = v;
  return worst;
}
