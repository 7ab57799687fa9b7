/**
 * Why a metagraph source could not produce a snapshot. `source` names the file path or the
 * subtensor URL so an operator reading the log knows which input to fix.
 */
export type MetagraphErrorKind =
  /** The snapshot file is missing or cannot be read. */
  | 'file_unreadable'
  /** The snapshot file (or a snapshot handed to a writer) is not a valid metagraph snapshot. */
  | 'snapshot_invalid'
  /** The subtensor endpoint could not be reached, timed out, or answered with a JSON-RPC error. */
  | 'chain_unreachable'
  /** The subtensor endpoint answered, but with data that is not a netuid's metagraph. */
  | 'chain_data_invalid';

export class MetagraphError extends Error {
  override name = 'MetagraphError';
  readonly kind: MetagraphErrorKind;
  readonly source: string;

  constructor(kind: MetagraphErrorKind, source: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.source = source;
  }
}

/** The first line of an error's message; transport errors append multi-line request dumps. */
export function errorSummary(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0] ?? text;
}
