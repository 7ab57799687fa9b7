/**
 * Every error thrown by @vigil/crypto names the argument at fault, so a caller (or the server's
 * error mapper) can say which input was wrong without parsing the message.
 */
export class CryptoInputError extends Error {
  override name = 'CryptoInputError';
  readonly argument: string;

  constructor(argument: string, problem: string) {
    super(`${argument}: ${problem}`);
    this.argument = argument;
  }
}

/** Why an ss58 address was refused. */
export type Ss58ErrorReason = 'type' | 'alphabet' | 'length' | 'checksum' | 'prefix';

export class Ss58Error extends CryptoInputError {
  override name = 'Ss58Error';
  readonly reason: Ss58ErrorReason;

  constructor(argument: string, reason: Ss58ErrorReason, problem: string) {
    super(argument, problem);
    this.reason = reason;
  }
}

/** `payload.validator_hotkey` is not the address of the key asked to sign. */
export class HotkeyMismatchError extends CryptoInputError {
  override name = 'HotkeyMismatchError';
}

/**
 * A token that does not have the API key shape. The message never repeats the token: it carries
 * a secret, and error messages end up in logs.
 */
export class ApiKeyFormatError extends Error {
  override name = 'ApiKeyFormatError';
  readonly argument: string;

  constructor(argument: string, problem: string) {
    super(`${argument}: malformed api key (${problem})`);
    this.argument = argument;
  }
}
