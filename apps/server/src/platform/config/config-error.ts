/** A configuration problem; `message` is one line naming the variable, fit for stderr. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly variable: string;

  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.variable = variable;
  }
}
