import { ConfigError } from './config-error.js';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The one rule for every setting (docs/configuration.md): surrounding whitespace is ignored, so
 * `PORT=' 8081 '` is 8081 wherever a variable is read, and an unset, empty or blank variable means
 * "use the default". Every reader of process.env goes through here.
 */
export function envText(env: Env, name: string): string | undefined {
  const text = env[name]?.trim();
  return text ? text : undefined;
}

/**
 * A whole number in [min, max] (decimal digits only: no sign, exponent or fraction), or `fallback`
 * when unset. `expected` words the refusal, e.g. `an integer 1-3600`.
 */
export function envInteger(env: Env, name: string, fallback: number, bounds: { min: number; max: number; expected: string }): number {
  const text = envText(env, name);
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < bounds.min || n > bounds.max) {
    throw new ConfigError(name, `expected ${bounds.expected}, got ${JSON.stringify(text)}`);
  }
  return n;
}
