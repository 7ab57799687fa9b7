import * as z from 'zod';
import { RepositoryProvider, Verdict } from '../enums.js';
import { OffsetTimestamp } from '../timestamps.js';

// Source-code repositories: registration for continuous verification, the push hook, and
// verification of what their lockfiles install (docs/repositories.md). Timestamps are the offset family.

export const RepositoryUrl = z.url({ protocol: /^https$/ }).max(2048);

/** `repo_<16 lowercase hex>`. */
export const RepositoryId = z.string().regex(/^repo_[0-9a-f]{16}$/, 'expected repo_<16 lowercase hex>');
export type RepositoryId = z.infer<typeof RepositoryId>;

export const RepositoryIdParams = z.object({ id: RepositoryId });
export type RepositoryIdParams = z.infer<typeof RepositoryIdParams>;

export const RepositoryRegistrationRequest = z.strictObject({
  url: RepositoryUrl,
  provider: RepositoryProvider,
  /** Name of the policy applied on every re-verification; the account's default when absent. */
  policy: z.string().min(1).max(100).optional(),
});
export type RepositoryRegistrationRequest = z.infer<typeof RepositoryRegistrationRequest>;

/** Where a push stands: queued for a worker, being fetched and verified, waiting to retry, done, or given up. */
export const REPOSITORY_PUSH_STATES = ['queued', 'running', 'retrying', 'done', 'failed'] as const;
export const RepositoryPushState = z.enum(REPOSITORY_PUSH_STATES);
export type RepositoryPushState = z.infer<typeof RepositoryPushState>;

/** The latest push (or first verification) a repository received, and how its job went. */
export const RepositoryPush = z.object({
  /** X-GitHub-Delivery of the push; `initial` for the verification registration started. */
  delivery: z.string(),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  state: RepositoryPushState,
  attempts: z.int().min(0),
  /** Why the last attempt failed (a retry follows unless `state` is `failed`). */
  last_error: z.string().nullable(),
  /** When a `queued` or `retrying` push is next tried; null once done or failed. */
  next_attempt_at: OffsetTimestamp.nullable(),
  received_at: OffsetTimestamp,
});
export type RepositoryPush = z.infer<typeof RepositoryPush>;

/** The last stored verification of a repository, in brief (the whole answer: `GET /v1/repositories/{id}/verification`). */
export const RepositoryVerificationBrief = z.object({
  id: z.string().regex(/^rver_\d+$/),
  verdict: Verdict,
  previous_verdict: Verdict.nullable(),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  policy: z.string(),
  packages: z.int().min(0),
  pending: z.int().min(0),
  verified_at: OffsetTimestamp,
});
export type RepositoryVerificationBrief = z.infer<typeof RepositoryVerificationBrief>;

export const Repository = z.object({
  id: RepositoryId,
  url: z.string(),
  provider: RepositoryProvider,
  policy: z.string().nullable(),
  /** Always true: a registered repository is re-verified on every push to its default branch. */
  continuous: z.boolean(),
  /** The verdict of the last verification; null before the first one. */
  verdict: Verdict.nullable(),
  last_verified_at: OffsetTimestamp.nullable(),
  last_verification: RepositoryVerificationBrief.nullable(),
  last_push: RepositoryPush.nullable(),
  created_at: OffsetTimestamp,
});
export type Repository = z.infer<typeof Repository>;

/** What to enter in GitHub's "Add webhook" form; the secret is shown here once and never again. */
export const RepositoryWebhookSetup = z.object({
  /** Appended to the server's base URL: the Payload URL. */
  path: z.literal('/v1/repositories/hooks/github'),
  content_type: z.literal('application/json'),
  events: z.array(z.literal('push')),
  secret: z.string().regex(/^[0-9a-f]{64}$/),
});
export type RepositoryWebhookSetup = z.infer<typeof RepositoryWebhookSetup>;

/** The registration answer (`data`, as the spec shapes a creation that shows a secret once). */
export const RepositoryRegistered = z.object({ data: Repository.extend({ webhook: RepositoryWebhookSetup }) });
export type RepositoryRegistered = z.infer<typeof RepositoryRegistered>;

export const RepositoryList = z.object({ repositories: z.array(Repository) });
export type RepositoryList = z.infer<typeof RepositoryList>;

/** The answer to a GitHub hook delivery (GitHub shows it in the webhook's "Recent Deliveries"). */
export const RepositoryHookAnswer = z.object({
  status: z.enum(['pong', 'queued', 'ignored']),
  repository: RepositoryId,
  delivery: z.string(),
  /** The push's commit (`after`) when queued. */
  commit: z.string().nullable(),
  /** Why an event was ignored; null otherwise. */
  reason: z.string().nullable(),
});
export type RepositoryHookAnswer = z.infer<typeof RepositoryHookAnswer>;
