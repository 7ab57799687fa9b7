import { describe, expect, it } from 'vitest';
import {
  AgentStatus,
  EligibilityState,
  EvaluationState,
  FINDING_CATEGORIES,
  FINDING_CATEGORY_PLANES,
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
    ['webhook event kind', WebhookEventKind, ['verdict.changed', 'attestation.created', 'repository.verified']],
  ] as const)('%s', (_name, schema, values) => {
    expect(schema.options).toEqual(values);
    for (const value of values) expect(schema.safeParse(value).success).toBe(true);
    expect(schema.safeParse(`${values[0]}x`).success).toBe(false);
    expect(schema.safeParse(values[0].toUpperCase() === values[0] ? values[0].toLowerCase() : values[0].toUpperCase()).success).toBe(false);
  });
});

describe('planeOfCategory', () => {
  it('maps every known category to its plane', () => {
    for (const category of FINDING_CATEGORIES) {
      expect(PLANES).toContain(planeOfCategory(category));
      expect(planeOfCategory(category)).toBe(FINDING_CATEGORY_PLANES[category]);
    }
    expect(planeOfCategory('prompt_injection')).toBe('prompt');
    expect(planeOfCategory('typosquat')).toBe('install');
    expect(planeOfCategory('exfiltration')).toBe('runtime');
  });

  it('counts categories it does not know under runtime', () => {
    expect(planeOfCategory('novel_attack')).toBe('runtime');
    expect(planeOfCategory('toString')).toBe('runtime');
    expect(planeOfCategory('__proto__')).toBe('runtime');
  });
});
