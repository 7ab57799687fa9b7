import { Repository, RepositoryList, RepositoryRegistered, RepositoryVerification } from '@vigil/core';
import type { RepositoryRegistrationRequest, RepositoryVerifyRequest } from '@vigil/core';
import type * as z from 'zod';
import type { Dated } from '../dates.js';
import type { PagePromise } from '../pagination.js';
import type { CallOptions, PageOptions, Transport } from '../transport.js';
import { call, paginate, segment } from './shared.js';

/** `/v1/repositories*` (docs/repositories.md; scope `repositories`). */
export class Repositories {
  constructor(private readonly transport: Transport) {}

  /** Registers a repository for continuous verification; the answer's webhook secret is shown only here (paid plan). */
  create(params: RepositoryRegistrationRequest, options?: CallOptions): Promise<Dated<typeof RepositoryRegistered>> {
    return call(this.transport, { method: 'POST', path: '/v1/repositories', body: { json: params }, schema: RepositoryRegistered, repeatable: 'keyed' }, options);
  }

  /** The account's repositories, oldest first (paginated). */
  list(options?: PageOptions): PagePromise<Dated<typeof Repository>> {
    return paginate(this.transport, { path: '/v1/repositories', schema: RepositoryList }, (body) => body.repositories, options);
  }

  /** A repository with its last verification and last push. */
  get(repositoryId: string, options?: CallOptions): Promise<Dated<typeof Repository>> {
    return call(this.transport, { method: 'GET', path: `/v1/repositories/${segment(repositoryId, 'repositoryId')}`, schema: Repository, repeatable: 'safe' }, options);
  }

  /** The repository's last stored verification, every file and dependency. */
  verification(repositoryId: string, options?: CallOptions): Promise<Dated<typeof RepositoryVerification>> {
    return call(
      this.transport,
      { method: 'GET', path: `/v1/repositories/${segment(repositoryId, 'repositoryId')}/verification`, schema: RepositoryVerification, repeatable: 'safe' },
      options,
    );
  }

  /** Verifies what lockfiles install (posted, or a registered repository's last push) under a policy. */
  verify(params: z.input<typeof RepositoryVerifyRequest>, options?: CallOptions): Promise<Dated<typeof RepositoryVerification>> {
    return call(this.transport, { method: 'POST', path: '/v1/repositories/verify', body: { json: params }, schema: RepositoryVerification, repeatable: 'safe' }, options);
  }

  /** Stops verifying a repository and deletes what Vigil kept for it; answers it as it was. */
  delete(repositoryId: string, options?: CallOptions): Promise<Dated<typeof Repository>> {
    return call(this.transport, { method: 'DELETE', path: `/v1/repositories/${segment(repositoryId, 'repositoryId')}`, schema: Repository, repeatable: 'keyed' }, options);
  }
}
