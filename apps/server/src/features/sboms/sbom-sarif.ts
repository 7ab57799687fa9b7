import type { SbomVerification } from '@vigil/core';
import { notAllowed } from './not-allowed.js';
import { UniqueRefs } from './unique-refs.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** Where results point when the caller does not say where the SBOM lives in its repository. */
export const DEFAULT_SBOM_PATH = 'sbom.json';

// One rule per kind of finding: GitHub code scanning groups alerts by rule and ranks them by
// `security-severity` (a CVSS-like score: 9.0 is "critical", 5.0 "medium"). The first two are the
// rules `vigil verify-repo --sarif` writes, so both kinds of alert are one rule in code scanning.
const RULES = [
  {
    id: 'vigil/blocked-dependency',
    name: 'BlockedDependency',
    shortDescription: { text: 'A dependency the Vigil policy blocks' },
    fullDescription: { text: 'The SBOM lists a package that the applied Vigil policy blocks: Vigil published a BLOCK verdict for it, or a blocking check of the policy failed.' },
    help: { text: 'Remove the dependency or move to a version Vigil allows; `vigil verify <purl>` shows the verdict and its attestations.' },
    defaultConfiguration: { level: 'error' as const },
    properties: { tags: ['security', 'supply-chain'], precision: 'high', 'security-severity': '9.0' },
  },
  {
    id: 'vigil/warned-dependency',
    name: 'WarnedDependency',
    shortDescription: { text: 'A dependency the Vigil policy warns about, or not yet evaluated' },
    fullDescription: { text: 'The applied Vigil policy warns about this package, or Vigil has no published verdict for it yet (pending packages are never counted as allowed).' },
    help: { text: 'Review the warning; a pending package gets a verdict once a round has evaluated it.' },
    defaultConfiguration: { level: 'warning' as const },
    properties: { tags: ['security', 'supply-chain'], precision: 'medium', 'security-severity': '5.0' },
  },
  {
    id: 'vigil/unverified-component',
    name: 'UnverifiedComponent',
    shortDescription: { text: 'An SBOM component Vigil did not verify' },
    fullDescription: { text: 'The component has no purl, or a purl Vigil does not verify (another package type, no version, not a valid purl). It is neither allowed nor blocked.' },
    help: { text: 'Give the component an npm or PyPI purl with its version, or verify it another way.' },
    defaultConfiguration: { level: 'note' as const },
    properties: { tags: ['supply-chain'], precision: 'high' },
  },
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
    .map((d) => {
      const ruleIndex = d.verdict === 'BLOCK' ? 0 : 1;
      const why = [
        d.state === 'pending' ? `pending: Vigil has no published verdict yet (${d.queued === 'evaluating' ? 'its bytes are queued for evaluation' : 'requested'})` : `Vigil's verdict ${d.published_verdict ?? '-'}`,
        d.failed.length > 0 ? `failed: ${d.failed.join(', ')}` : null,
        d.warnings.length > 0 ? `warnings: ${d.warnings.join(', ')}` : null,
      ].filter((x) => x !== null);
      return {
        ruleId: RULES[ruleIndex]!.id,
        ruleIndex,
        level: ruleIndex === 0 ? ('error' as const) : ('warning' as const),
        message: { text: `${d.purl}: ${d.verdict} under policy ${verification.policy.name} v${verification.policy.version}; ${why.join('; ')}` },
        locations: at(d.purl, d.components[0] ?? d.purl),
        partialFingerprints: { 'vigilDependency/v1': d.purl },
        properties: { purl: d.purl, ecosystem: d.ecosystem, direct: d.direct, dev: d.dev, state: d.state, verdict: d.verdict, components: d.components },
      };
    });
  const refs = new UniqueRefs();
  const unverifiedResults = verification.unverified.map((u) => ({
    ruleId: RULES[2]!.id,
    ruleIndex: 2,
    level: 'note' as const,
    message: { text: `${u.purl ?? u.name ?? u.ref}: not verified: ${u.detail}` },
    locations: at(u.purl ?? u.name ?? u.ref, u.ref),
    partialFingerprints: { 'vigilComponent/v1': refs.next(u.ref) },
    properties: { ref: u.ref, purl: u.purl, reason: u.reason },
  }));
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'vigil', rules: RULES } },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository the SBOM belongs to' } } },
        results: [...dependencyResults, ...unverifiedResults],
        properties: { verdict: verification.verdict, complete: verification.complete, policy: verification.policy, sbom: verification.sbom, summary: verification.summary },
      },
    ],
  };
}
