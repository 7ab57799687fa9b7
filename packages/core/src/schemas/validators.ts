import * as z from 'zod';
import { Track, Verdict } from '../enums.js';
import { BundleHash, Hotkey, RoundId, Sha256Hash } from '../ids.js';
import { OffsetTimestamp } from '../timestamps.js';
import { AttestationSubmission } from './attestation.js';
import { NonNegativeInt } from './common.js';
import { Finding } from './rounds.js';

/**
 * The validator-signed endpoints (docs/protocol.md, "Validator endpoints"). Requests are strict
 * objects: a misspelt field is refused rather than silently ignored.
 */

/** Most source addresses one validator may list; a wider net defeats the allowlist. */
export const MAX_ALLOWED_IPS = 32;
/** Most tasks one claim may lease. */
export const MAX_TASKS_PER_CLAIM = 100;
/** Longest progress `detail` kept. */
export const MAX_PROGRESS_DETAIL_LENGTH = 1000;
/** Most findings a threat-intel answer carries. */
export const MAX_THREAT_INTEL_FINDINGS = 50;

/** At least one address: every validator endpoint checks the caller's source IP against this list. */
export const ValidatorRegistrationRequest = z.strictObject({
  allowed_ips: z.array(z.string().min(1).max(64)).min(1).max(MAX_ALLOWED_IPS),
});
export type ValidatorRegistrationRequest = z.infer<typeof ValidatorRegistrationRequest>;

export const ValidatorRegistration = z.object({
  hotkey: Hotkey,
  uid: NonNegativeInt,
  /** `pending` until an operator approves it, when the deployment requires approval. */
  status: z.enum(['pending', 'active', 'suspended', 'revoked']),
  allowed_ips: z.array(z.string()),
});
export type ValidatorRegistration = z.infer<typeof ValidatorRegistration>;

export const TaskClaimRequest = z.strictObject({
  track: Track.optional(),
  max: z.int().min(1).max(MAX_TASKS_PER_CLAIM).optional(),
});
export type TaskClaimRequest = z.infer<typeof TaskClaimRequest>;

/** The round whose tasks a claim leased. */
export const ClaimedRound = z.object({
  round_id: RoundId,
  track: Track,
  round_number: z.int().min(1),
  policy_version: z.string().min(1),
  closes_at: OffsetTimestamp,
});
export type ClaimedRound = z.infer<typeof ClaimedRound>;

/**
 * One task (one frozen agent × one artifact) leased to the caller. Never says whether the artifact
 * is a labeled benchmark or a live one, nor its ground truth.
 */
export const LeasedTask = z.object({
  task_id: z.string().min(1).max(128),
  lease_expires_at: OffsetTimestamp,
  miner_hotkey: Hotkey,
  agent_hash: Sha256Hash,
  artifact: z.object({ bundle_hash: BundleHash, sha256: Sha256Hash }),
});
export type LeasedTask = z.infer<typeof LeasedTask>;

/** `round` is null when no round is in its evaluation phase (on the requested track). */
export const TaskClaim = z.object({
  round: ClaimedRound.nullable(),
  tasks: z.array(LeasedTask).max(MAX_TASKS_PER_CLAIM),
});
export type TaskClaim = z.infer<typeof TaskClaim>;

export const TaskProgressRequest = z.strictObject({
  state: z.enum(['running', 'failed']),
  detail: z.string().max(MAX_PROGRESS_DETAIL_LENGTH).optional(),
});
export type TaskProgressRequest = z.infer<typeof TaskProgressRequest>;

export const TaskProgress = z.object({
  task_id: z.string().min(1).max(128),
  state: z.enum(['running', 'failed']),
  /** When the lease now ends; for `failed`, the moment it was released. */
  lease_expires_at: OffsetTimestamp,
});
export type TaskProgress = z.infer<typeof TaskProgress>;

export const AttestationReceipt = z.object({
  canonical_hash: Sha256Hash,
  task_id: z.string().min(1).max(128),
  /** False when this exact envelope had already been recorded. */
  created: z.boolean(),
});
export type AttestationReceipt = z.infer<typeof AttestationReceipt>;

/** Most envelopes one batch submission may carry. */
export const MAX_ATTESTATIONS_PER_BATCH = 500;

export const BatchAttestationSubmission = z.strictObject({
  attestations: z.array(AttestationSubmission).min(1).max(MAX_ATTESTATIONS_PER_BATCH),
});
export type BatchAttestationSubmission = z.infer<typeof BatchAttestationSubmission>;

/**
 * One envelope's outcome, in request order. `refused` carries the status and `detail` the single
 * endpoint (POST /v1/validators/attestations) would have answered for that envelope alone.
 */
export const BatchAttestationResult = z.object({
  canonical_hash: Sha256Hash,
  task_id: z.string().min(1).max(128),
  outcome: z.enum(['created', 'duplicate', 'refused']),
  status: z.int().min(400).max(599).optional(),
  /**
   * A refusal's catalogue code (docs/errors.md), as ErrorBody's `code`: optional so that an answer
   * from a server older than the field still parses, a string so that a newer server's code does too.
   */
  code: z.string().optional(),
  detail: z.string().optional(),
});
export type BatchAttestationResult = z.infer<typeof BatchAttestationResult>;

export const BatchAttestationReceipt = z.object({
  results: z.array(BatchAttestationResult).max(MAX_ATTESTATIONS_PER_BATCH),
});
export type BatchAttestationReceipt = z.infer<typeof BatchAttestationReceipt>;

export const ThreatIntel = z.object({
  sha256: Sha256Hash,
  /** Live artifacts with this content. */
  bundle_hashes: z.array(BundleHash),
  /** The published verdict, or null when none has been published yet. */
  verdict: Verdict.nullable(),
  verdict_updated_at: OffsetTimestamp.nullable(),
  /** Distinct findings of attestations in closed rounds, most recent first. */
  findings: z.array(Finding).max(MAX_THREAT_INTEL_FINDINGS),
});
export type ThreatIntel = z.infer<typeof ThreatIntel>;
