import * as z from 'zod';

export const TRACKS = ['skills', 'mcp_servers', 'packages', 'repositories'] as const;
export const Track = z.enum(TRACKS);
export type Track = z.infer<typeof Track>;

export const VERDICTS = ['ALLOW', 'WARN', 'BLOCK'] as const;
export const Verdict = z.enum(VERDICTS);
export type Verdict = z.infer<typeof Verdict>;

/** The policy evaluation response writes verdicts in lowercase. */
export const POLICY_VERDICTS = ['allow', 'warn', 'block'] as const;
export const PolicyVerdict = z.enum(POLICY_VERDICTS);
export type PolicyVerdict = z.infer<typeof PolicyVerdict>;

export const SEVERITIES = ['CRIT', 'HIGH', 'MED', 'LOW'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

export const ROUND_STATUSES = ['open', 'closed'] as const;
export const RoundStatusValue = z.enum(ROUND_STATUSES);
export type RoundStatusValue = z.infer<typeof RoundStatusValue>;

export const ROUND_PHASES = ['submission', 'evaluation', 'complete'] as const;
export const RoundPhase = z.enum(ROUND_PHASES);
export type RoundPhase = z.infer<typeof RoundPhase>;

export const ELIGIBILITY_STATES = ['new', 'winner', 'updated', 'excluded', 'inactive'] as const;
export const EligibilityState = z.enum(ELIGIBILITY_STATES);
export type EligibilityState = z.infer<typeof EligibilityState>;

/** Reserved by the spec: present in the Agent schema, never populated. */
export const EVALUATION_STATES = ['processing', 'completed', 'pending'] as const;
export const EvaluationState = z.enum(EVALUATION_STATES);
export type EvaluationState = z.infer<typeof EvaluationState>;

export const AGENT_STATUSES = ['active'] as const;
export const AgentStatus = z.enum(AGENT_STATUSES);
export type AgentStatus = z.infer<typeof AgentStatus>;

/** Risk bands of a policy evaluation (the spec shows `low`; Vigil decides the full set). */
export const RISK_LEVELS = ['none', 'low', 'medium', 'high', 'critical'] as const;
export const RiskLevel = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof RiskLevel>;

/** Sections a policy evaluation may include (the spec shows these three; Vigil adds `findings`). */
export const POLICY_INCLUDES = ['vulnerabilities', 'licenses', 'provenance', 'findings'] as const;
export const PolicyInclude = z.enum(POLICY_INCLUDES);
export type PolicyInclude = z.infer<typeof PolicyInclude>;

/**
 * What a failed policy check does (Socket's policy actions): `block` makes the verdict `block`,
 * `warn` makes it `warn` (unless something blocks), `monitor` is recorded without changing the
 * verdict, `ignore` is not evaluated at all.
 */
export const POLICY_ACTIONS = ['block', 'warn', 'monitor', 'ignore'] as const;
export const PolicyAction = z.enum(POLICY_ACTIONS);
export type PolicyAction = z.infer<typeof PolicyAction>;

/** Event kinds an endpoint can subscribe to (docs/webhooks.md). `webhook.test` is sent on request only. */
export const WEBHOOK_EVENT_KINDS = ['verdict.changed', 'attestation.created', 'repository.verified', 'round.closed', 'webhook.disabled'] as const;
export const WebhookEventKind = z.enum(WEBHOOK_EVENT_KINDS);
export type WebhookEventKind = z.infer<typeof WebhookEventKind>;

/** Source-hosting providers. Only `github` is connected today; the others are accepted names that are refused as not yet connected. */
export const REPOSITORY_PROVIDERS = ['github', 'gitlab', 'bitbucket'] as const;
export const CONNECTED_REPOSITORY_PROVIDERS = ['github'] as const;
export const RepositoryProvider = z.enum(REPOSITORY_PROVIDERS);
export type RepositoryProvider = z.infer<typeof RepositoryProvider>;

/**
 * Where a finding's threat acts, which `by_plane` in threat trends groups by:
 * `prompt` — instructions that reach a model (skill text, MCP tool descriptions);
 * `install` — what runs or resolves at install time;
 * `runtime` — code that runs when the artifact is used.
 */
export const PLANES = ['prompt', 'install', 'runtime'] as const;
export type Plane = (typeof PLANES)[number];

/** Finding categories Vigil knows and the plane each belongs to. Agents may emit others; those count under `runtime`. */
export const FINDING_CATEGORY_PLANES = {
  prompt_injection: 'prompt',
  tool_poisoning: 'prompt',
  instruction_override: 'prompt',
  install_script: 'install',
  typosquat: 'install',
  dependency_confusion: 'install',
  malware: 'runtime',
  exfiltration: 'runtime',
  credential_access: 'runtime',
  obfuscation: 'runtime',
  remote_code_execution: 'runtime',
  excessive_permissions: 'runtime',
  vulnerability: 'runtime',
} as const satisfies Record<string, Plane>;
export type FindingCategory = keyof typeof FINDING_CATEGORY_PLANES;
export const FINDING_CATEGORIES = Object.keys(FINDING_CATEGORY_PLANES) as FindingCategory[];

export function planeOfCategory(category: string): Plane {
  // Own properties only: agent-supplied names like `toString` must not reach Object.prototype.
  return Object.hasOwn(FINDING_CATEGORY_PLANES, category)
    ? (FINDING_CATEGORY_PLANES as Record<string, Plane>)[category]!
    : 'runtime';
}
