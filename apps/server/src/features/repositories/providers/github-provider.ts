import type { GithubSettings } from './github-settings.js';
import { SourceProviderError, type BranchHead, type ListedFile, type SourceProvider, type SourceRepositoryCoordinates } from './source-provider.js';

/** A lockfile larger than this is refused rather than read into memory (the largest real ones are a few MiB). */
export const MAX_FETCHED_FILE_BYTES = 32 * 1024 * 1024;
/** A tree listing is JSON of every path in the repository; GitHub itself stops at 100,000 entries. */
const MAX_TREE_BYTES = 64 * 1024 * 1024;
const API_VERSION = '2022-11-28';
const SHA_RE = /^[0-9a-f]{40}$/;

function segment(text: string): string {
  return encodeURIComponent(text);
}

function repoPath(repo: SourceRepositoryCoordinates): string {
  return `/repos/${segment(repo.owner)}/${segment(repo.name)}`;
}

/** How long GitHub asked us to wait: Retry-After seconds, or the rate-limit window's reset (epoch seconds). */
function retryAfterMs(response: Response, now: number): number | undefined {
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const reset = response.headers.get('x-ratelimit-reset');
  if (response.headers.get('x-ratelimit-remaining') === '0' && reset !== null && /^\d+$/.test(reset)) {
    return Math.max(0, Number(reset) * 1000 - now);
  }
  return undefined;
}

/**
 * The GitHub REST API as a SourceProvider: repository and branch metadata, the recursive tree of a
 * commit, and a file's raw contents at a commit. Every request has a timeout covering its body;
 * failures are SourceProviderErrors whose message names the request (never the token).
 */
export function createGithubProvider(settings: GithubSettings): SourceProvider {
  const headers: Record<string, string> = {
    'user-agent': 'vigil-server',
    'x-github-api-version': API_VERSION,
  };
  if (settings.token !== undefined) headers.authorization = `Bearer ${settings.token}`;

  async function request(path: string, accept: string, maxBytes: number): Promise<string> {
    const what = `GitHub GET ${path}`;
    let response: Response;
    try {
      response = await fetch(`${settings.apiUrl}${path}`, {
        headers: { ...headers, accept },
        redirect: 'follow',
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new SourceProviderError(
        timedOut ? `${what}: no answer within ${settings.timeoutMs} ms` : `${what}: ${(error as Error).message}${causeText(error)}`,
        { retryable: true, cause: error },
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw statusError(what, response);
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new SourceProviderError(`${what}: ${declared} bytes, more than the ${maxBytes} Vigil reads`, { retryable: false, status: response.status });
    }
    try {
      return await readText(response, maxBytes, what);
    } catch (error) {
      if (error instanceof SourceProviderError) throw error;
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new SourceProviderError(timedOut ? `${what}: the body did not arrive within ${settings.timeoutMs} ms` : `${what}: ${(error as Error).message}`, {
        retryable: true,
        cause: error,
      });
    }
  }

  function statusError(what: string, response: Response): SourceProviderError {
    const status = response.status;
    const wait = retryAfterMs(response, Date.now());
    const rateLimited = status === 429 || (status === 403 && (wait !== undefined || response.headers.get('x-ratelimit-remaining') === '0'));
    if (rateLimited) {
      return new SourceProviderError(`${what}: ${status} rate limited by GitHub${settings.token === undefined ? ' (no VIGIL_GITHUB_TOKEN: 60 requests per hour)' : ''}`, {
        retryable: true,
        status,
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
      });
    }
    if (status === 404) {
      return new SourceProviderError(
        `${what}: 404 not found (the repository, commit or file does not exist${settings.token === undefined ? ', or the repository is private and VIGIL_GITHUB_TOKEN is not set' : ' or the token cannot read it'})`,
        { retryable: false, status },
      );
    }
    // 401 and 403 are credentials an operator can fix; 5xx, 408 and 409 (a repository being created) pass.
    const retryable = status === 401 || status === 403 || status === 408 || status === 409 || status >= 500;
    // A 503 (or any retryable answer) that says how long to wait is waited for (docs/repositories.md).
    return new SourceProviderError(`${what}: ${status} ${response.statusText}`.trimEnd(), {
      retryable,
      status,
      ...(retryable && wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }

  async function json(path: string): Promise<unknown> {
    const text = await request(path, 'application/vnd.github+json', MAX_TREE_BYTES);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new SourceProviderError(`GitHub GET ${path}: the answer is not JSON`, { retryable: true, cause: error });
    }
  }

  function malformed(path: string, what: string): SourceProviderError {
    return new SourceProviderError(`GitHub GET ${path}: the answer has no ${what}`, { retryable: true });
  }

  return {
    async defaultBranchHead(repo): Promise<BranchHead> {
      const repoUrl = repoPath(repo);
      const meta = (await json(repoUrl)) as { default_branch?: unknown };
      if (typeof meta.default_branch !== 'string' || meta.default_branch === '') throw malformed(repoUrl, 'default_branch');
      const branch = meta.default_branch;
      const branchUrl = `${repoUrl}/branches/${segment(branch)}`;
      const head = (await json(branchUrl)) as { commit?: { sha?: unknown } };
      const sha = head.commit?.sha;
      if (typeof sha !== 'string' || !SHA_RE.test(sha)) throw malformed(branchUrl, 'commit.sha');
      return { ref: `refs/heads/${branch}`, commit: sha };
    },

    async listLockfiles(repo, commit, isLockfile) {
      const path = `${repoPath(repo)}/git/trees/${segment(commit)}?recursive=1`;
      const tree = (await json(path)) as { tree?: unknown; truncated?: unknown };
      if (!Array.isArray(tree.tree)) throw malformed(path, 'tree');
      if (tree.truncated === true) {
        // A partial listing could miss a lockfile, and a verification must never pass over one unread.
        throw new SourceProviderError(`GitHub GET ${path}: the tree is larger than GitHub lists in one answer (truncated)`, { retryable: false });
      }
      const found: ListedFile[] = [];
      for (const entry of tree.tree as { path?: unknown; type?: unknown; sha?: unknown }[]) {
        if (entry.type !== 'blob' || typeof entry.path !== 'string' || !isLockfile(entry.path)) continue;
        if (typeof entry.sha !== 'string' || !SHA_RE.test(entry.sha)) throw malformed(path, `sha for ${entry.path}`);
        found.push({ path: entry.path, sha: entry.sha });
      }
      return found;
    },

    async fetchFile(repo, commit, filePath) {
      const path = `${repoPath(repo)}/contents/${filePath.split('/').map(segment).join('/')}?ref=${segment(commit)}`;
      return request(path, 'application/vnd.github.raw+json', MAX_FETCHED_FILE_BYTES);
    },
  };
}

function causeText(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause === undefined) return '';
  return typeof cause.code === 'string' ? ` (${cause.code})` : typeof cause.message === 'string' ? ` (${cause.message})` : '';
}

/** Reads a body as UTF-8, giving up past `maxBytes` (a missing or wrong Content-Length cannot make it read more). */
async function readText(response: Response, maxBytes: number, what: string): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new SourceProviderError(`${what}: more than the ${maxBytes} bytes Vigil reads`, { retryable: false });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
