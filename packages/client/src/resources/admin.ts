import {
  Account,
  AccountList,
  AdminAdvisoryStatus,
  AdminRoundClosed,
  AdminRoundSchedule,
  AdminValidator,
  AdminValidatorList,
  ApiKey,
  ApiKeyCreated,
  ApiKeyList,
  AuditLogPage,
  MetagraphUploaded,
  OutboxBacklog,
  PackageRequestList,
  RegistryFetchList,
  RegistryFetchRetried,
  WatcherSummary,
} from '@vigil/core';
import type { AccountKind, ApiKeyScope, MetagraphSnapshot, Plan, RegistryFetchEcosystem, RegistryFetchState, ValidatorAdminAction } from '@vigil/core';
import type { Dated } from '../dates.js';
import type { PagePromise } from '../pagination.js';
import type { CallOptions, PageOptions, Transport } from '../transport.js';
import { call, paginate, segment } from './shared.js';

/** `/v1/admin/accounts*`. */
export class AdminAccounts {
  readonly keys: AdminAccountKeys;

  constructor(private readonly transport: Transport) {
    this.keys = new AdminAccountKeys(transport);
  }

  /** Every account, oldest first. */
  async list(options?: CallOptions): Promise<Dated<typeof Account>[]> {
    return (await call(this.transport, { method: 'GET', path: '/v1/admin/accounts', schema: AccountList, repeatable: 'safe' }, options)).accounts;
  }

  /** A new account (`kind` defaults to organization, `plan` to free). */
  create(params: { name: string; kind?: AccountKind; plan?: Plan }, options?: CallOptions): Promise<Dated<typeof Account>> {
    return call(this.transport, { method: 'POST', path: '/v1/admin/accounts', body: { json: params }, schema: Account, repeatable: 'keyed' }, options);
  }

  get(accountId: string, options?: CallOptions): Promise<Dated<typeof Account>> {
    return call(this.transport, { method: 'GET', path: `/v1/admin/accounts/${segment(accountId, 'accountId')}`, schema: Account, repeatable: 'safe' }, options);
  }

  /** A new plan, a new trust, or both. */
  update(accountId: string, params: { plan?: Plan; trusted?: boolean }, options?: CallOptions): Promise<Dated<typeof Account>> {
    return call(this.transport, { method: 'POST', path: `/v1/admin/accounts/${segment(accountId, 'accountId')}`, body: { json: params }, schema: Account, repeatable: 'keyed' }, options);
  }
}

/** `/v1/admin/accounts/{account_id}/keys`. */
export class AdminAccountKeys {
  constructor(private readonly transport: Transport) {}

  async list(accountId: string, options?: CallOptions): Promise<Dated<typeof ApiKey>[]> {
    return (await call(this.transport, { method: 'GET', path: `/v1/admin/accounts/${segment(accountId, 'accountId')}/keys`, schema: ApiKeyList, repeatable: 'safe' }, options)).keys;
  }

  /** A key with any scopes for the account; not deduplicated by the server, so only a 429 is retried. */
  create(accountId: string, params: { name: string; scopes: ApiKeyScope[] }, options?: CallOptions): Promise<Dated<typeof ApiKeyCreated>> {
    return call(
      this.transport,
      { method: 'POST', path: `/v1/admin/accounts/${segment(accountId, 'accountId')}/keys`, body: { json: params }, schema: ApiKeyCreated, repeatable: 'unsafe' },
      options,
    );
  }
}

/** `/v1/admin/validators*`. */
export class AdminValidators {
  constructor(private readonly transport: Transport) {}

  /** Every validator record, oldest registration first. */
  async list(options?: CallOptions): Promise<Dated<typeof AdminValidator>[]> {
    return (await call(this.transport, { method: 'GET', path: '/v1/admin/validators', schema: AdminValidatorList, repeatable: 'safe' }, options)).validators;
  }

  #action(hotkey: string, action: ValidatorAdminAction, options?: CallOptions): Promise<Dated<typeof AdminValidator>> {
    return call(this.transport, { method: 'POST', path: `/v1/admin/validators/${segment(hotkey, 'hotkey')}/${action}`, schema: AdminValidator, repeatable: 'keyed' }, options);
  }

  approve(hotkey: string, options?: CallOptions): Promise<Dated<typeof AdminValidator>> {
    return this.#action(hotkey, 'approve', options);
  }
  suspend(hotkey: string, options?: CallOptions): Promise<Dated<typeof AdminValidator>> {
    return this.#action(hotkey, 'suspend', options);
  }
  revoke(hotkey: string, options?: CallOptions): Promise<Dated<typeof AdminValidator>> {
    return this.#action(hotkey, 'revoke', options);
  }
  restore(hotkey: string, options?: CallOptions): Promise<Dated<typeof AdminValidator>> {
    return this.#action(hotkey, 'restore', options);
  }

  /** Replaces a validator's IP allowlist. */
  setAllowlist(hotkey: string, allowedIps: string[], options?: CallOptions): Promise<Dated<typeof AdminValidator>> {
    return call(
      this.transport,
      { method: 'POST', path: `/v1/admin/validators/${segment(hotkey, 'hotkey')}/allowlist`, body: { json: { allowed_ips: allowedIps } }, schema: AdminValidator, repeatable: 'keyed' },
      options,
    );
  }
}

/** `/v1/admin/rounds*`. */
export class AdminRounds {
  constructor(private readonly transport: Transport) {}

  /** Every track's latest round, its deadlines and the next opening. */
  schedule(options?: CallOptions): Promise<Dated<typeof AdminRoundSchedule>> {
    return call(this.transport, { method: 'GET', path: '/v1/admin/rounds', schema: AdminRoundSchedule, repeatable: 'safe' }, options);
  }

