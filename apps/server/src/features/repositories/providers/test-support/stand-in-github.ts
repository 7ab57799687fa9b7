import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the GitHub REST API: a real HTTP server answering the four reads the GitHub
 * provider makes (repository, branch, recursive tree, raw contents) the way api.github.com shapes
 * them, from repositories held in memory. Tests push commits into it and make it fail on purpose.
 */

export interface StandInCommit {
  sha: string;
  files: Map<string, string>;
}

export interface StandInRepository {
  owner: string;
  name: string;
  defaultBranch: string;
  /** Branch name → head commit sha. */
  branches: Map<string, string>;
  commits: Map<string, StandInCommit>;
}

export interface StandInRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  accept: string | undefined;
}

export interface StandInGithub {
  /** http://127.0.0.1:<port>: what VIGIL_GITHUB_API_URL points at. */
  readonly url: string;
  readonly requests: StandInRequest[];
  /** The next `times` requests are answered with `status` (and GitHub's error body). */
  failNext(times: number, status?: number, headers?: Record<string, string>): void;
  /** While true, requests are accepted and never answered (a provider that hangs). */
  stall: boolean;
  /** When set, requests without `Authorization: Bearer <token>` get 401 (and private repositories 404 without it). */
  requiredToken: string | undefined;
  /** Adds a commit with these files on `branch` (default: the default branch) and returns its sha. */
  commit(owner: string, name: string, files: Record<string, string>, branch?: string): string;
  /** Creates an empty repository with a default branch (and no commit yet). */
  createRepository(owner: string, name: string, defaultBranch?: string): StandInRepository;
  close(): Promise<void>;
}

function gitBlobSha(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

export async function startStandInGithub(): Promise<StandInGithub> {
  const repositories = new Map<string, StandInRepository>();
  const requests: StandInRequest[] = [];
  let failures: { times: number; status: number; headers: Record<string, string> } | null = null;
  let commitCounter = 0;
  const stalled = new Set<ServerResponse>();

  const keyOf = (owner: string, name: string) => `${owner}/${name}`.toLowerCase();

  function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(status, {
      'content-type': typeof body === 'string' ? 'application/vnd.github.raw+json; charset=utf-8' : 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    response.end(text);
  }

  function notFound(response: ServerResponse): void {
    send(response, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    requests.push({ method: request.method ?? 'GET', path: `${url.pathname}${url.search}`, authorization: request.headers.authorization, accept: request.headers.accept });
    if (state.stall) {
      stalled.add(response);
      return;
    }
    if (failures !== null && failures.times > 0) {
      failures.times -= 1;
      const { status, headers } = failures;
      if (failures.times === 0) failures = null;
      send(response, status, { message: status === 403 ? 'API rate limit exceeded' : 'Server Error', status: String(status) }, headers);
      return;
    }
    if (state.requiredToken !== undefined && request.headers.authorization !== `Bearer ${state.requiredToken}`) {
      send(response, 401, { message: 'Bad credentials', status: '401' });
      return;
    }
    const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
    if (request.method !== 'GET' || parts[0] !== 'repos' || parts.length < 3) return notFound(response);
    const repo = repositories.get(keyOf(parts[1]!, parts[2]!));
    if (repo === undefined) return notFound(response);
    const rest = parts.slice(3);
    if (rest.length === 0) {
      return send(response, 200, { name: repo.name, full_name: `${repo.owner}/${repo.name}`, default_branch: repo.defaultBranch, private: false });
    }
    if (rest[0] === 'branches' && rest.length === 2) {
      const sha = repo.branches.get(rest[1]!);
      if (sha === undefined) return notFound(response);
      return send(response, 200, { name: rest[1], commit: { sha, url: `${state.url}/repos/${repo.owner}/${repo.name}/commits/${sha}` }, protected: false });
    }
    if (rest[0] === 'git' && rest[1] === 'trees' && rest.length === 3) {
      const commit = repo.commits.get(rest[2]!);
      if (commit === undefined) return notFound(response);
      const recursive = url.searchParams.get('recursive') !== null;
      const dirs = new Set<string>();
      const tree: object[] = [];
      for (const [path, content] of commit.files) {
        if (!recursive && path.includes('/')) continue;
        const segments = path.split('/');
        for (let i = 1; i < segments.length; i++) dirs.add(segments.slice(0, i).join('/'));
        tree.push({ path, mode: '100644', type: 'blob', sha: gitBlobSha(content), size: Buffer.byteLength(content) });
      }
      for (const dir of dirs) tree.push({ path: dir, mode: '040000', type: 'tree', sha: gitBlobSha(dir) });
      return send(response, 200, { sha: commit.sha, url: '', tree, truncated: false });
    }
    if (rest[0] === 'contents' && rest.length >= 2) {
      const ref = url.searchParams.get('ref') ?? repo.branches.get(repo.defaultBranch);
      const commit = ref === undefined || ref === null ? undefined : repo.commits.get(ref);
      const content = commit?.files.get(rest.slice(1).join('/'));
      if (content === undefined) return notFound(response);
      if (!(request.headers.accept ?? '').includes('raw')) {
        return send(response, 200, { type: 'file', encoding: 'base64', content: Buffer.from(content).toString('base64') });
      }
      return send(response, 200, content);
    }
    return notFound(response);
  }

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const state: StandInGithub = {
    url: `http://127.0.0.1:${port}`,
    requests,
    stall: false,
    requiredToken: undefined,
    failNext(times, status = 503, headers = {}) {
      failures = { times, status, headers };
    },
    createRepository(owner, name, defaultBranch = 'main') {
      const repo: StandInRepository = { owner, name, defaultBranch, branches: new Map(), commits: new Map() };
      repositories.set(keyOf(owner, name), repo);
      return repo;
    },
    commit(owner, name, files, branch) {
      const repo = repositories.get(keyOf(owner, name)) ?? state.createRepository(owner, name);
      commitCounter += 1;
      const sha = createHash('sha1').update(`commit ${commitCounter} ${owner}/${name}`).digest('hex');
      repo.commits.set(sha, { sha, files: new Map(Object.entries(files)) });
      repo.branches.set(branch ?? repo.defaultBranch, sha);
      return sha;
    },
    async close() {
      for (const response of stalled) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}
