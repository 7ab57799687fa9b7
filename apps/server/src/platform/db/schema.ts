import type { AccountKind, Plan, PolicyVerdict, RepositoryProvider, Track, Verdict, WebhookEventKind } from '@vigil/core';
import type { ColumnType, Generated } from 'kysely';

/**
 * The storage model (docs/storage.md explains each table). Times are epoch milliseconds
 * (`bigint` on PostgreSQL, parsed to JS numbers), days are UTC epoch days (integer days since
 * 1970-01-01), hours are UTC epoch hours. JSON values are stored as text.
 */

/** The storage columns hold @vigil/core's tracks and verdicts: a new one is added there, once. */
export type TrackName = Track;
export type VerdictName = Verdict;

export interface MinersTable {
  hotkey: string;
  track: TrackName;
  /** `registered` or `deregistered`; a deregistered hotkey keeps its history. */
  status: 'registered' | 'deregistered';
  registered_at: number;
  updated_at: number;
}

/** One row per (hotkey, track): the agent's current version. History lives in agent_versions. */
export interface AgentsTable {
  hotkey: string;
  track: TrackName;
  name: string;
  provider: string;
  version: number;
  code_hash: string;
  status: 'active' | 'deleted';
  created_at: number;
  updated_at: number;
}

export interface AgentVersionsTable {
  hotkey: string;
  track: TrackName;
  version: number;
  code_hash: string;
  name: string;
  provider: string;
  submitted_at: number;
}

export interface ValidatorsTable {
  hotkey: string;
  uid: number;
  status: 'pending' | 'active' | 'suspended' | 'revoked';
  /** JSON array of IP addresses allowed to call validator endpoints. */
  allowed_ips: string;
  registered_at: number;
  updated_at: number;
  last_seen_at: number | null;
}

export interface RoundsTable {
  round_id: string;
  track: TrackName;
  round_number: number;
  status: 'open' | 'closed';
  phase: 'submission' | 'evaluation' | 'complete';
  policy_version: string;
  opened_at: number;
  submission_closes_at: number;
  /** Planned close time (what `seconds_until_close` counts down to). */
  closes_at: number;
  evaluation_started_at: number | null;
  closed_at: number | null;
  /** Set when the round closes: when the scheduler opens the track's next round. */
  next_round_opens_at: number | null;
}

/** The agent code frozen into a round when evaluation starts. */
export interface RoundAgentsTable {
  round_id: string;
  hotkey: string;
  track: TrackName;
  version: number;
  code_hash: string;
  name: string;
  frozen_at: number;
}

export interface ArtifactsTable {
  id: Generated<number>;
  /** `{track}/{label}/{source_id}`: an identifier, not a content hash. */
  bundle_hash: string;
  track: TrackName;
  label: string;
  source_id: string;
  content_hash: string;
  kind: 'labeled' | 'live';
  /** Ground truth of a labeled benchmark artifact; never exposed by any read. */
  ground_truth: VerdictName | null;
  created_at: number;
  /**
   * The account whose upload registered the artifact (migration 0016); null for one registered
   * otherwise (benchmark, seeds, the operator's loaders). Such an artifact is readable only where a
   * reference to it counts (features/artifacts/references/reference-claims.ts, visibleArtifact).
   */
  uploaded_by: string | null;
}

export interface TasksTable {
  task_id: string;
  round_id: string;
  hotkey: string;
  artifact_id: number;
  created_at: number;
  /** 1 for a fast task (made between rounds for the incumbents, docs/rounds.md), 0 for a round task. */
  fast: number;
}

