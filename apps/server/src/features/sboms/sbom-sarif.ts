import { dependencyResult, dependencyRules, notAllowed, sarifLog, type SarifRule, type SbomVerification } from '@vigil/core';
import { UniqueRefs } from './unique-refs.js';

/** Where results point when the caller does not say where the SBOM lives in its repository. */
export const DEFAULT_SBOM_PATH = 'sbom.json';

// The dependency rules are the ones `vigil verify-repo --sarif` writes (@vigil/core builds both),
// so a package blocked in the SBOM and in a lockfile is one rule in code scanning; the third rule
// is the SBOM's own: components Vigil could not verify.
const UNVERIFIED_RULE: SarifRule = {
  id: 'vigil/unverified-component',
  name: 'UnverifiedComponent',
  shortDescription: { text: 'An SBOM component Vigil did not verify' },
  fullDescription: { text: 'The component has no purl, or a purl Vigil does not verify (another package type, no version, not a valid purl). It is neither allowed nor blocked.' },
  help: { text: 'Give the component an npm or PyPI purl with its version, or verify it another way.' },
  defaultConfiguration: { level: 'note' },
  properties: { tags: ['supply-chain'], precision: 'high' },
};

const RULES: SarifRule[] = [
  ...dependencyRules({
    blockedDescription: 'The SBOM lists a package that the applied Vigil policy blocks: Vigil published a BLOCK verdict for it, or a blocking check of the policy failed.',
    helpMarkdown: false,
  }),
  UNVERIFIED_RULE,
];

/**
 * The verification as a SARIF 2.1.0 log: one result per package that is not allowed (rule 0 or 1;
 * a pending package is never allowed, whatever verdict the policy gives it)
 * and one note per component not verified (rule 2), each located in the SBOM file (`sbomPath`, no
 * line: an SBOM's components are found by their purl, given as the logical location).
 */
export function toSarif(verification: SbomVerification, sbomPath: string): object {
  const at = (name: string, ref: string) => [
    {
      physicalLocation: { artifactLocation: { uri: sbomPath, uriBaseId: '%SRCROOT%' } },
      logicalLocations: [{ name, fullyQualifiedName: ref, kind: 'package' }],
    },
  ];
  const dependencyResults = verification.dependencies
    .filter(notAllowed)
    .map((d) => dependencyResult(d, verification.policy, at(d.purl, d.components[0] ?? d.purl), { components: d.components }));
  const refs = new UniqueRefs();
  const unverifiedResults = verification.unverified.map((u) => ({
    ruleId: UNVERIFIED_RULE.id,
    ruleIndex: 2,
    level: 'note' as const,
    message: { text: `${u.purl ?? u.name ?? u.ref}: not verified: ${u.detail}` },
    locations: at(u.purl ?? u.name ?? u.ref, u.ref),
    partialFingerprints: { 'vigilComponent/v1': refs.next(u.ref) },
    properties: { ref: u.ref, purl: u.purl, reason: u.reason },
  }));
  return sarifLog({
    rules: RULES,
    sourceRoot: 'The repository the SBOM belongs to',
    results: [...dependencyResults, ...unverifiedResults],
    properties: { verdict: verification.verdict, complete: verification.complete, policy: verification.policy, sbom: verification.sbom, summary: verification.summary },
  });
}
