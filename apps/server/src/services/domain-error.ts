/**
 * Refusals of the write-side services whose wire status and detail the spec does not show (they sit
 * behind the signed validator/miner endpoints). The HTTP layer maps each code to a response; the
 * message names the argument at fault. 404s of the public surface use VigilError instead.
 */
export type DomainErrorCode =
  | 'invalid_argument'
  | 'miner_not_registered'
  | 'validator_not_found'
  | 'validator_not_active'
  | 'round_already_open'
  | 'round_not_open'
  | 'round_wrong_phase'
  | 'artifact_not_found'
  | 'artifact_conflict'
  | 'task_not_found'
  | 'attestation_mismatch'
  | 'attestation_conflict';

export class DomainError extends Error {
  override name = 'DomainError';
  readonly code: DomainErrorCode;

  constructor(code: DomainErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
