// The Vigil contract. Everything another package may use is exported here: the modules outside
// schemas/ name each export; every schemas/<area>.ts is re-exported whole (`export *`), so a schema
// added to an area is public without an edit here. Helpers the schemas share but clients must not
// use live in schemas/common.ts, which is the one schema module named export by export.
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
  POLICY_ACTIONS,
  PolicyAction,
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
export type { TimestampSchemaMark } from './timestamps.js';
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
export { MAX_PACKAGE_REF_LENGTH, PackageRefError, packageRefChecksums, parsePackageRef, normalizePackageRef, PackageRefString, PackageRefText } from './purl.js';
export type { PackageRef, PackageRefChecksum } from './purl.js';
export {
  CanonicalJsonError,
  JsonDepthError,
  canonicalJson,
  canonicalBytes,
  canonicalHash,
  contentHash,
  sha256Hex,
} from './canonical.js';
export { MAX_JSON_DEPTH, jsonTextDepthExceeds } from './json-depth.js';
export { LabelValue } from './schemas/common.js';
export * from './schemas/network.js';
export * from './schemas/rounds.js';
export * from './schemas/agents.js';
export * from './schemas/policy.js';
export * from './schemas/webhooks.js';
export * from './schemas/webhook-events.js';
export * from './schemas/repositories.js';
export * from './schemas/sboms.js';
export * from './schemas/error.js';
export * from './schemas/accounts.js';
export * from './schemas/queries.js';
export * from './schemas/artifacts-api.js';
export * from './schemas/package-facts.js';
export * from './schemas/attestation.js';
export {
  IN_TOTO_STATEMENT_TYPE,
  VIGIL_ATTESTATION_PREDICATE_TYPE,
  attestationStatement,
  attestationStatementBytes,
  attestationDsseMessage,
  dssePreAuthEncoding,
} from './attestation-statement.js';
export * from './schemas/agent-run.js';
export * from './schemas/lockfiles.js';
export * from './schemas/customer-attestations.js';
export * from './schemas/metagraph.js';
export * from './schemas/miners.js';
export { agentHash, base64DecodedLength, normalizeAgentBundle } from './agent-hash.js';
export type { AgentFileMode, NormalizedAgentBundle } from './agent-hash.js';
export * from './schemas/validators.js';
export * from './schemas/admin.js';
export * from './schemas/registry-admin.js';
export * from './schemas/watches.js';
export * from './schemas/firewall.js';
export { SARIF_SCHEMA_URI, dependencyRules, dependencyResult, notAllowed, sarifLog } from './sarif.js';
export type { SarifRule, DependencyRuleTexts, SarifDependency, SarifLogInput } from './sarif.js';
