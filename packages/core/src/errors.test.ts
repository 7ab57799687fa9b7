import { describe, expect, it } from 'vitest';
import {
  ERROR_CATALOGUE,
  refusalDetail,
  ERROR_DETAILS,
  apiKeyLacksScopeDetail,
  describeError,
  sourceIpNotAllowlistedDetail,
  type ErrorCode,
} from './errors.js';

/**
 * Spec part 7, "Detail strings by cause", copied verbatim (status, detail) with the catalogue code
 * that carries it. `<scope>` and `...` are the spec's placeholders for the parameter.
 */
const SPEC_PART_7: ReadonlyArray<{ status: number; spec: string; code: ErrorCode; arg?: string; expected?: string }> = [
  { status: 404, spec: 'round not found', code: 'round_not_found' },
  { status: 404, spec: 'agent not found', code: 'agent_not_found' },
  { status: 422, spec: 'Validation error', code: 'validation_error' },
  { status: 429, spec: 'rate limit exceeded', code: 'rate_limited' },
  { status: 411, spec: 'length required', code: 'length_required' },
  { status: 413, spec: 'Body too large', code: 'body_too_large' },
  { status: 500, spec: 'internal error', code: 'internal_error' },
  { status: 504, spec: 'request handler timed out', code: 'handler_timeout' },
  { status: 401, spec: 'malformed api key', code: 'malformed_api_key' },
  { status: 401, spec: 'invalid or revoked api key', code: 'invalid_api_key' },
  { status: 403, spec: "api key lacks '<scope>' scope", code: 'scope_missing', arg: 'webhooks:write', expected: "api key lacks 'webhooks:write' scope" },
  { status: 400, spec: 'cannot revoke the key you are currently using', code: 'cannot_revoke_current_key' },
  { status: 404, spec: 'key not found', code: 'key_not_found' },
  { status: 401, spec: 'signature timestamp outside freshness window', code: 'signature_stale' },
  { status: 401, spec: 'signature already used (replay)', code: 'signature_replayed' },
  { status: 403, spec: 'hotkey not registered on netuid 76', code: 'hotkey_not_registered' },
  { status: 403, spec: 'hotkey does not hold a validator permit on netuid 76', code: 'no_validator_permit' },
  { status: 403, spec: 'validator access has been revoked', code: 'validator_revoked' },
  {
    status: 403,
    spec: 'source IP ... is not registered in the validator allowlist',
    code: 'ip_not_allowlisted',
    arg: '203.0.113.7',
    expected: 'source IP 203.0.113.7 is not registered in the validator allowlist',
  },
  { status: 403, spec: 'metagraph unavailable - cannot verify validator permit', code: 'metagraph_unavailable' },
  { status: 429, spec: 'too many signature failures', code: 'too_many_signature_failures' },
];

describe('spec part 7 detail strings', () => {
  it('every fixed detail string of the spec is a constant of ERROR_DETAILS', () => {
    const constants = new Set<string>(Object.values(ERROR_DETAILS));
    for (const row of SPEC_PART_7.filter((r) => r.arg === undefined)) expect(constants).toContain(row.spec);
  });

  it.each(SPEC_PART_7)('$code answers $status with the spec detail "$spec"', ({ status, spec, code, arg, expected }) => {
    expect(describeError(code, arg)).toEqual({ status, detail: expected ?? spec });
  });

  it('parameterised details fill the placeholder exactly where the spec puts it', () => {
    expect(apiKeyLacksScopeDetail('<scope>')).toBe("api key lacks '<scope>' scope");
    expect(sourceIpNotAllowlistedDetail('...')).toBe('source IP ... is not registered in the validator allowlist');
    expect(sourceIpNotAllowlistedDetail('2001:db8::1')).toBe('source IP 2001:db8::1 is not registered in the validator allowlist');
  });
});

describe('ERROR_CATALOGUE', () => {
  // The spec's status table, plus the standard HTTP statuses Vigil adds for its own causes (405, 408, 409, 415, 431).
  // 410: an events-feed cursor past retention (docs/webhooks.md).
  const STATUSES = new Set([400, 401, 403, 404, 405, 408, 409, 410, 411, 413, 415, 422, 429, 431, 500, 502, 503, 504]);

  it.each(Object.keys(ERROR_CATALOGUE) as ErrorCode[])('%s maps to a known status and a non-empty detail', (code) => {
    const { status, detail } = describeError(code, 'x');
    expect(STATUSES).toContain(status);
    expect(detail.length).toBeGreaterThan(0);
  });

  it('gives every cause its own detail string, so a client can tell causes apart', () => {
    // Refusals of the signed endpoints carry the sentence they were raised with instead.
    const fixed = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => ERROR_CATALOGUE[code].detail !== refusalDetail);
    const details = fixed.map((code) => describeError(code, 'x').detail);
    expect(new Set(details).size).toBe(details.length);
  });

  it('every ERROR_DETAILS constant is reachable from some catalogue code', () => {
    const reachable = new Set((Object.keys(ERROR_CATALOGUE) as ErrorCode[]).map((code) => describeError(code, 'x').detail));
    for (const detail of Object.values(ERROR_DETAILS)) expect(reachable).toContain(detail);
  });
});

describe('describeError arguments', () => {
  it('refuses to build a parameterised detail without its argument', () => {
    expect(() => describeError('scope_missing')).toThrow(/^arg: /);
    expect(() => describeError('ip_not_allowlisted', '')).toThrow(/^arg: /);
  });
});
