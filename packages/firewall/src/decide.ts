import type { ResolvedOptions } from './firewall-options.js';
import type { PolicyAnswer } from './policy-source.js';
import { VigilUnavailable, type Lookup, type Verdict } from './verdict-source.js';

/** The firewall's answer for one version, with the reason the decision log and the 403 give. */
export interface Decision {
  allow: boolean;
  reason: string;
  verdict: Verdict | null;
}

function undecidedWhy(v: Verdict): string {
  if (v.refused) return `Vigil cannot name this version (${v.refused})`;
  if (v.fetch?.state === 'failed') return `no verdict (Vigil's fetch failed: ${v.fetch.reason ?? 'no reason given'})`;
  if (v.fetch) return `no verdict yet (Vigil is ${v.fetch.state === 'fetching' ? 'fetching it' : 'evaluating it'})`;
  return 'no verdict yet';
}

/**
 * The decision for a version from what Vigil answered (docs/firewall.md "Decisions"): BLOCK refused,
 * WARN per `warn`, ALLOW let through; undecided, or Vigil unavailable, per the mode (`waitedSeconds`
 * is how long `wait` really waited before giving up, and refuses; null when it did not wait).
 */
export function decide(lookup: Lookup, options: Pick<ResolvedOptions, 'mode' | 'warn'>, waitedSeconds: number | null): Decision {
  const open = options.mode === 'fail-open';
  const modeNote = waitedSeconds !== null ? `still so after waiting ${waitedSeconds} s (mode wait)` : `mode ${options.mode}`;
  if (lookup instanceof VigilUnavailable) {
    return { allow: open, reason: `Vigil unavailable: ${lookup.message}; ${modeNote}`, verdict: null };
  }
  if (lookup.state === 'decided') {
    if (lookup.verdict === 'BLOCK') return { allow: false, reason: 'verdict BLOCK', verdict: lookup };
    if (lookup.verdict === 'WARN') return { allow: options.warn === 'allow', reason: `verdict WARN (warn: ${options.warn})`, verdict: lookup };
    return { allow: true, reason: 'verdict ALLOW', verdict: lookup };
  }
  return { allow: open, reason: `${undecidedWhy(lookup)}; ${modeNote}`, verdict: lookup };
}

/** Whether a policy's answer leaves the version undecided (the mode applies, `wait` keeps asking). */
export function policyUndecided(answer: PolicyAnswer | VigilUnavailable): boolean {
  return answer instanceof VigilUnavailable || (answer.state === 'pending' && answer.verdict !== 'block');
}

/**
 * The decision from a named policy's evaluation (`policy` set): `block` refused whatever the state;
 * a pending evaluation otherwise undecided (the mode); `warn` per `warn`; `allow` let through.
 */
export function decideByPolicy(answer: PolicyAnswer | VigilUnavailable, policy: string, options: Pick<ResolvedOptions, 'mode' | 'warn'>, waitedSeconds: number | null): Decision {
  if (answer instanceof VigilUnavailable) return decide(answer, options, waitedSeconds);
  const open = options.mode === 'fail-open';
  const modeNote = waitedSeconds !== null ? `still so after waiting ${waitedSeconds} s (mode wait)` : `mode ${options.mode}`;
  const verdict: Verdict = { reference: answer.reference, purl: answer.purl, state: answer.state, verdict: null, riskScore: answer.score, findings: null, fetch: answer.fetch };
  if (answer.verdict === 'block') return { allow: false, reason: `policy ${policy}: block (${answer.failed.join(', ')})`, verdict };
  if (answer.state === 'pending') return { allow: open, reason: `${undecidedWhy(verdict)}; ${modeNote}`, verdict };
  if (answer.verdict === 'warn') return { allow: options.warn === 'allow', reason: `policy ${policy}: warn (${answer.warnings.join(', ')}) (warn: ${options.warn})`, verdict };
  return { allow: true, reason: `policy ${policy}: allow`, verdict };
}
