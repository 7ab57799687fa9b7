import * as z from 'zod';
import { RepositoryProvider, Verdict } from '../enums.js';
import { OffsetTimestamp } from '../timestamps.js';
import { ReferenceFetch } from './artifacts-api.js';

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

/** Lockfiles one verification reads at most, and the characters of one lockfile's path. */
export const MAX_VERIFY_LOCKFILES = 50;
export const MAX_LOCKFILE_PATH_LENGTH = 1024;

/** A lockfile's path inside the repository: relative, `/`-separated, no `.` or `..` segment. */
export const LockfilePath = z
  .string()
  .min(1)
  .max(MAX_LOCKFILE_PATH_LENGTH)
  .refine(
    (path) => !path.startsWith('/') && !path.includes('\\') && !path.includes('\0') && path.split('/').every((s) => s !== '' && s !== '.' && s !== '..'),
    'expected a relative path inside the repository, e.g. packages/web/pnpm-lock.yaml',
  );

export const PostedLockfile = z.strictObject({
  path: LockfilePath,
  /** The file's text as committed. */
  content: z.string(),
});
export type PostedLockfile = z.infer<typeof PostedLockfile>;

/**
 * `POST /v1/repositories/verify`: the lockfiles themselves (a CI job verifies without granting Vigil
 * access to the repository), or a registered repository, whose last verified push's lockfiles are
 * read. `policy` names the policy to apply; absent, the repository's, else the account's default.
 */
export const RepositoryVerifyRequest = z
  .strictObject({
    lockfiles: z
      .array(PostedLockfile)
      .min(1)
      .max(MAX_VERIFY_LOCKFILES)
      .superRefine((files, ctx) => {
        const seen = new Set<string>();
        files.forEach((file, index) => {
          if (seen.has(file.path)) ctx.addIssue({ code: 'custom', path: [index, 'path'], message: `${file.path} is given twice` });
          seen.add(file.path);
        });
      })
      .optional(),
    repository: RepositoryId.optional(),
    policy: z.string().min(1).max(100).optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.lockfiles === undefined) === (body.repository === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'expected exactly one of lockfiles and repository' });
    }
  });
export type RepositoryVerifyRequest = z.infer<typeof RepositoryVerifyRequest>;

/** An entry of a lockfile that was not read as a registry package, and why. */
export const VerifiedFileSkip = z.object({
  name: z.string().nullable(),
  line: z.int().min(1).nullable(),
  reason: z.string(),
});

/** What was read out of one lockfile. */
export const VerifiedLockfile = z.object({
  path: z.string(),
  format: z.string(),
  format_version: z.string().nullable(),
  /** Registry packages read (each once per file). */
  packages: z.int().min(0),
  /** Of those, how many a manifest names directly (`direct: true`). */
  direct: z.int().min(0),
  /** Of those, how many are development-only (`dev: true`). */
  dev: z.int().min(0),
  /** Entries not read as registry packages (git, file and URL sources, workspace links), each with the reason. */
  skipped: z.array(VerifiedFileSkip),
  /**
   * Why the file could not be read at all (naming its line), for a pushed file; then `packages` is 0
   * and the verification is incomplete. Posted lockfiles that cannot be read are refused instead.
   */
  error: z.string().nullable(),
});
export type VerifiedLockfile = z.infer<typeof VerifiedLockfile>;

/** For a pending dependency: Vigil holds its bytes and a coming round evaluates them, or it has recorded a request for them. */
export const DEPENDENCY_QUEUES = ['evaluating', 'requested'] as const;
export const DependencyQueue = z.enum(DEPENDENCY_QUEUES);

/** One package the lockfiles install (once per purl across the files), with its verdict under the policy. */
export const VerifiedDependency = z.object({
  purl: z.string(),
  ecosystem: z.string(),
  name: z.string(),
  version: z.string(),
  /** True when any file lists it as direct; null when no file's format records it. */
  direct: z.boolean().nullable(),
  /** True when every file that lists it has it development-only; null when unknown. */
  dev: z.boolean().nullable(),
  /** The lockfiles that install it. */
  files: z.array(z.string()),
  /** `pending`: Vigil has no published verdict for it yet. Never counted as allowed. */
  state: z.enum(['decided', 'pending']),
  /** Why it is pending; null once decided. */
  queued: DependencyQueue.nullable(),
  /** The policy's verdict for this package. */
  verdict: Verdict,
  /** Vigil's published verdict; null while pending. */
  published_verdict: Verdict.nullable(),
  /** Names of the policy checks that failed with `block` or `warn` (what made `verdict`). */
  failed: z.array(z.string()),
  warnings: z.array(z.string()),
  /** While pending on a registry fetch Vigil made: where it stands (docs/registries.md); absent otherwise. */
  fetch: ReferenceFetch.optional(),
});
export type VerifiedDependency = z.infer<typeof VerifiedDependency>;

