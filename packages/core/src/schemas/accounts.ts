import * as z from 'zod';
import { OffsetTimestamp } from '../timestamps.js';

/**
 * What an API key may do (spec part 5 item 6: "a key carries scopes"; the names are Vigil's, listed
 * with what each opens in docs/accounts.md). A key without the scope a route needs gets
 * 403 `api key lacks '<scope>' scope`.
 */
export const API_KEY_SCOPES = [
  'read',
  'upload',
  'verify',
  'policies',
  'repositories',
  'webhooks',
  'keys',
  'admin',
] as const;
export const ApiKeyScope = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

/** Spec part 5 item 3: verifying, full findings and policy evaluation need `paid`. */
export const PLANS = ['free', 'paid'] as const;
export const Plan = z.enum(PLANS);
export type Plan = z.infer<typeof Plan>;

/** Spec part 5 item 4: an organization's key applies its policies; a personal key the public default. */
export const ACCOUNT_KINDS = ['organization', 'personal'] as const;
export const AccountKind = z.enum(ACCOUNT_KINDS);
export type AccountKind = z.infer<typeof AccountKind>;

/** `acc_<16 hex>`. */
export const AccountId = z.string().regex(/^acc_[0-9a-f]{16}$/, 'expected acc_<16 lowercase hex>');
export type AccountId = z.infer<typeof AccountId>;

/** The 8 hex characters between the prefix and the secret: a key's public id. */
export const ApiKeyId = z.string().regex(/^[0-9a-f]{8}$/, 'expected 8 lowercase hex');
export type ApiKeyId = z.infer<typeof ApiKeyId>;

/** Lowercase letters, digits and inner hyphens, 2–64 characters (a slug that reads well in a URL or a log). */
export const AccountName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])$/, 'expected 2-64 lowercase letters, digits or inner hyphens');

export const Account = z.object({
  id: AccountId,
  name: z.string(),
  kind: AccountKind,
  plan: Plan,
  /**
   * The operator vouches for the account: the package references it uploads artifacts as count in
   * every account's verification, not only its own (docs/artifacts.md, "Whose references count").
   */
  trusted: z.boolean(),
  created_at: OffsetTimestamp,
});
export type Account = z.infer<typeof Account>;

/** A key as listed: never its secret nor the secret's hash. */
export const ApiKey = z.object({
  key_id: ApiKeyId,
  account_id: AccountId,
  name: z.string(),
  scopes: z.array(ApiKeyScope),
  status: z.enum(['active', 'revoked']),
  created_at: OffsetTimestamp,
  /** Recorded in batches: may lag real use by up to a few seconds. */
  last_used_at: OffsetTimestamp.nullable(),
  use_count: z.int().min(0),
  revoked_at: OffsetTimestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** The creation answer: the only time the token (and so the secret) is ever shown. */
export const ApiKeyCreated = ApiKey.extend({ token: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

export const ApiKeyCreateRequest = z.strictObject({
  name: z.string().trim().min(1).max(100),
  /** At least one; a key can grant only scopes the creating key holds itself. */
  scopes: z.array(ApiKeyScope).min(1).max(API_KEY_SCOPES.length),
});
export type ApiKeyCreateRequest = z.infer<typeof ApiKeyCreateRequest>;

export const ApiKeyList = z.object({ keys: z.array(ApiKey) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const ApiKeyIdParams = z.object({ key_id: ApiKeyId });
export type ApiKeyIdParams = z.infer<typeof ApiKeyIdParams>;

/** `GET /v1/account`: who the presented key belongs to and what it may do. */
export const AccountSelf = z.object({ account: Account, key: ApiKey });
export type AccountSelf = z.infer<typeof AccountSelf>;

/** `POST /v1/admin/accounts`: an organization or a personal account. */
export const AccountCreateRequest = z.strictObject({
  name: AccountName,
  kind: AccountKind.default('organization'),
  plan: Plan.default('free'),
});
export type AccountCreateRequest = z.output<typeof AccountCreateRequest>;

/** `POST /v1/admin/accounts/{account_id}`: a new plan, a new trust, or both (at least one). */
export const AccountUpdateRequest = z
  .strictObject({ plan: Plan.optional(), trusted: z.boolean().optional() })
  .refine((body) => body.plan !== undefined || body.trusted !== undefined, { message: 'expected plan, trusted or both' });
export type AccountUpdateRequest = z.infer<typeof AccountUpdateRequest>;

export const AccountList = z.object({ accounts: z.array(Account) });
export type AccountList = z.infer<typeof AccountList>;

export const AccountIdParams = z.object({ account_id: AccountId });
export type AccountIdParams = z.infer<typeof AccountIdParams>;

/** One administrative action (docs/accounts.md, "Audit log"). */
export const AuditLogEntry = z.object({
  id: z.string(),
  at: OffsetTimestamp,
  /** `operator` (the vigil-server command line) or `key:<key id>` (the admin API). */
  actor: z.string(),
  source_ip: z.string().nullable(),
  /** e.g. `account.create`, `account.plan`, `key.create`, `key.revoke`. */
  action: z.string(),
  /** The id of what was acted on. */
  target: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntry>;

export const AuditLogPage = z.object({ entries: z.array(AuditLogEntry) });
export type AuditLogPage = z.infer<typeof AuditLogPage>;
