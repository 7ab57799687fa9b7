import type { AgentResult, AttestationPayload, ClaimedRound, LeasedTask } from '@vigil/core';
import { formatOffsetTimestamp } from '@vigil/core';

/**
 * The payload of a task's attestation (docs/attestations.md, "Payload"): the task's fields repeated
 * as the claim gave them, the agent's verdict and score, and its findings cut to the five fields an
 * attestation carries (`line` and `evidence` are for local scans; an extra key would be stripped by
 * the server's parser and break the hash).
 */
export function attestationPayload(
  round: Pick<ClaimedRound, 'round_id' | 'track' | 'policy_version'>,
  task: Pick<LeasedTask, 'task_id' | 'miner_hotkey' | 'agent_hash' | 'artifact'>,
  result: AgentResult,
  validatorHotkey: string,
  now: Date,
): AttestationPayload {
  return {
    round_id: round.round_id,
    task_id: task.task_id,
    track: round.track,
    miner_hotkey: task.miner_hotkey,
    agent_hash: task.agent_hash,
    artifact: { bundle_hash: task.artifact.bundle_hash, sha256: task.artifact.sha256 },
    verdict: result.verdict,
    risk_score: result.risk_score,
    findings: result.findings.map((f) => ({ type: f.type, category: f.category, severity: f.severity, title: f.title, file: f.file })),
    policy_version: round.policy_version,
    validator_hotkey: validatorHotkey,
    created_at: formatOffsetTimestamp(now),
  };
}