export interface AttestationsTable {
  id: Generated<number>;
  canonical_hash: string;
  task_id: string;
  round_id: string;
  track: TrackName;
  miner_hotkey: string;
  validator_hotkey: string;
  artifact_id: number;
  agent_hash: string;
  verdict: VerdictName;
  risk_score: number;
  /** JSON array of findings as signed. */
  findings: string;
  /** The signed payload, JSON. */
  payload: string;
  signature: string;
  /** `payload.created_at` (validator clock). */
  created_at: number;
  /** Server receive time: the clock every aggregate uses. */
  recorded_at: number;
  /** 1 when another attestation of the same task was recorded first. */
  is_rerun: number;
  /** Block of the metagraph snapshot the permit was checked against at submission (migration 0007); null before. */
  metagraph_block: number | null;
  /** That snapshot's `taken_at`, epoch ms; null before migration 0007 or when not checked. */
  metagraph_taken_at: number | null;
  /**
   * The validator's DSSE signature (128 hex) of the attestation's in-toto statement (migration 0025),
   * verified at submission; null when the validator sent none. Optional on insert: the previous
   * release's writes leave it null.
   */
  dsse_signature: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ValidatorScoresTable {
  round_id: string;
  hotkey: string;
  validator_hotkey: string;
  score: number;
  labeled_tasks: number;
}

export interface RoundResultsTable {
  round_id: string;
  hotkey: string;
  name: string;
  version: number;
  code_hash: string;
  /** Median of the per-validator scores; null when no validator could score the agent. */
  score: number | null;
  /** Validators that scored the agent (`runs` on the wire). */
  validators: number;
  /** 1-based among scored agents; null when unscored. */
  rank: number | null;
  /** 1 for the round's winners: the five best ranks among agents that scored above 0. */
  winner: number;
  attestations: number;
  failure_reason: string | null;
}

export interface PublishedVerdictsTable {
  artifact_id: number;
  verdict: VerdictName;
  risk_score: number;
  round_id: string;
  updated_at: number;
}

export interface VerdictHistoryTable {
  id: Generated<number>;
  artifact_id: number;
  verdict: VerdictName;
  previous_verdict: VerdictName | null;
  risk_score: number;
  round_id: string;
  changed_at: number;
}

/** What the outbox holds: every subscribable kind, and the test events sent to one endpoint on request. */
export type OutboxKind = WebhookEventKind | 'webhook.test';

export interface OutboxEventsTable {
  /** Insertion order: fan-out (and deliveries to one endpoint) follow it. */
  seq: Generated<number>;
  /** Event id (UUID): what deliveries carry and receivers deduplicate on. */
  id: string;
  kind: OutboxKind;
  /** JSON object: the event's data. */
  payload: string;
  created_at: number;
  /** When the event was fanned out into deliveries (null: not yet); the admin backlog counts the nulls. */
  delivered_at: number | null;
  /** Unused since 0017 (attempts are per delivery, in webhook_delivery_attempts). */
  attempts: Generated<number>;
  last_error: string | null;
  /** Who may receive and read the event: one account, or null for every account (network-wide kinds). */
  account_id: string | null;
  /** `artifact:<bundle_hash>`, `attestation:<hash>`, `repository:<id>`, `round:<id>`, `webhook:<id>`. */
  resource: string;
  /** 1, 2, 3 … per resource in commit order (unique with resource). */
  sequence: number;
  /** Position in the events feed, given at fan-out in commit order (null until fanned out). */
  feed_position: number | null;
}

/** A customer's webhook endpoint (docs/webhooks.md). */
export interface WebhooksTable {
  /** `wh_<…>`. */
  webhook_id: string;
  account_id: string;
  url: string;
  /** JSON array of subscribed kinds. */
  events: string;
  /** 0/1: 0 while paused by the owner or disabled by Vigil. */
  active: number;
  disabled_reason: 'gone' | 'failing' | null;
  disabled_at: number | null;
  /** First failed attempt since the last success (null while healthy): 5 days of it disables. */
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

/** Signing secrets, sealed (AES-256-GCM under the server key, context `webhook-secret:<webhook>:<secret>`). */
export interface WebhookSecretsTable {
  secret_id: string;
  webhook_id: string;
  sealed: string;
  created_at: number;
  /** Set on the previous secret during a rotation overlap: it signs until then. */
  expires_at: number | null;
  revoked_at: number | null;
}

export type WebhookDeliveryStateName = 'pending' | 'delivering' | 'succeeded' | 'failed';

/** One event to one endpoint: its id is `X-Vigil-Delivery`, the same on every attempt. */
export interface WebhookDeliveriesTable {
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  /** The outbox seq of the event: an endpoint's deliveries go out in this order. */
  event_seq: number;
  event_type: OutboxKind;
  state: WebhookDeliveryStateName;
  attempts: Generated<number>;
  /** 0/1: 0 after a manual redelivery or recovery, whose one attempt is not retried on failure. */
  auto_retry: Generated<number>;
  next_attempt_at: number | null;
  /** The worker sending it now (state `delivering`) and until when its claim holds. */
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  attempted_at: number;
  response_status: number | null;
  error: string | null;
  latency_ms: number;
  /** At most 1 KiB of the answer's body, cut on a UTF-8 character boundary. */
  response_excerpt: string | null;
  succeeded: number;
}

/** Lifetime counters (`attestations`, `verdict:<V>`, `track:<T>`). */
export interface StatCountersTable {
  name: string;
  value: number;
}

export interface AttestationHoursTable {
  hour: number;
  attestations: number;
  first_attestations: number;
  reruns: number;
}

/** Distinct artifacts per (day, track): a pair counts once, when it first appears or escalates. */
export interface TrendDaysTable {
  day: number;
  track: TrackName;
  attestations: number;
  scanned: number;
  flagged: number;
  blocked: number;
  warned: number;
}

/** Verdict bits seen for an artifact on a day: 1 scanned, 2 warned, 4 blocked. */
export interface ArtifactDaysTable {
  artifact_id: number;
  day: number;
  mask: number;
}

/**
 * The last day each artifact showed a signal (metric `scanned|flagged|blocked|warned` with key '',
 * `severity|category|plane|track` keyed by value, `first_flagged` with key '' holding the first day).
 */
export interface ArtifactSignalsTable {
  artifact_id: number;
  metric: string;
  key: string;
  last_day: number;
}

/** Histogram over artifact_signals: how many artifacts have their (metric, key) last day on `day`. */
export interface TrendLastDaysTable {
  metric: string;
  key: string;
  day: number;
  artifacts: number;
}

/** One accepted signed request (migration 0002); the primary key is (hotkey, timestamp, signature). */
export interface SignatureUsesTable {
  hotkey: string;
  /** The request's X-Vigil-Signed-At, Unix seconds. */
  timestamp: number;
  signature: string;
  /** Epoch ms after which the timestamp is stale and the row may be purged. */
  expires_at: number;
}

/** A single-runner lease of background work on SQLite (migration 0003); docs/rounds.md. */
export interface SchedulerLeasesTable {
  name: string;
  /** Id of the process holding the lease. */
  holder: string;
  /** Epoch ms after which another process may take the lease over. */
  expires_at: number;
}

/**
 * A task leased to a validator (migration 0004; docs/protocol.md "Validator endpoints"). A lease
 * holds one of the task's replica slots while it is `completed`, or `leased`/`running` and not expired.
 */
export interface TaskLeasesTable {
  task_id: string;
  validator_hotkey: string;
  state: 'leased' | 'running' | 'failed' | 'completed';
  /** The validator's last progress detail. */
  detail: string | null;
  leased_at: number;
  updated_at: number;
  /** Epoch ms after which the lease no longer holds its slot (heartbeats push it back). */
  expires_at: number;
  completed_at: number | null;
}

export interface AccountsTable {
  account_id: string;
  name: string;
  kind: AccountKind;
  plan: Plan;
  created_at: number;
  /**
   * 1 when the operator vouches for the account (migration 0015): its package-reference claims
   * count for every account's verification, not only its own (docs/artifacts.md).
   */
  trusted: number;
}

export interface ApiKeysTable {
  /** The 8 hex of `vgl_<key id>_<secret>`. */
  key_id: string;
  account_id: string;
  name: string;
  /** SHA-256 hex of the secret; the secret itself is never stored. */
  secret_hash: string;
  /** JSON array of ApiKeyScope. */
  scopes: string;
  created_at: number;
  /** `operator` (vigil-server keys create), or `key:<key id>` of the key that created it. */
  created_by: string;
  last_used_at: number | null;
  use_count: number;
  revoked_at: number | null;
}

export interface AuditLogTable {
  entry_id: string;
  at: number;
  /** `operator` for the command line, `key:<key id>` for the admin API. */
  actor: string;
  source_ip: string | null;
  action: string;
  target: string;
  /** JSON object: what changed. Never a secret. */
  detail: string;
}

/**
 * An `Idempotency-Key` of an account (migration 0009; docs/idempotency.md): claimed while its first
 * request runs (`running`), then that request's answer (`completed`) until `expires_at`.
 */
export interface IdempotencyKeysTable {
  account_id: string;
  idempotency_key: string;
  method: string;
  /** The request target as sent (path and query). */
  path: string;
  /** sha256 of method, target and the canonical JSON of the body: what a repeat must match. */
  fingerprint: string;
  state: 'running' | 'completed';
  /** Random per claim: only the request holding the claim may complete or release it. */
  claim_token: string;
  /** When the current claim was taken; a `running` claim older than the handler timeout may be taken over. */
  claimed_at: number;
  created_at: number;
  /** created_at + 24 h: a repeat after it starts afresh. */
  expires_at: number;
  status: number | null;
  /** JSON object of the replayed response headers. */
  headers: string | null;
  body: string | null;
}

/**
 * The search index (migration 0016; docs/search.md): one entry per attestation, and per artifact
 * one per audience: `''` for an artifact registered otherwise than by an upload (seen by everyone),
 * and one per account that claimed a package reference to it, carrying that account's references
 * (seen by that account, and by everyone while the account is trusted). Written in the transaction
 * that writes what it describes; the full-text index over the three `*_terms` columns is the
 * dialect's own (platform/db/dialect.ts, createFieldedTextIndex).
 */
export interface SearchEntriesTable {
  id: Generated<number>;
  kind: 'artifact' | 'attestation';
  /** artifacts.id or attestations.id. */
  ref_id: number;
  /** '' or an account id. */
  audience: string;
  /** The artifact the entry is about: whether a reader may see the entry follows from it. */
  artifact_id: number;
  title: string;
  /** JSON object: field → distinct values (the snippet's source). */
  facets: string;
  /** Normalized words of the identifiers (rank highest). */
  ident_terms: string;
  other_terms: string;
  /** Words derived from findings: never matched for a plan without findings. */
  finding_terms: string;
  updated_at: number;
}

/** One-off maintenance the server runs at start when a migration asks for it (migration 0016). */
export interface SearchIndexStateTable {
  /** `search`. */
  name: string;
  /** `needed`: rebuild at the next migrate/serve; `building`: a process is rebuilding it; `built`. */
  state: 'needed' | 'building' | 'built';
  updated_at: number;
}

/** A package reference an artifact was uploaded as (migration 0006; docs/artifacts.md). Never seen by validators. */
export interface ArtifactPackagesTable {
  artifact_id: number;
  /** Canonical purl (core's parsePackageRef). */
  purl: string;
  /** The purl type (`npm`, `pypi`, …). */
  ecosystem: string;
  namespace: string | null;
  name: string;
  version: string | null;
  /**
   * The account whose key uploaded the artifact under this purl: one row per claiming account
   * (primary key artifact id, purl, uploaded_by since migration 0015).
   */
  uploaded_by: string;
  /** Bytes of the upload. */
  size: number;
  /** `application/octet-stream`, or the multipart file part's Content-Type. */
  media_type: string;
  created_at: number;
}

/** A source-code repository an account registered (migration 0012; docs/repositories.md). */
export interface SourceRepositoriesTable {
  /** `repo_<16 hex>`. */
  repository_id: string;
  account_id: string;
  provider: RepositoryProvider;
  /** Canonical clone URL, `https://github.com/<owner>/<name>.git`, in the case it was registered with. */
  url: string;
  /** `github.com/<owner>/<name>` lowercased: what a push hook's payload is matched on. */
  repo_key: string;
  owner: string;
  name: string;
  /** The policy name verifications apply; null: the account's default. */
  policy: string | null;
  /** The webhook secret sealed with the server key (platform/secrets/secret-box.ts); never sent again after registration. */
  webhook_secret: string;
  created_at: number;
  last_verification_id: number | null;
}

/** `superseded`: a newer push of the same repository was claimed first, so this one's commit is no longer worth verifying. */
export type SourceRepositoryJobState = 'queued' | 'running' | 'done' | 'failed' | 'superseded';

/** One push (or first verification) to fetch and verify, claimed by a worker (migration 0012). */
export interface SourceRepositoryJobsTable {
  job_id: Generated<number>;
  repository_id: string;
  /** X-GitHub-Delivery (a redelivery repeats it), or `initial:<repository id>` for the first verification. */
  delivery_id: string;
  kind: 'push' | 'initial';
  /** `refs/heads/<branch>`; null until an initial job has resolved the default branch. */
  ref: string | null;
  before_commit: string | null;
  /** The pushed commit (`after`); null until an initial job has resolved it. */
  commit_sha: string | null;
  state: SourceRepositoryJobState;
  attempts: number;
  next_attempt_at: number;
  /** Random per claim: only the worker holding the claim may finish the job. */
  claim_token: string | null;
  /** A `running` job whose claim is older than this is taken over (its worker died). */
  locked_until: number | null;
  last_error: string | null;
  verification_id: number | null;
  created_at: number;
  updated_at: number;
}

/** The lockfiles of a repository's last verified push (migration 0012). */
export interface SourceRepositoryLockfilesTable {
  repository_id: string;
  path: string;
  /** The git blob sha of `content`: a push whose tree lists the same blob needs no fetch. */
  blob_sha: string;
  content: string;
  commit_sha: string;
  fetched_at: number;
}

/** A stored verification of a registered repository (migration 0012). */
export interface SourceRepositoryVerificationsTable {
  verification_id: Generated<number>;
  repository_id: string;
  job_id: number | null;
  ref: string | null;
  commit_sha: string | null;
  policy: string;
  verdict: VerdictName;
  previous_verdict: VerdictName | null;
  /** JSON of the answer (core's RepositoryVerification). */
  result: string;
  created_at: number;
}

/** A package a verification met that Vigil holds no bytes for (migration 0012). */
export interface PackageRequestsTable {
  /** Canonical purl. */
  purl: string;
  ecosystem: string;
  name: string;
  version: string | null;
  first_requested_by: string;
  first_requested_at: number;
  last_requested_at: number;
  request_count: number;
}

/** An organization's policy (migration 0010; docs/policies.md): its current name and version. */
export interface PoliciesTable {
  /** `pol_<16 hex>`. */
  policy_id: string;
  account_id: string;
  /** Unique among the account's live policies. */
  name: string;
  /** The current version: 1 on creation, one more per update. */
  version: number;
  created_at: number;
  updated_at: number;
  /** Set by DELETE: the policy answers 404 from then on, and its name is free again. */
  deleted_at: number | null;
}

/** One saved version of a policy, never changed afterwards. */
export interface PolicyVersionsTable {
  policy_id: string;
  version: number;
  name: string;
  description: string | null;
  /** JSON array of `{name, expression, action, description}` (core's PolicyRule). */
  rules: string;
  created_at: number;
  /** `key:<key id>` of the key that saved it. */
  created_by: string;
}

/** A stored answer of `POST /v1/policies/evaluate`, readable by its account only. */
export interface PolicyEvaluationsTable {
  /** `eval_<22 base64url>`. */
  evaluation_id: string;
  account_id: string;
  key_id: string;
  /** The canonical purl evaluated. */
  artifact: string;
  /** The policy that ran (`pol_default` for the built-in one) and its version. */
  policy_id: string;
  policy_version: number;
  verdict: PolicyVerdict;
  /** The answer as sent (core's PolicyEvaluation), JSON. */
  body: string;
  evaluated_at: number;
}

/** An imported OSV advisory (migration 0011; docs/advisories.md). */
export interface AdvisoriesTable {
  /** The OSV id: `GHSA-…`, `PYSEC-…`. */
  id: string;
  /** The record's `modified`: a re-import replaces the row only with a newer one. */
  modified: number;
  published: number | null;
  /** Set for a withdrawn advisory, which keeps its row and has no advisory_packages rows. */
  withdrawn: number | null;
  summary: string;
  /** JSON array of alias ids (CVE-…). */
  aliases: string;
  /** The feed file the stored version came from (a path in the directory or an entry of the zip). */
  source_file: string;
  imported_at: number;
  updated_at: number;
}

/** An advisory's rating, as the policy input (`vulnerabilities[].severity`) reports it. */
export type VulnerabilitySeverity = 'low' | 'moderate' | 'high' | 'critical' | 'unknown';

/** One npm or PyPI `affected[]` entry of a live advisory: what matching reads (docs/advisories.md, "Matching"). */
export interface AdvisoryPackagesTable {
  advisory_id: string;
  /** The entry's index in the record's `affected` array. */
  position: number;
  ecosystem: 'npm' | 'pypi';
  /** The name as looked up: PEP 503-normalized for PyPI, as written for npm. */
  name: string;
  /** `<ecosystem>:<name>`, the indexed lookup key. */
  package_key: string;
  severity: VulnerabilitySeverity;
  /** JSON: `{ranges: [{type, events}], versions: []}` (ECOSYSTEM and SEMVER ranges only). */
  affected: string;
  /** JSON array: the `fixed` versions of the package's entries in the ecosystem's order. */
  fixed_in: string;
}

/** One run of `vigil-server advisories import` (docs/advisories.md). */
export interface AdvisoryImportsTable {
  id: Generated<number>;
  /** The directory or zip given to the command. */
  source: string;
  started_at: number;
  finished_at: number;
  /** JSON object: the counts the command printed. */
  counts: string;
}

/** What an artifact's archive says about it as a package (migration 0011; docs/package-facts.md). */
export interface ArtifactFactsTable {
  artifact_id: number;
  /** The version of the extraction rules that computed the row; older rows are computed again when read. */
  extractor_version: number;
  /** `npm`, `pypi-wheel`, `pypi-sdist`, or `none` (not a package archive the rules read). */
  kind: 'npm' | 'pypi-wheel' | 'pypi-sdist' | 'none';
  license: string | null;
  license_source: string | null;
  /** JSON array of what runs on install. */
  install_scripts: string;
  computed_at: number;
}

/**
 * The Sigstore bundle kept for an artifact (docs/package-facts.md, "Provenance"). Only verified
 * bundles are written; `present_unverified` rows (with their `reason`) were written before bundles
 * that do not verify were refused, and every read ignores them.
 */
export interface ArtifactProvenanceTable {
  artifact_id: number;
  status: 'verified' | 'present_unverified';
  /** Why the bundle did not verify; null when verified. */
  reason: string | null;
  /** The bundle as uploaded (JSON text). */
  bundle: string;
  /** The in-toto subject name the bundle signs (`pkg:npm/…`), when it could be read. */
  subject: string | null;
  /** The source repository the signing certificate names, for a verified bundle. */
  source_repository: string | null;
  /** When the transparency log integrated the signature (epoch ms), for a verified bundle. */
  logged_at: number | null;
  uploaded_by: string;
  created_at: number;
}

export interface Database {
  miners: MinersTable;
  agents: AgentsTable;
  agent_versions: AgentVersionsTable;
  validators: ValidatorsTable;
  rounds: RoundsTable;
  round_agents: RoundAgentsTable;
  artifacts: ArtifactsTable;
  tasks: TasksTable;
  attestations: AttestationsTable;
  validator_scores: ValidatorScoresTable;
  round_results: RoundResultsTable;
  published_verdicts: PublishedVerdictsTable;
  verdict_history: VerdictHistoryTable;
  outbox_events: OutboxEventsTable;
  stat_counters: StatCountersTable;
  attestation_hours: AttestationHoursTable;
  trend_days: TrendDaysTable;
  artifact_days: ArtifactDaysTable;
  artifact_signals: ArtifactSignalsTable;
  trend_last_days: TrendLastDaysTable;
  signature_uses: SignatureUsesTable;
  scheduler_leases: SchedulerLeasesTable;
  task_leases: TaskLeasesTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  search_entries: SearchEntriesTable;
  search_index_state: SearchIndexStateTable;
  artifact_packages: ArtifactPackagesTable;
  source_repositories: SourceRepositoriesTable;
  source_repository_jobs: SourceRepositoryJobsTable;
  source_repository_lockfiles: SourceRepositoryLockfilesTable;
  source_repository_verifications: SourceRepositoryVerificationsTable;
  package_requests: PackageRequestsTable;
  policies: PoliciesTable;
  policy_versions: PolicyVersionsTable;
  policy_evaluations: PolicyEvaluationsTable;
  advisories: AdvisoriesTable;
  advisory_packages: AdvisoryPackagesTable;
  advisory_imports: AdvisoryImportsTable;
  artifact_facts: ArtifactFactsTable;
  artifact_provenance: ArtifactProvenanceTable;
  webhooks: WebhooksTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  registry_fetches: RegistryFetchesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  log_entries: LogEntriesTable;
  log_hashes: LogHashesTable;
  log_checkpoints: LogCheckpointsTable;
  log_cosignatures: LogCosignaturesTable;
  watches: WatchesTable;
  watched_packages: WatchedPackagesTable;
  firewall_decisions: FirewallDecisionsTable;
}

/** One decision a registry firewall reported with the account's key (migration 0026; docs/firewall.md "Decision counts"). */
export interface FirewallDecisionsTable {
  account_id: string;
  /** The firewall's `fw_…` request id. */
  request_id: string;
  /** When the firewall decided (its clock), ms. */
  decided_at: number;
  /** UTC `YYYY-MM-DD` of decided_at. */
  day: string;
  ecosystem: 'npm' | 'pypi';
  package: string;
  version: string | null;
  decision: 'allow' | 'block' | 'filter';
  reason: string;
  reason_kind: string;
  verdict: 'ALLOW' | 'WARN' | 'BLOCK' | null;
  policy: string;
  mode: string;
  created_at: number;
}

/** Who watches which package name (migration 0023; docs/watches.md). */
export interface WatchesTable {
  /** `wat_<24 hex>`. */
  watch_id: string;
  /** The account id, or `operator` for the deployment's own list. */
  owner: string;
  /** `<ecosystem>:<registry name>`. */
  package_key: string;
  ecosystem: string;
  name: string;
  source: 'api' | 'repository' | 'operator';
  created_at: number;
}

/** The watcher's state per watched name (migration 0023; docs/watches.md, "The watcher"). */
export interface WatchedPackagesTable {
  package_key: string;
  ecosystem: string;
  /** The registry's spelling (npm capitals kept; PyPI PEP 503-normalised). */
  name: string;
  etag: string | null;
  /** JSON array of version strings; null before the first answer. */
  versions_seen: string | null;
  /** The `latest` dist-tag (npm) or `info.version` (PyPI) of the last answer. */
  latest: string | null;
  next_poll_at: number;
  last_polled_at: number | null;
  /** When an answer last listed a version not seen before. */
  last_changed_at: number | null;
  /** `<state>: <detail>` of the last poll that failed; null after a successful one. */
  last_error: string | null;
  /** Polls failed in a row (the backoff's exponent). */
  failures: Generated<number>;
  /** Fetches queued for new versions, since the watch began. */
  versions_queued: Generated<number>;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: number;
}

/** One entry of the transparency log (docs/log.md, "Entries"). */
export interface LogEntriesTable {
  /** The entry's index in the log: 0, 1, 2, … with no gap. */
  idx: number;
  /** `vigil.attestation/v1` or `vigil.verdict/v1`: the entry's own `type` field. */
  type: string;
  /** What the entry is about, to find its proof: `attestation:<canonical_hash>` or `artifact:<bundle_hash>`. */
  subject: string;
  /** The entry, as logged: canonical JSON text (its UTF-8 bytes are the leaf). */
  entry: string;
  created_at: number;
}

/** A stored hash of the log's tree (storedHashIndex numbering), 64 lowercase hex. */
export interface LogHashesTable {
  hash_index: number;
  hash: string;
}

/** A checkpoint the server signed and served. */
export interface LogCheckpointsTable {
  size: number;
  /** The tree's root hash, 64 lowercase hex. */
  root: string;
  /** The signed note, verbatim. */
  note: string;
  created_at: number;
}

/** A witness's cosignature of a checkpoint the server signed (migration 0022, docs/log.md "Witnesses"). */
export interface LogCosignaturesTable {
  /** The size of the cosigned checkpoint (a row of log_checkpoints). */
  size: number;
  /** The witness key's name and key ID (uint32), as in its signature line. */
  key_name: string;
  key_id: number;
  /** The signature line's base64 (key ID || timestamp || Ed25519 signature), verbatim. */
  signature: string;
  /** The cosignature's timestamp, POSIX seconds. */
  timestamp: number;
  created_at: number;
}

export type RegistryFetchStateName = 'queued' | 'running' | 'stored' | 'failed';

/** One on-demand registry fetch per package reference (migration 0019, docs/registries.md "In the server"). */
export interface RegistryFetchesTable {
  /** Canonical purl (core's parsePackageRef) of the reference asked about. */
  purl: string;
  /** `npm` or `pypi`. */
  ecosystem: string;
  state: RegistryFetchStateName;
  attempts: Generated<number>;
  /** `<registry state>: <detail>` of the last attempt that did not store; null before any. */
  last_error: string | null;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  /** The artifact the bytes were stored as (state `stored`). */
  artifact_id: number | null;
  track: TrackName | null;
  created_at: number;
  updated_at: number;
  stored_at: number | null;
}

/** Every application table, in an order that respects foreign keys when deleting (children first). */
export const APPLICATION_TABLES = [
  'firewall_decisions',
  'watched_packages',
  'watches',
  'registry_fetches',
  'log_cosignatures',
  'log_checkpoints',
  'log_hashes',
  'log_entries',
  'webhook_delivery_attempts',
  'webhook_deliveries',
  'webhook_secrets',
  'webhooks',
  'package_requests',
  'source_repository_verifications',
  'source_repository_lockfiles',
  'source_repository_jobs',
  'source_repositories',
  'policy_evaluations',
  'policy_versions',
  'policies',
  'artifact_provenance',
  'artifact_facts',
  'advisory_imports',
  'advisory_packages',
  'advisories',
  'idempotency_keys',
  'search_index_state',
  'search_entries',
  'artifact_packages',
  'audit_log',
  'api_keys',
  'accounts',
  'task_leases',
  'scheduler_leases',
  'signature_uses',
  'trend_last_days',
  'artifact_signals',
  'artifact_days',
  'trend_days',
  'attestation_hours',
  'stat_counters',
  'outbox_events',
  'verdict_history',
  'published_verdicts',
  'round_results',
  'validator_scores',
  'attestations',
  'tasks',
  'artifacts',
  'round_agents',
  'rounds',
  'validators',
  'agent_versions',
  'agents',
  'miners',
] as const satisfies readonly (keyof Database)[];

/**
 * Tables that exist on PostgreSQL only: `attestation_keys` (migration 0024) holds the unique keys of
 * the partitioned `attestations` and is written by its trigger, never by a service.
 */
export const POSTGRES_ONLY_TABLES = ['attestation_keys'] as const;

