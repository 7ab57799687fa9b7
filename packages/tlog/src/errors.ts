/**
 * Every error thrown by @vigil/tlog is a TlogError with a `code`, so a caller (the server's error
 * mapper, `vigil log monitor`) can branch on what failed without parsing the message.
 */
export type TlogErrorCode =
  | 'invalid_input'
  | 'proof_failed'
  | 'malformed_note'
  | 'malformed_checkpoint'
  | 'malformed_tile_path'
  | 'malformed_entry_bundle'
  | 'malformed_proof'
  | 'malformed_key'
  | 'ambiguous_key'
  | 'invalid_signature'
  | 'unverified_note'
  | 'inconsistent_tile'
  | 'hash_reader';

/** Runs a caller's reader; its own failure becomes a 'hash_reader' TlogError with the original as `cause`. */
export async function callReader<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof TlogError) throw error;
    throw new TlogError('hash_reader', `${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export class TlogError extends Error {
  override name = 'TlogError';
  readonly code: TlogErrorCode;

  constructor(code: TlogErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
