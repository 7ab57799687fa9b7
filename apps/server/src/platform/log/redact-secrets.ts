/**
 * Anything shaped like an API key (`vgl_<8 hex>_<secret>`), also percent-encoded (`vgl%5F…`) or in
 * the wrong letter case, wherever it appears: a token sent in a query string (`?api_key=vgl_…`)
 * would otherwise reach the log's `url`. The key id is kept: it is safe to log (docs/accounts.md).
 */
const API_KEY_SHAPE = /vgl(?:_|%5f)([0-9a-f]{8})(?:_|%5f)[0-9a-z]+/gi;

/** The text with every token-shaped string's secret replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  // Most log lines hold no token: skip the replace (and its copy) for them.
  if (!/vgl(?:_|%5f)/i.test(text)) return text;
  return text.replace(API_KEY_SHAPE, 'vgl_$1_[redacted]');
}
