import { describe, expect, it } from 'vitest';
import { Repository, RepositoryHookAnswer, RepositoryIdParams, RepositoryRegistered, RepositoryRegistrationRequest } from './repositories.js';
import { repository, repositoryPush, repositoryRegistrationRequest, repositoryVerificationBrief } from '../test-support/fixtures.js';
import { REMOVE, expectAccepted, expectRejectedAt, rejectCase, withChange } from '../test-support/schema-cases.js';

describe('RepositoryRegistrationRequest', () => {
  it('accepts the spec shape with and without a policy', () => {
    expectAccepted(RepositoryRegistrationRequest, repositoryRegistrationRequest());
    const withoutPolicy = withChange(repositoryRegistrationRequest(), ['policy'], REMOVE);
    expect(expectAccepted(RepositoryRegistrationRequest, withoutPolicy)).toEqual(withoutPolicy);
  });

  it.each(['gitlab', 'bitbucket'])('accepts the not-yet-connected provider name %s (refused later, not by the schema)', (provider) => {
    expectAccepted(RepositoryRegistrationRequest, withChange(repositoryRegistrationRequest(), ['provider'], provider));
  });

  it.each([
    rejectCase('an http url', ['url'], 'http://github.com/example/widgets.git'),
    rejectCase('an ssh clone url', ['url'], 'git@github.com:example/widgets.git'),
    rejectCase('an unknown provider', ['provider'], 'sourceforge'),
    rejectCase('an uppercase provider', ['provider'], 'GitHub'),
    rejectCase('an empty policy', ['policy'], ''),
    rejectCase('url missing', ['url'], REMOVE),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(RepositoryRegistrationRequest, withChange(repositoryRegistrationRequest(), path, value), path);
  });

  it('refuses an unknown field rather than ignoring it', () => {
    expect(RepositoryRegistrationRequest.safeParse({ ...repositoryRegistrationRequest(), branch: 'main' }).success).toBe(false);
  });
});

describe('Repository', () => {
  it('accepts a fresh record, a verified one with its last push, and the creation envelope with the webhook setup', () => {
    expectAccepted(Repository, repository());
    expectAccepted(Repository, {
      ...repository(),
      verdict: 'WARN',
      last_verified_at: '2026-11-21T10:01:02.000+00:00',
      last_verification: repositoryVerificationBrief(),
      last_push: repositoryPush(),
    });
    expectAccepted(RepositoryRegistered, {
      data: {
        ...repository(),
        webhook: { path: '/v1/repositories/hooks/github', content_type: 'application/json', events: ['push'], secret: 'ab'.repeat(32) },
      },
    });
  });

  it.each([
    rejectCase('an id without the repo_ prefix', ['id'], 'r_1'),
    rejectCase('an id with uppercase hex', ['id'], 'repo_7C1D2E3F4A5B6C7D'),
    rejectCase('a lowercase verdict', ['verdict'], 'allow'),
    rejectCase('continuous missing', ['continuous'], REMOVE),
    rejectCase('last_push missing', ['last_push'], REMOVE),
    rejectCase('a naive created_at', ['created_at'], '2026-11-21T10:00:00.000'),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(Repository, withChange(repository(), path, value), path);
  });

  it('a push state outside the five is refused', () => {
    expectRejectedAt(Repository, { ...repository(), last_push: { ...repositoryPush(), state: 'waiting' } }, ['last_push', 'state']);
  });
});

describe('RepositoryIdParams and RepositoryHookAnswer', () => {
  it('take repo_<16 hex> ids only', () => {
    expectAccepted(RepositoryIdParams, { id: 'repo_0123456789abcdef' });
    expectRejectedAt(RepositoryIdParams, { id: 'repo_123' }, ['id']);
  });

  it('answers a queued push with its commit and an ignored event with its reason', () => {
    expectAccepted(RepositoryHookAnswer, { status: 'queued', repository: 'repo_0123456789abcdef', delivery: 'd-1', commit: 'ab'.repeat(20), reason: null });
    expectAccepted(RepositoryHookAnswer, { status: 'ignored', repository: 'repo_0123456789abcdef', delivery: 'd-2', commit: null, reason: 'event issues is not handled' });
    expectRejectedAt(RepositoryHookAnswer, { status: 'accepted', repository: 'repo_0123456789abcdef', delivery: 'd', commit: null, reason: null }, ['status']);
  });
});
