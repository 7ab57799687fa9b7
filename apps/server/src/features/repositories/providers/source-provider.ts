/**
 * The one seam between repository verification and a source-hosting provider: everything a push
 * job needs from GitHub (and, once connected, GitLab or Bitbucket) is these three reads.
 */

/** A repository as the provider names it. */
export interface SourceRepositoryCoordinates {
  owner: string;
  name: string;
}

export interface BranchHead {
  /** `refs/heads/<branch>`. */
  ref: string;
  /** The commit the branch points at (40 hex). */
  commit: string;
}

export interface ListedFile {
  path: string;
  /** The git blob sha of the file's contents (40 hex). */
  sha: string;
}

export interface SourceProvider {
  /** The repository's default branch and the commit it points at now. */
  defaultBranchHead(repo: SourceRepositoryCoordinates): Promise<BranchHead>;
  /**
   * Every file at `commit` whose path `isLockfile` accepts, with its git blob sha (equal shas, equal
   * contents: a file whose blob did not change since the last verification need not be fetched).
   */
  listLockfiles(repo: SourceRepositoryCoordinates, commit: string, isLockfile: (path: string) => boolean): Promise<ListedFile[]>;
  /** The text of one file at `commit`. */
  fetchFile(repo: SourceRepositoryCoordinates, commit: string, path: string): Promise<string>;
}

/**
 * A read that failed. `retryable`: the provider (or the network to it) failed and the same read may
 * succeed later (timeouts, 5xx, rate limits, credentials an operator may fix); otherwise the read
 * can never succeed as asked (the repository or file does not exist, the tree is too large).
 */
export class SourceProviderError extends Error {
  override name = 'SourceProviderError';
  readonly retryable: boolean;
  /** The provider's HTTP status, when it answered. */
  readonly status: number | undefined;
  /** How long the provider asked us to wait (Retry-After, rate-limit reset), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, init: { retryable: boolean; status?: number; retryAfterMs?: number; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.retryable = init.retryable;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
  }
}
