import { AccountSelf, ApiKey, ApiKeyCreated, ApiKeyList } from '@vigil/core';
import type { ApiKeyScope } from '@vigil/core';
import type { Dated } from '../dates.js';
import type { CallOptions, Transport } from '../transport.js';
import { call, segment } from './shared.js';

/** `GET /v1/account` (docs/accounts.md). */
export class AccountResource {
  constructor(private readonly transport: Transport) {}

  /** The account and the key this client's token belongs to (any scope). */
  get(options?: CallOptions): Promise<Dated<typeof AccountSelf>> {
    return call(this.transport, { method: 'GET', path: '/v1/account', schema: AccountSelf, repeatable: 'safe' }, options);
  }
}

/** `/v1/keys*`: the account's own keys (scope `keys`). */
export class Keys {
  constructor(private readonly transport: Transport) {}

  /**
   * A new key; its `token` is in this answer only. Not deduplicated by the server (a token is never
   * stored), so only a 429 is retried: after a 5xx or a lost answer, `list()` and revoke the extra key.
   */
  create(params: { name: string; scopes: ApiKeyScope[] }, options?: CallOptions): Promise<Dated<typeof ApiKeyCreated>> {
    return call(this.transport, { method: 'POST', path: '/v1/keys', body: { json: params }, schema: ApiKeyCreated, repeatable: 'unsafe' }, options);
  }

  /** Every key of the account, newest first, revoked ones included; never a token. */
  async list(options?: CallOptions): Promise<Dated<typeof ApiKey>[]> {
    return (await call(this.transport, { method: 'GET', path: '/v1/keys', schema: ApiKeyList, repeatable: 'safe' }, options)).keys;
  }

  /** Revokes a key of the account (not the one in use). */
  revoke(keyId: string, options?: CallOptions): Promise<Dated<typeof ApiKey>> {
    return call(this.transport, { method: 'DELETE', path: `/v1/keys/${segment(keyId, 'keyId')}`, schema: ApiKey, repeatable: 'keyed' }, options);
  }
}
