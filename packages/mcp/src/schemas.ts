import { REFERENCE_FETCH_STATES, SEVERITIES, TRACKS, VERDICTS } from '@vigil/core';
import * as z from 'zod';

/**
 * The input and output schemas of the tools (docs/mcp.md, "Tools"). They are this package's wire
 * format: the MCP SDK sends them to clients as JSON Schema (`tools/list`), validates every call's
 * arguments against the input schema and every result's `structuredContent` against the output.
 */

/** What an agent should do with a verdict: `unknown` while Vigil has none (never a guess). */
export const ADVICE = ['proceed', 'review', 'do_not_install', 'unknown'] as const;
export const Advice = z.enum(ADVICE);
export type Advice = z.infer<typeof Advice>;

const Verdict = z.enum(VERDICTS);
const Timestamp = z.string().describe('RFC 3339 with a zone offset');

/** A package reference as the agent wrote it: `npm:left-pad@1.3.0`, `pypi:requests@2.32.3` or a purl. */
export const PackageReference = z
  .string()
  .min(1)
  .max(2048)
  .describe('A package reference: npm:<name>@<version>, pypi:<name>@<version>, or a purl (pkg:npm/left-pad@1.3.0, pkg:pypi/requests@2.32.3)');

export const FindingsSummary = z.object({
  total: z.int().min(0),
  by_severity: z.object(Object.fromEntries(SEVERITIES.map((s) => [s, z.int().min(0)])) as Record<(typeof SEVERITIES)[number], z.ZodInt>),
  by_category: z.array(z.object({ category: z.string(), count: z.int().min(0) })),
});

export const FetchState = z
  .object({ state: z.enum(REFERENCE_FETCH_STATES), reason: z.string().nullable(), expected_by: Timestamp.nullable() })
  .describe("Where Vigil's on-demand registry fetch of the package stands (docs/registries.md); null when Vigil is not fetching it");

/** One package's answer, in `check_package`, `check_packages` and `check_mcp_server`. */
export const PackageCheck = z.object({
  package: z.string().describe('The reference as given'),
  artifact: z.string().describe('The canonical purl Vigil answered for'),
  state: z.enum(['decided', 'pending']),
  verdict: Verdict.nullable().describe('The published verdict; null while pending'),
  advice: Advice,
  risk_score: z.int().min(0).nullable(),
  decided_at: Timestamp.nullable(),
  artifact_id: z.string().nullable(),
  queued: z.boolean().describe('Vigil holds the artifact and will evaluate it'),
  findings_summary: FindingsSummary.nullable(),
  attestations: z.int().min(0).describe('How many signed attestations back the verdict'),
  fetch: FetchState.nullable(),
});
export type PackageCheck = z.infer<typeof PackageCheck>;

export const CheckPackageInput = { package: PackageReference };
export const CheckPackageOutput = PackageCheck;

/** At most this many package references (or lockfile packages) in one `check_packages` call. */
export const MAX_CHECK_PACKAGES = 1000;
/** At most this many characters of lockfile content: the message carrying it must fit MAX_MESSAGE_BYTES. */
export const MAX_LOCKFILE_CHARS = 8 * 1024 * 1024;
/** The largest JSON-RPC message either transport reads (16 MiB): a lockfile of MAX_LOCKFILE_CHARS with room for escaping. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export const CheckPackagesInput = {
  packages: z.array(PackageReference).min(1).max(MAX_CHECK_PACKAGES).optional().describe('Package references to check; or give lockfile'),
  lockfile: z
    .object({
      file_name: z.string().min(1).max(1024).describe('The lockfile name, which tells its format: package-lock.json, pnpm-lock.yaml, yarn.lock, bun.lock, requirements.txt, poetry.lock, Pipfile.lock, uv.lock'),
      content: z.string().max(MAX_LOCKFILE_CHARS).describe("The lockfile's text"),
    })
    .optional()
    .describe("A lockfile's content and name; every registry package it installs is checked"),
};

export const CheckPackagesOutput = z.object({
  verdict: Verdict.describe('The worst of the results; a pending package counts as WARN'),
  advice: Advice,
  summary: z.object({ total: z.int().min(0), blocked: z.int().min(0), warned: z.int().min(0), pending: z.int().min(0), allowed: z.int().min(0) }),
  lockfile: z
    .object({ format: z.string(), format_version: z.string().nullable(), packages: z.int().min(0), skipped: z.array(z.object({ name: z.string().nullable(), line: z.int().nullable(), reason: z.string() })) })
    .nullable()
    .describe('What was read from the lockfile; null for a list of references'),
  results: z.array(PackageCheck),
});
export type CheckPackagesOutput = z.infer<typeof CheckPackagesOutput>;

export const LocalFinding = z.object({
  severity: z.enum(SEVERITIES),
  category: z.string(),
  title: z.string(),
  file: z.string(),
  line: z.int().min(1).nullable(),
  evidence: z.string().nullable(),
});

/** The reference agent's analysis on this machine (as `vigil scan --json`). */
export const LocalScan = z.object({
  path: z.string().describe('The absolute path scanned'),
  track: z.enum(TRACKS),
  verdict: Verdict.nullable().describe("The reference agent's verdict; null when its run failed"),
  advice: Advice,
  risk_score: z.int().min(0).nullable(),
  findings: z.array(LocalFinding),
  agent: z.object({ name: z.string(), version: z.string().nullable(), agent_hash: z.string() }),
  elapsed_ms: z.int().min(0),
  failure_reason: z.string().nullable(),
});
export type LocalScan = z.infer<typeof LocalScan>;

