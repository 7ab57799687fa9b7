import { describe, expect, it } from 'vitest';
import { ErrorBody } from './error.js';
import { expectAccepted, expectRejectedAt } from '../test-support/schema-cases.js';

describe('ErrorBody', () => {
  it.each([
    ['a bare detail (a server older than `code`)', { detail: 'round not found' }],
    ['a detail with its catalogue code', { detail: 'round not found', code: 'round_not_found' }],
    ['a 500 with request_id', { detail: 'internal error', request_id: 'req-7f3a' }],
    ['a 422 naming failing fields', { detail: 'Validation error', errors: [{ path: 'days', message: 'Too big: expected number to be <=180' }] }],
  ])('accepts %s', (_name, body) => {
    expect(expectAccepted(ErrorBody, body)).toEqual(body);
  });

  it.each([
    ['a missing detail', {}, ['detail']],
    ['a detail that is not a string', { detail: 404 }, ['detail']],
    ['a code that is not a string', { detail: 'round not found', code: 404 }, ['code']],
    ['a request_id that is not a string', { detail: 'internal error', request_id: 1 }, ['request_id']],
    ['an error entry without a path', { detail: 'Validation error', errors: [{ message: 'x' }] }, ['errors', 0, 'path']],
  ])('rejects %s', (_name, body, path) => {
    expectRejectedAt(ErrorBody, body, path);
  });
});
