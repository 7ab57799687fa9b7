import { describe, expect, it } from 'vitest';
import * as core from './index.js';

// Other packages import these names; removing or renaming one breaks them. Additions are fine.
const STABLE_EXPORTS = [
  'AGENT_STATUSES', 'Agent', 'AgentEligibility', 'AgentEligibilityQuery', 'AgentStatus', 'AgentsQuery', 'AgentsResponse',
  'AnyTimestamp', 'AttestationEnvelope', 'AttestationPayload', 'AttestationTask', 'BundleHash', 'BundleHashError',
  'CACHE_TTL_SECONDS', 'CONNECTED_REPOSITORY_PROVIDERS', 'CanonicalJsonError', 'DayString', 'ELIGIBILITY_STATES',
  'ERROR_CATALOGUE', 'ERROR_DETAILS', 'EVALUATION_STATES', 'Ed25519PublicKeyHex', 'Ed25519SignatureHex',
  'EligibilityState', 'ErrorBody', 'EvaluationState', 'FINDING_CATEGORIES', 'FINDING_CATEGORY_PLANES', 'Finding',
  'HEADERS', 'HealthStatus', 'Hotkey', 'LIMITS', 'LabelValue', 'Leaderboard', 'LeaderboardRow', 'MetagraphNeuron',
  'MetagraphSnapshot', 'NETUID', 'NaiveTimestamp', 'NetworkDashboard', 'OffsetTimestamp', 'PLANES', 'POLICY_INCLUDES',
  'POLICY_VERDICTS', 'PackageRefError', 'PackageRefString', 'PolicyEvaluation', 'PolicyEvaluationRequest',
  'PolicyInclude', 'PolicyVerdict', 'REPOSITORY_PROVIDERS', 'RISK_LEVELS', 'ROUND_PHASES', 'ROUND_STATUSES',
  'Repository', 'RepositoryProvider', 'RepositoryRegistered', 'RepositoryRegistrationRequest', 'RepositoryUrl',
  'RiskLevel', 'RoundAttestations', 'RoundAttestationsQuery', 'RoundId', 'RoundPhase', 'RoundScores', 'RoundStatus',
  'RoundStatusValue', 'RoundSummary', 'RoundsListResponse', 'RoundsQuery', 'RoundsStatusResponse', 'SEVERITIES',
  'SHA256_HASH_RE', 'ScoreEntry', 'ServerIdentity', 'Severity', 'SeverityCounts', 'Sha256Hash', 'TRACKS',
  'ThreatTrends', 'TimestampError', 'Track', 'TrendsDay', 'TrendsQuery', 'VERDICTS', 'ValidationIssue',
  'ValidatorScore', 'Verdict', 'VerdictCounts', 'WEBHOOK_EVENT_KINDS', 'Webhook', 'WebhookCreateRequest',
  'WebhookCreated', 'WebhookEventKind', 'WebhookList', 'WebhookResponse', 'WebhookUpdateRequest', 'WebhookUrl',
  'apiKeyLacksScopeDetail', 'canonicalBytes', 'canonicalHash', 'canonicalJson', 'contentHash', 'describeError',
  'emptyRoundAttestations', 'formatBundleHash', 'formatDay', 'formatNaiveTimestamp', 'formatOffsetTimestamp',
  'normalizePackageRef', 'parseBundleHash', 'parsePackageRef', 'parseTimestamp', 'planeOfCategory', 'sha256Hex',
  'sourceIpNotAllowlistedDetail',
  // Validator endpoints (schemas/validators.ts).
  'AttestationReceipt', 'ClaimedRound', 'LeasedTask', 'MAX_ALLOWED_IPS', 'MAX_PROGRESS_DETAIL_LENGTH', 'MAX_TASKS_PER_CLAIM',
  'MAX_THREAT_INTEL_FINDINGS', 'TaskClaim', 'TaskClaimRequest', 'TaskProgress', 'TaskProgressRequest', 'ThreatIntel',
  'ValidatorRegistration', 'ValidatorRegistrationRequest',
  // Batch attestation submission (schemas/validators.ts).
  'BatchAttestationReceipt', 'BatchAttestationResult', 'BatchAttestationSubmission', 'MAX_ATTESTATIONS_PER_BATCH',
];

describe('public surface', () => {
  it.each(STABLE_EXPORTS)('exports %s', (name) => {
    expect(core).toHaveProperty(name);
    expect((core as Record<string, unknown>)[name]).toBeDefined();
  });

  // The miner endpoints (schemas/miners.ts).
  it.each([
    'AGENT_BUNDLE_FORMAT', 'AGENT_BUNDLE_LIMITS', 'AGENT_FILE_MODES', 'AgentBundle', 'AgentBundleFile', 'AgentBundlePath',
    'AgentSubmissionRequest', 'MinerAgent', 'MinerRegistration', 'MinerRegistrationRequest', 'MinerTrackParams',
  ])('exports %s', (name) => {
    expect((core as Record<string, unknown>)[name]).toBeDefined();
  });
});