export const LocalPath = z.string().min(1).max(4096).describe('A local directory, or an archive (.tgz, .tar.gz, .zip, .whl); relative paths resolve against the MCP server\'s working directory');

export const CheckMcpServerInput = {
  package: PackageReference.optional().describe('The MCP server as an npm or PyPI package reference; or give path'),
  path: LocalPath.optional(),
};
export const CheckMcpServerOutput = z.object({
  source: z.enum(['vigil', 'local_scan']).describe('vigil: the published verdict of the package; local_scan: the reference agent run on this machine'),
  package: PackageCheck.nullable(),
  scan: LocalScan.nullable(),
});
export type CheckMcpServerOutput = z.infer<typeof CheckMcpServerOutput>;

export const CheckSkillInput = { path: LocalPath };
export const CheckSkillOutput = LocalScan;

/** At most this many attestations are read (with their log proofs) for one explanation. */
export const MAX_EXPLAINED_ATTESTATIONS = 5;
/** At most this many findings are listed in one explanation (`findings_total` counts them all). */
export const MAX_EXPLAINED_FINDINGS = 50;

export const ExplainVerdictInput = {
  package: PackageReference.optional().describe('The package reference to explain; or give artifact_id'),
  artifact_id: z.string().regex(/^art_[1-9][0-9]{0,15}$/, 'expected art_<id>').optional().describe("An artifact id, art_<n>, as check_package answers it"),
};

export const ExplainedAttestation = z.object({
  canonical_hash: z.string(),
  validator_hotkey: z.string(),
  verdict: Verdict,
  risk_score: z.int().min(0),
  round_id: z.string(),
  recorded_at: Timestamp,
  envelope_withheld: z.boolean().describe('The signed envelope is withheld on the free plan when it carries findings'),
  in_log: z.boolean().nullable().describe("The server's transparency log holds it (a log_proof was served); null when not asked"),
  log_proof: z.string().nullable().describe('The C2SP tlog-proof of its log entry (docs/log.md), to check offline'),
  log_entry: z.string().nullable(),
});

export const ExplainVerdictOutput = z.object({
  package: z.string().nullable(),
  artifact_id: z.string().nullable(),
  sha256: z.string().nullable(),
  purls: z.array(z.string()),
  state: z.enum(['decided', 'pending']),
  verdict: Verdict.nullable(),
  advice: Advice,
  risk_score: z.int().min(0).nullable(),
  decided_at: Timestamp.nullable(),
  verdict_history: z.array(z.object({ verdict: Verdict, previous_verdict: Verdict.nullable(), risk_score: z.int().min(0), round_id: z.string(), changed_at: Timestamp })),
  findings: z.array(z.object({ type: z.string(), category: z.string(), severity: z.enum(SEVERITIES), title: z.string(), file: z.string(), canonical_hash: z.string() })).nullable(),
  findings_total: z.int().min(0).nullable(),
  findings_withheld: z.boolean().describe('Free plans: findings are withheld (null)'),
  attestations: z.array(ExplainedAttestation),
  attestations_total: z.int().min(0),
  verify_offline: z.array(z.string()).describe('Commands that check the attestations without trusting this answer'),
});
export type ExplainVerdictOutput = z.infer<typeof ExplainVerdictOutput>;
