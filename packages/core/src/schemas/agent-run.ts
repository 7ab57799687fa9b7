import * as z from 'zod';
import { Track, Verdict } from '../enums.js';
import { LIMITS } from '../limits.js';
import { Sha256Hash } from '../ids.js';
import { Finding } from './rounds.js';

/** The format tag of the JSON an agent reads on stdin (docs/agents.md, "Input"). */
export const AGENT_INPUT_FORMAT = 'vigil-agent-input/1';

/**
 * What the runner writes to an agent's stdin: where the unpacked artifact is (read-only), which
 * track and artifact it is, the agent's writable scratch directory and the budget it runs under.
 */
export const AgentInput = z.object({
  format: z.literal(AGENT_INPUT_FORMAT),
  track: Track,
  artifact: z.object({
    /** Absolute path of the unpacked artifact: readable, never writable. */
    dir: z.string().min(1),
    /** `sha256:<hex>` of the artifact's bytes as downloaded (the task's `artifact.sha256`); null for a local directory. */
    sha256: Sha256Hash.nullable(),
    /** The task's `artifact.bundle_hash` (e.g. `packages/left-pad-1.3.0/npm/left-pad`); null for a local scan. */
    bundle_hash: z.string().min(1).nullable(),
  }),
  /** Absolute path of an empty directory the agent may write to; deleted after the run. */
  scratch_dir: z.string().min(1),
  budget: z.object({
    wall_ms: z.int().min(1),
    cpu_ms: z.int().min(1),
    memory_bytes: z.int().min(1),
    output_bytes: z.int().min(1),
  }),
});
export type AgentInput = z.infer<typeof AgentInput>;

const FindingText = z.string().max(LIMITS.maxFindingTextLength);

/**
 * A finding as an agent reports it: the attestation finding (`type`, `category`, `severity`,
 * `title`, `file`) plus where in the file (`line`, 1-based) and the text that triggered it.
 */
export const AgentFinding = Finding.extend({
  // An artifact's file names may hold any byte but `/` and NUL, so only what no file inside
  // `artifact.dir` can be is refused: an absolute path, a `..` step out, a NUL.
  file: FindingText.refine(isPathInsideArtifact, { message: 'file must be a path relative to artifact.dir: no leading /, no .. segment, no NUL' }),
  line: z.int().min(1).optional(),
  evidence: FindingText.optional(),
});
export type AgentFinding = z.infer<typeof AgentFinding>;

function isPathInsideArtifact(file: string): boolean {
  if (file.startsWith('/') || file.includes('\0')) return false;
  return !file.split('/').includes('..');
}

/**
 * The one JSON value an agent prints on stdout. Keys beyond these are ignored. At most as many
 * findings as one attestation may carry, so every valid result can be attested.
 */
export const AgentResult = z.object({
  verdict: Verdict,
  risk_score: z.int().min(0).max(100),
  findings: z.array(AgentFinding).max(LIMITS.maxFindingsPerAttestation),
});
export type AgentResult = z.infer<typeof AgentResult>;
