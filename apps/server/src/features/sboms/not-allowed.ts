import type { SbomDependency } from '@vigil/core';

/**
 * A dependency the SARIF and VEX answers report: one the policy warns about or blocks, or one
 * still pending. A pending package's own verdict is whatever the policy's rules give it (ALLOW under
 * a policy none of whose rules fail), but it is never counted as allowed: it makes the overall
 * verdict WARN, so a report that left it out would show no finding under a WARN gate.
 */
export function notAllowed(dependency: Pick<SbomDependency, 'verdict' | 'state'>): boolean {
  return dependency.verdict !== 'ALLOW' || dependency.state === 'pending';
}