  /** Closes a round in evaluation now; `force` before its `closes_at`. */
  close(roundId: string, params: { force?: boolean } = {}, options?: CallOptions): Promise<Dated<typeof AdminRoundClosed>> {
    return call(
      this.transport,
      { method: 'POST', path: `/v1/admin/rounds/${segment(roundId, 'roundId')}/close`, body: { json: params }, schema: AdminRoundClosed, repeatable: 'keyed' },
      options,
    );
  }
}

/** Filters of the registry fetch list; both optional. */
export interface RegistryFetchListParams {
  state?: RegistryFetchState;
  ecosystem?: RegistryFetchEcosystem;
}

/** `/v1/admin/registries/fetches*` (docs/registries.md, "Operating the fetch queue"). */
export class AdminRegistryFetches {
  constructor(private readonly transport: Transport) {}

  /**
   * Counts by state, how many are due and since when (how far behind the workers are), with the
   * first page of fetches, newest first: the answer of one `GET`, filters applied to `fetches` only.
   */
  queue(params: RegistryFetchListParams = {}, options?: CallOptions): Promise<Dated<typeof RegistryFetchList>> {
    return call(this.transport, { method: 'GET', path: '/v1/admin/registries/fetches', query: { ...params }, schema: RegistryFetchList, repeatable: 'safe' }, options);
  }

  /** Every fetch matching the filters, newest first (keyset pages). */
  list(params: RegistryFetchListParams = {}, options?: PageOptions): PagePromise<Dated<typeof RegistryFetchList>['fetches'][number]> {
    return paginate(this.transport, { path: '/v1/admin/registries/fetches', query: { ...params }, schema: RegistryFetchList }, (body) => body.fetches, options);
  }

  /**
   * Puts one fetch (`{ purl }`: failed, or queued and backing off) or every failed fetch
   * (`{ state: 'failed' }`) back to be fetched now, attempts reset. A stored or running fetch: 409.
   */
  retry(target: { purl: string } | { state: 'failed' }, options?: CallOptions): Promise<Dated<typeof RegistryFetchRetried>> {
    return call(this.transport, { method: 'POST', path: '/v1/admin/registries/fetches/retry', body: { json: target }, schema: RegistryFetchRetried, repeatable: 'keyed' }, options);
  }
}

/** `/v1/admin/*` (docs/accounts.md, "Admin API"): a key with the `admin` scope from an allowlisted address. */
export class Admin {
  readonly accounts: AdminAccounts;
  readonly validators: AdminValidators;
  readonly rounds: AdminRounds;
  readonly registries: {
    readonly fetches: AdminRegistryFetches;
    /** `GET /v1/admin/registries/watcher`: the release watcher's names, watches by source, what is due and how far behind (docs/watches.md). */
    watcher(options?: CallOptions): Promise<Dated<typeof WatcherSummary>>;
  };
  readonly keys: { revoke(keyId: string, options?: CallOptions): Promise<Dated<typeof ApiKey>> };
  readonly auditLog: { list(options?: PageOptions): PagePromise<Dated<typeof AuditLogPage>['entries'][number]> };
  readonly packageRequests: { list(options?: PageOptions): PagePromise<Dated<typeof PackageRequestList>['package_requests'][number]> };
  readonly metagraph: { upload(snapshot: MetagraphSnapshot, options?: CallOptions): Promise<Dated<typeof MetagraphUploaded>> };
  readonly outbox: { get(options?: CallOptions): Promise<Dated<typeof OutboxBacklog>> };
  readonly advisories: { status(options?: CallOptions): Promise<Dated<typeof AdminAdvisoryStatus>> };

  constructor(transport: Transport) {
    this.accounts = new AdminAccounts(transport);
    this.validators = new AdminValidators(transport);
    this.rounds = new AdminRounds(transport);
    this.registries = {
      fetches: new AdminRegistryFetches(transport),
      watcher: (options) => call(transport, { method: 'GET', path: '/v1/admin/registries/watcher', schema: WatcherSummary, repeatable: 'safe' }, options),
    };
    this.keys = {
      /** Revokes any account's key (not the one in use). */
      revoke: (keyId, options) =>
        call(transport, { method: 'DELETE', path: `/v1/admin/keys/${segment(keyId, 'keyId')}`, schema: ApiKey, repeatable: 'keyed' }, options),
    };
    this.auditLog = {
      /** Administrative actions, newest first (paginated). */
      list: (options) => paginate(transport, { path: '/v1/admin/audit-log', schema: AuditLogPage }, (body) => body.entries, options),
    };
    this.packageRequests = {
      /** Packages verifications asked for that Vigil holds no bytes for, most requested first (paginated). */
      list: (options) => paginate(transport, { path: '/v1/admin/package-requests', schema: PackageRequestList }, (body) => body.package_requests, options),
    };
    this.metagraph = {
      /** Replaces the snapshot file permit checks read (file sources only). */
      upload: (snapshot, options) =>
        call(transport, { method: 'POST', path: '/v1/admin/metagraph', body: { json: snapshot }, schema: MetagraphUploaded, repeatable: 'keyed' }, options),
    };
    this.outbox = {
      /** Webhook events not yet delivered. */
      get: (options) => call(transport, { method: 'GET', path: '/v1/admin/outbox', schema: OutboxBacklog, repeatable: 'safe' }, options),
    };
    this.advisories = {
      /** What the OSV advisory import stored, and its last run. */
      status: (options) => call(transport, { method: 'GET', path: '/v1/admin/advisories', schema: AdminAdvisoryStatus, repeatable: 'safe' }, options),
    };
  }
}