/** Every dependency in exactly one bucket: blocked, warned, pending (not yet decided, nothing blocks it), allowed. */
/**
 * The packages a verification met, in one verdict bucket each (a pending package is counted as
 * pending, never as allowed): the lockfile summary below and the SBOM summary both extend it.
 */
export const VerdictBucketCounts = z.object({
  /** Distinct packages (purls) verified: the `dependencies`. */
  packages: z.int().min(0),
  /** Of those, direct dependencies, where the lockfile or SBOM records it. */
  direct: z.int().min(0),
  allowed: z.int().min(0),
  warned: z.int().min(0),
  blocked: z.int().min(0),
  pending: z.int().min(0),
});
export type VerdictBucketCounts = z.infer<typeof VerdictBucketCounts>;

export const VerificationSummary = VerdictBucketCounts.extend({
  /** Lockfile entries not read as registry packages, over all files. */
  skipped: z.int().min(0),
  /** Files that could not be read at all (each with its `error`). */
  unreadable_files: z.int().min(0),
});
export type VerificationSummary = z.infer<typeof VerificationSummary>;

/** A dependency whose verdict got worse since the repository's previous verification (or that is new and not allowed). */
export const DependencyChange = z.object({
  purl: z.string(),
  /** Null: the dependency is new. */
  previous_verdict: Verdict.nullable(),
  verdict: Verdict,
  /** True when the dependency is pending now (counted as WARN when comparing). */
  pending: z.boolean(),
});
export type DependencyChange = z.infer<typeof DependencyChange>;

/** Changed dependencies an answer or event lists at most (`total` says how many there were). */
export const MAX_LISTED_CHANGES = 100;

export const VerificationChanges = z.object({
  previous_verdict: Verdict,
  total: z.int().min(0),
  dependencies: z.array(DependencyChange).max(MAX_LISTED_CHANGES),
});
export type VerificationChanges = z.infer<typeof VerificationChanges>;

/** The answer of `POST /v1/repositories/verify`, and a stored verification of a registered repository. */
export const RepositoryVerification = z.object({
  /** `rver_<n>` for a stored verification (a push); null for an answer to a request, which is not stored. */
  id: z.string().regex(/^rver_\d+$/).nullable(),
  /** The registered repository verified; null for posted lockfiles. */
  repository: RepositoryId.nullable(),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  /** The policy applied (a personal key's is always the built-in `default`). */
  policy: z.object({ id: z.string(), name: z.string(), version: z.int().min(1), builtin: z.boolean() }),
  /** BLOCK when any dependency is blocked, else WARN when any warns or is pending or a file could not be read, else ALLOW. */
  verdict: Verdict,
  /** False while any dependency is pending or any file could not be read. */
  complete: z.boolean(),
  summary: VerificationSummary,
  files: z.array(VerifiedLockfile),
  dependencies: z.array(VerifiedDependency),
  /** Stored verifications whose verdict got worse than the previous one: what changed. Null otherwise. */
  changes: VerificationChanges.nullable(),
  verified_at: OffsetTimestamp,
});
export type RepositoryVerification = z.infer<typeof RepositoryVerification>;

/** Payload of the `repository.verified` event (docs/storage.md, "Event payloads"). */
export const RepositoryVerifiedEvent = z.object({
  repository: RepositoryId,
  url: z.string(),
  verification: z.string().regex(/^rver_\d+$/),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  policy: z.string(),
  verdict: Verdict,
  previous_verdict: Verdict.nullable(),
  /** True when `verdict` is more severe than `previous_verdict`. */
  worse: z.boolean(),
  complete: z.boolean(),
  summary: VerificationSummary,
  /** What changed, when `worse`; null otherwise. */
  changes: VerificationChanges.nullable(),
  verified_at: OffsetTimestamp,
});
export type RepositoryVerifiedEvent = z.infer<typeof RepositoryVerifiedEvent>;

/** A package verifications met that Vigil holds no bytes for (`GET /v1/admin/package-requests`). */
export const PackageRequest = z.object({
  purl: z.string(),
  ecosystem: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  /** Verifications that asked for it (each request and push counts once). */
  requests: z.int().min(1),
  first_requested_at: OffsetTimestamp,
  last_requested_at: OffsetTimestamp,
});
export type PackageRequest = z.infer<typeof PackageRequest>;

export const PackageRequestList = z.object({ package_requests: z.array(PackageRequest) });
export type PackageRequestList = z.infer<typeof PackageRequestList>;
