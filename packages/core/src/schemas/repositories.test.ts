import { describe, expect, it } from 'vitest';
import { Repository, RepositoryRegistered, RepositoryRegistrationRequest } from './repositories.js';
import { repository, repositoryRegistrationRequest } from '../test-support/fixtures.js';
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
});

describe('Repository', () => {
  it('accepts a fresh and a verified record, and the creation envelope', () => {
    expectAccepted(Repository, repository());
    expectAccepted(Repository, { ...repository(), verdict: 'ALLOW', last_verified_at: '2026-11-21T10:05:00.000+00:00' });
    expectAccepted(RepositoryRegistered, { data: repository() });
  });

  it.each([
    rejectCase('an id without the repo_ prefix', ['id'], 'r_1'),
    rejectCase('a lowercase verdict', ['verdict'], 'allow'),
    rejectCase('continuous missing', ['continuous'], REMOVE),
    rejectCase('a naive created_at', ['created_at'], '2026-11-21T10:00:00.000'),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(Repository, withChange(repository(), path, value), path);
  });
});
