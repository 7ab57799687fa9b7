import { API_KEY_SCOPES, type ApiKeyScope } from '@vigil/core';
import { UsageError } from '../exit-codes.js';

/** `--scopes`: comma-separated key scopes, each checked here so a typo is a usage error. */
export function scopesArg(value: string): ApiKeyScope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const bad = scopes.find((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (bad !== undefined || scopes.length === 0) throw new UsageError(`--scopes: expected a comma-separated list of ${API_KEY_SCOPES.join(', ')}${bad ? `, got ${JSON.stringify(bad)}` : ''}`);
  return scopes as ApiKeyScope[];
}
