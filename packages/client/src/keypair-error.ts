/**
 * A seed or keyfile that cannot be used. `field` names what is wrong (`seed`, `keyfile`,
 * `secretSeed`, `publicKey`, `accountId`, `ss58Address`) and the message starts with it.
 */
export class KeypairError extends Error {
  override name = 'KeypairError';
  readonly field: string;
  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.field = field;
  }
}
