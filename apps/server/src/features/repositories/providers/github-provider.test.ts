import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGithubProvider } from './github-provider.js';
import { githubSettingsFromEnv } from './github-settings.js';
import { SourceProviderError } from './source-provider.js';
import { startStandInGithub, type StandInGithub } from './test-support/stand-in-github.js';

const repo = { owner: 'Acme', name: 'widgets' };
const gitBlobSha = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0${text}`).digest('hex');
const isLockfile = (path: string) => /(^|\/)(package-lock\.json|pnpm-lock\.yaml)$/.test(path);

async function providerError(promise: Promise<unknown>): Promise<SourceProviderError> {
  const error = await promise.then(
    () => expect.fail('expected a SourceProviderError'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceProviderError);
  return error as SourceProviderError;
}

describe('GitHub provider against a stand-in GitHub API', () => {
  let github: StandInGithub;
  beforeEach(async () => {
    github = await startStandInGithub();
  });
  afterEach(async () => github.close());

  const provider = (env: Record<string, string> = {}) => createGithubProvider(githubSettingsFromEnv({ VIGIL_GITHUB_API_URL: github.url, ...env }));

  it('reads the default branch head, lists lockfiles in the tree and fetches one at the commit', async () => {
    const sha = github.commit('acme', 'widgets', {
      'package.json': '{}',
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      'apps/web/package-lock.json': '{"lockfileVersion":3}',
      'docs/readme.md': 'x',
    });
    const p = provider();
    expect(await p.defaultBranchHead(repo)).toEqual({ ref: 'refs/heads/main', commit: sha });
    const listed = await p.listLockfiles(repo, sha, isLockfile);
    expect(listed.map((f) => f.path).sort()).toEqual(['apps/web/package-lock.json', 'pnpm-lock.yaml']);
    // The git blob sha of the contents (`git hash-object`), which tells an unchanged file without fetching it.
    expect(listed.find((f) => f.path === 'pnpm-lock.yaml')?.sha).toBe(gitBlobSha("lockfileVersion: '9.0'\n"));
    expect(await p.fetchFile(repo, sha, 'apps/web/package-lock.json')).toBe('{"lockfileVersion":3}');
    // Contents are asked for raw at the pushed commit, never at a moving branch.
    const contents = github.requests.find((r) => r.path.startsWith('/repos/Acme/widgets/contents/'));
    expect(contents?.path).toBe(`/repos/Acme/widgets/contents/apps/web/package-lock.json?ref=${sha}`);
    expect(contents?.accept).toBe('application/vnd.github.raw+json');
  });

  it('sends VIGIL_GITHUB_TOKEN as a bearer token, and none without it', async () => {
    github.commit('acme', 'widgets', { 'pnpm-lock.yaml': 'x' });
    github.requiredToken = 'ghp_test';
    await provider({ VIGIL_GITHUB_TOKEN: 'ghp_test' }).defaultBranchHead(repo);
    expect(github.requests.at(-1)?.authorization).toBe('Bearer ghp_test');
    const refused = await providerError(provider().defaultBranchHead(repo));
    expect(refused.status).toBe(401);
    expect(refused.retryable).toBe(true);
    expect(github.requests.at(-1)?.authorization).toBeUndefined();
  });

  it('a missing repository or file is final, and says a private repository needs a token', async () => {
    const missing = await providerError(provider().defaultBranchHead({ owner: 'acme', name: 'nope' }));
    expect(missing.retryable).toBe(false);
    expect(missing.message).toBe('GitHub GET /repos/acme/nope: 404 not found (the repository, commit or file does not exist, or the repository is private and VIGIL_GITHUB_TOKEN is not set)');
    const sha = github.commit('acme', 'widgets', { 'pnpm-lock.yaml': 'x' });
    expect((await providerError(provider().fetchFile(repo, sha, 'package-lock.json'))).status).toBe(404);
  });

  it('server errors and rate limits are retryable, with the wait GitHub asked for', async () => {
    github.commit('acme', 'widgets', { 'pnpm-lock.yaml': 'x' });
    github.failNext(1, 502);
    const down = await providerError(provider().defaultBranchHead(repo));
    expect(down).toMatchObject({ retryable: true, status: 502 });
    expect(down.message).toBe('GitHub GET /repos/Acme/widgets: 502 Bad Gateway');
    github.failNext(1, 403, { 'x-ratelimit-remaining': '0', 'retry-after': '42' });
    const limited = await providerError(provider().defaultBranchHead(repo));
    expect(limited).toMatchObject({ retryable: true, status: 403, retryAfterMs: 42_000 });
    expect(limited.message).toContain('rate limited by GitHub (no VIGIL_GITHUB_TOKEN');
    // A 503 that says how long to wait is waited for too (issue 23: it was retried after 30 s).
    github.failNext(1, 503, { 'retry-after': '240' });
    expect(await providerError(provider().defaultBranchHead(repo))).toMatchObject({ retryable: true, status: 503, retryAfterMs: 240_000 });
    // Once GitHub answers again, so does the provider.
    expect((await provider().defaultBranchHead(repo)).ref).toBe('refs/heads/main');
  });

  it('a GitHub that does not answer is given up after VIGIL_GITHUB_TIMEOUT_MS, retryably', async () => {
    github.stall = true;
    const error = await providerError(provider({ VIGIL_GITHUB_TIMEOUT_MS: '200' }).defaultBranchHead(repo));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('GitHub GET /repos/Acme/widgets: no answer within 200 ms');
  });

  it('a GitHub that is not there at all is a retryable network error naming the request', async () => {
    const url = github.url;
    await github.close();
    const error = await providerError(createGithubProvider(githubSettingsFromEnv({ VIGIL_GITHUB_API_URL: url })).defaultBranchHead(repo));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^GitHub GET \/repos\/Acme\/widgets: fetch failed \(ECONNREFUSED\)$/);
    github = await startStandInGithub();
  });
});

describe('GitHub settings', () => {
  it('defaults to api.github.com, anonymous, 10 s', () => {
    expect(githubSettingsFromEnv({})).toEqual({ apiUrl: 'https://api.github.com', token: undefined, timeoutMs: 10_000 });
    expect(githubSettingsFromEnv({ VIGIL_GITHUB_API_URL: ' https://ghe.example/api/v3/ ' }).apiUrl).toBe('https://ghe.example/api/v3');
  });

  it.each([
    ['VIGIL_GITHUB_API_URL', 'ftp://x', 'VIGIL_GITHUB_API_URL: expected an http(s):// URL without credentials, query or fragment, got "ftp://x"'],
    ['VIGIL_GITHUB_API_URL', 'not a url', 'VIGIL_GITHUB_API_URL: expected an http(s):// URL, got "not a url"'],
    ['VIGIL_GITHUB_TIMEOUT_MS', '5', 'VIGIL_GITHUB_TIMEOUT_MS: expected an integer 100-600000, got "5"'],
  ])('refuses %s=%s naming the variable', (name, value, message) => {
    expect(() => githubSettingsFromEnv({ [name]: value })).toThrow(message);
  });
});
