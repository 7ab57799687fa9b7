// The Vigil contract. Everything another package may use is named here.
export {
  TRACKS,
  Track,
  VERDICTS,
  Verdict,
  POLICY_VERDICTS,
  PolicyVerdict,
  SEVERITIES,
  Severity,
  ROUND_STATUSES,
  RoundStatusValue,
  ROUND_PHASES,
  RoundPhase,
  ELIGIBILITY_STATES,
  EligibilityState,
  EVALUATION_STATES,
  EvaluationState,
  AGENT_STATUSES,
  AgentStatus,
  RISK_LEVELS,
  RiskLevel,
  POLICY_INCLUDES,
  PolicyInclude,
  WEBHOOK_EVENT_KINDS,
  WebhookEventKind,
  REPOSITORY_PROVIDERS,
  CONNECTED_REPOSITORY_PROVIDERS,
  RepositoryProvider,
  PLANES,
  FINDING_CATEGORY_PLANES,
  FINDING_CATEGORIES,
  planeOfCategory,
} from './enums.js';
export type { Plane, FindingCategory } from './enums.js';
export { LIMITS, CACHE_TTL_SECONDS, NETUID } from './limits.js';
export { HEADERS } from './headers.js';
export type { HeaderName } from './headers.js';
export {
  ERROR_DETAILS,
  ERROR_CATALOGUE,
  refusalDetail,
  apiKeyLacksScopeDetail,
  sourceIpNotAllowlistedDetail,
  describeError,
} from './errors.js';
export type { ErrorCode, ErrorDefinition } from './errors.js';
export {
  TimestampError,
  formatOffsetTimestamp,
  formatNaiveTimestamp,
  formatDay,
  parseTimestamp,
  NaiveTimestamp,
  OffsetTimestamp,
  AnyTimestamp,
  DayString,
} from './timestamps.js';
export {
  Hotkey,
  RoundId,
  SHA256_HASH_RE,
  Sha256Hash,
  Ed25519SignatureHex,
  Ed25519PublicKeyHex,
  BundleHashError,
  parseBundleHash,
  formatBundleHash,
  BundleHash,
} from './ids.js';
export type { BundleRef } from './ids.js';
export { PackageRefError, parsePackageRef, normalizePackageRef, PackageRefString } from './purl.js';
export type { PackageRef } from './purl.js';
export {
  CanonicalJsonError,
  canonicalJson,
  canonicalBytes,
  canonicalHash,
  contentHash,
  sha256Hex,
} from './canonical.js';
export { LabelValue } from './schemas/common.js';
export {
  HealthStatus,
  ServerIdentity,
  VerdictCounts,
  SeverityCounts,
  NetworkDashboard,
  TrendsDay,
  ThreatTrends,
} from './schemas/network.js';
export {
  RoundStatus,
  RoundsStatusResponse,
  ScoreEntry,
  RoundSummary,
  RoundsListResponse,
  RoundScores,
  Finding,
  AttestationTask,
  RoundAttestations,
  emptyRoundAttestations,
} from './schemas/rounds.js';
export {
  LeaderboardRow,
  Leaderboard,
  ValidatorScore,
  Agent,
  AgentsResponse,
  AgentEligibility,
} from './schemas/agents.js';
export { PolicyEvaluationRequest, PolicyEvaluation } from './schemas/policy.js';
export type { PolicyEvaluationRequestParsed } from './schemas/policy.js';
export {
  WebhookUrl,
  Webhook,
  WebhookCreateRequest,
  WebhookUpdateRequest,
  WebhookCreated,
  WebhookResponse,
  WebhookList,
} from './schemas/webhooks.js';
export {
  RepositoryUrl,
  RepositoryRegistrationRequest,
  Repository,
  RepositoryRegistered,
} from './schemas/repositories.js';
export { ValidationIssue, ErrorBody } from './schemas/error.js';
export {
  API_KEY_SCOPES,
  ApiKeyScope,
  PLANS,
  Plan,
  ACCOUNT_KINDS,
  AccountKind,
  AccountId,
  ApiKeyId,
  AccountName,
  Account,
  ApiKey,
  ApiKeyCreated,
  ApiKeyCreateRequest,
  ApiKeyList,
  ApiKeyIdParams,
  AccountSelf,
  AccountCreateRequest,
  AccountUpdateRequest,
  AccountList,
  AccountIdParams,
  AuditLogEntry,
  AuditLogPage,
} from './schemas/accounts.js';
export {
  TrendsQuery,
  RoundsQuery,
  AgentsQuery,
  AgentEligibilityQuery,
  RoundAttestationsQuery,
  RoundIdParams,
  AnyRoundIdParams,
  HotkeyParams,
  Sha256Params,
  AgentHashParams,
  TaskIdParams,
} from './schemas/queries.js';
export {
  MAX_VERIFY_BATCH,
  MAX_ARCHIVE_ENTRIES,
  MAX_ARTIFACT_FINDINGS_PER_ATTESTATION,
  ARCHIVE_FORMATS,
  ArchiveFormat,
  ArchiveEntry,
  ArchiveListing,
  ArtifactId,
  ArtifactIdParams,
  ArtifactUploadFields,
  ArtifactUploadQuery,
  ArtifactLookupQuery,
  ArtifactPackage,
  PublishedVerdict,
  VerdictChange,
  BackingAttestation,
  ArtifactFinding,
  ArtifactDetail,
  ArtifactLookupResult,
  VerifyRequest,
  VerifyBatchRequest,
  FindingsSummary,
  VerifyResult,
  VerifyBatchResult,
} from './schemas/artifacts-api.js';
export { AttestationPayload, AttestationEnvelope } from './schemas/attestation.js';
export { MetagraphNeuron, MetagraphSnapshot } from './schemas/metagraph.js';
export {
  AGENT_BUNDLE_FORMAT,
  AGENT_BUNDLE_LIMITS,
  AGENT_FILE_MODES,
  AgentBundlePath,
  AgentBundleFile,
  AgentBundle,
  MinerRegistrationRequest,
  MinerRegistration,
  AgentSubmissionRequest,
  MinerAgent,
  MinerTrackParams,
} from './schemas/miners.js';
export {
  MAX_ALLOWED_IPS,
  MAX_TASKS_PER_CLAIM,
  MAX_PROGRESS_DETAIL_LENGTH,
  MAX_THREAT_INTEL_FINDINGS,
  ValidatorRegistrationRequest,
  ValidatorRegistration,
  TaskClaimRequest,
  ClaimedRound,
  LeasedTask,
  TaskClaim,
  TaskProgressRequest,
  TaskProgress,
  AttestationReceipt,
  MAX_ATTESTATIONS_PER_BATCH,
  BatchAttestationSubmission,
  BatchAttestationResult,
  BatchAttestationReceipt,
  ThreatIntel,
} from './schemas/validators.js';
