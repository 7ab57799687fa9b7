import { describe, expect, it } from 'vitest';
import {
  AgentStatus,
  EligibilityState,
  EvaluationState,
  FINDING_CATEGORIES,
  PLANES,
  RoundPhase,
  RoundStatusValue,
  Severity,
  Track,
  Verdict,
  WebhookEventKind,
  planeOfCategory,
} from './enums.js';

describe('enums match spec parts 1, 2, 3 and 6', () => {
  it.each([
    ['track', Track, ['skills', 'mcp_servers', 'packages', 'repositories']],
    ['verdict', Verdict, ['ALLOW', 'WARN', 'BLOCK']],
    ['severity', Severity, ['CRIT', 'HIGH', 'MED', 'LOW']],
    ['round status', RoundStatusValue, ['open', 'closed']],
    ['round phase', RoundPhase, ['submission', 'evaluation', 'complete']],
    ['eligibility state', EligibilityState, ['new', 'winner', 'updated', 'excluded', 'inactive']],
    ['evaluation state', EvaluationState, ['processing', 'completed', 'pending']],
    ['agent status', AgentStatus, ['active']],
    ['webhook event kind', WebhookEventKind, ['verdict.changed', 'attestation.created', 'repository.verified', 'round.closed', 'webhook.disabled']],
  ] as const)('%s', (_name, schema, values) => {
    expect(schema.options).toEqual(values);
    for (const value of values) expect(schema.safeParse(value).success).toBe(true);
    expect(schema.safeParse(`${values[0]}x`).success).toBe(false);
    expect(schema.safeParse(values[0].toUpperCase() === values[0] ? values[0].toLowerCase() : values[0].toUpperCase()).success).toBe(false);
  });
});

describe('planeOfCategory', () => {
  it('puts the categories every plane is known by where the trends count them', () => {
    expect(planeOfCategory('prompt_injection')).toBe('prompt');
    expect(planeOfCategory('tool_poisoning')).toBe('prompt');
    expect(planeOfCategory('typosquat')).toBe('install');
    expect(planeOfCategory('install_script')).toBe('install');
    expect(planeOfCategory('exfiltration')).toBe('runtime');
    expect(planeOfCategory('malware')).toBe('runtime');
  });

  it('gives every plane at least one known category', () => {
    expect(new Set(FINDING_CATEGORIES.map(planeOfCategory))).toEqual(new Set(PLANES));
  });

  it('counts categories it does not know under runtime', () => {
    expect(planeOfCategory('novel_attack')).toBe('runtime');
    expect(planeOfCategory('Prompt_Injection')).toBe('runtime');
    expect(planeOfCategory('toString')).toBe('runtime');
    expect(planeOfCategory('__proto__')).toBe('runtime');
    expect(planeOfCategory('constructor')).toBe('runtime');
  });
});
