import { ERROR_CATALOGUE, describeError, type ErrorCode } from '@vigil/core';
import { VigilApiError, VigilPermissionError } from '@vigil/client';
import { describe, expect, it } from 'vitest';
import { isTransient, reasonOf } from './transient.js';

/** The error the SDK makes of a Vigil answer `{detail, code}` with the given status. */
function answered(status: number, detail: string, code: string | undefined): VigilApiError {
  const init = { status, detail, requestId: null, retryAfterSeconds: null, body: { detail, ...(code === undefined ? {} : { code }) } };
  return status === 403 ? new VigilPermissionError(init) : new VigilApiError(init);
}

function catalogued(code: ErrorCode): VigilApiError {
  const { status, detail } = describeError(code, 'x');
  return answered(status, detail, code);
}

describe('isTransient', () => {
  it('repeats a metagraph the server could not read, known by its code', () => {
    expect(isTransient(catalogued('metagraph_unavailable'))).toBe(true);
    // The code decides, not the wording: a reworded detail is still the same refusal.
    expect(isTransient(answered(403, 'the metagraph cannot be read right now', 'metagraph_unavailable'))).toBe(true);
  });

  it('does not repeat another 403 whose detail happens to start like it', () => {
    expect(isTransient(answered(403, 'metagraph unavailable - cannot verify validator permit', 'validator_revoked'))).toBe(false);
    // A body without a code (a proxy, an older server) is not guessed from its text either.
    expect(isTransient(answered(403, 'metagraph unavailable - cannot verify validator permit', undefined))).toBe(false);
  });

  it('repeats exactly the statuses the protocol says to retry, whatever the code', () => {
    const repeated = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => isTransient(catalogued(code)));
    expect(repeated.sort()).toEqual(
      [
        'agent_submission_limit',
        'handler_timeout',
        'internal_error',
        'metagraph_unavailable',
        // 503 while an instance's database is unreachable or behind (GET /v1/ready): another try, or instance, answers.
        'not_ready',
        'rate_limited',
        'service_unavailable',
        'too_many_signature_failures',
        'upstream_unavailable',
      ].sort(),
    );
  });
});

describe('reasonOf', () => {
  it('names the socket error of a connection the server refused, as the SDK reports it', async () => {
    const { Vigil } = await import('@vigil/client');
    // A port nothing listens on: fetch fails with ECONNREFUSED, which the SDK wraps.
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await Vigil.public({ baseUrl: `http://127.0.0.1:${port}` }).network.health().catch((e: unknown) => e);
    expect(isTransient(error)).toBe(true);
    expect(reasonOf(error)).toBe('connection failed: ECONNREFUSED');
  });

  it('gives an answer as its status and detail', () => {
    expect(reasonOf(catalogued('rate_limited'))).toBe('429 rate limit exceeded');
  });
});
