import { randomUUID } from 'node:crypto';
import { Enums, Models, Serialize, Spec } from '@cyclonedx/cyclonedx-library';
import { notAllowed, type SbomDependency, type SbomVerification } from '@vigil/core';
import { UniqueRefs } from './unique-refs.js';

const { Severity, AnalysisState, RatingMethod } = Enums.Vulnerability;

/** The property names Vigil writes (its own `vigil:` namespace, as the CycloneDX property taxonomy asks). */
export const VIGIL_PROPERTY = {
  verdict: 'vigil:verdict',
  complete: 'vigil:complete',
  policy: 'vigil:policy',
  policyVersion: 'vigil:policy:version',
  sbomSpec: 'vigil:sbom:spec',
  sbomSerialNumber: 'vigil:sbom:serial_number',
  state: 'vigil:state',
  queued: 'vigil:queued',
  publishedVerdict: 'vigil:published_verdict',
  failed: 'vigil:failed',
  warning: 'vigil:warning',
  component: 'vigil:component',
  unverified: 'vigil:unverified',
  unverifiedDetail: 'vigil:unverified:detail',
} as const;

/** The vulnerability id of a dependency the policy blocks, and of one it warns about or that is pending. */
export const VIGIL_BLOCKED_ID = 'VIGIL-BLOCK';
export const VIGIL_WARNED_ID = 'VIGIL-WARN';

/** The bom-ref of `metadata.component`, the posted SBOM's subject. */
export const SUBJECT_BOM_REF = 'vigil:subject';

const SOURCE = () => new Models.Vulnerability.Source({ name: 'Vigil' });

function why(dependency: SbomDependency, policy: SbomVerification['policy']): string {
  const parts = [
    `${dependency.purl}: ${dependency.verdict} under policy ${policy.name} v${policy.version}`,
    dependency.state === 'pending'
      ? `pending: Vigil has no published verdict yet (${dependency.queued === 'evaluating' ? 'its bytes are queued for evaluation' : 'requested'}${dependency.fetch ? `; registry fetch ${dependency.fetch.state}` : ''})`
      : `Vigil's published verdict ${dependency.published_verdict ?? '-'}`,
  ];
  if (dependency.failed.length > 0) parts.push(`failed: ${dependency.failed.join(', ')}`);
  if (dependency.warnings.length > 0) parts.push(`warnings: ${dependency.warnings.join(', ')}`);
  return parts.join('; ');
}

/**
 * The verification as a CycloneDX 1.6 VEX document, built with the CycloneDX library's models and
 * serialized by its JSON serializer (never by hand), so any CycloneDX tool reads it:
 *
 * - `metadata`: Vigil as the tool, the SBOM's subject as the component, the verdict, policy and the
 *   posted SBOM's spec and serial number as `vigil:` properties;
 * - `components`: one per verified package (bom-ref and purl: the canonical purl), its verdict and
 *   state as properties and the posted SBOM's component refs as `vigil:component`; then one per
 *   component not verified, with `vigil:unverified` (the reason) and its detail;
 * - `vulnerabilities`: one per package that is not allowed, `VIGIL-BLOCK` (severity critical,
 *   analysis `exploitable`) or `VIGIL-WARN` (severity medium, analysis `in_triage`, pending ones
 *   included), affecting that component, the reasons in `description` and `analysis.detail`.
 */
export function toCycloneDxVex(verification: SbomVerification): string {
  const bom = new Models.Bom({ serialNumber: `urn:uuid:${randomUUID()}` });
  bom.metadata.timestamp = new Date(verification.verified_at);
  bom.metadata.tools.components.add(new Models.Component(Enums.ComponentType.Application, 'vigil', { description: 'Vigil package verification' }));
  if (verification.sbom.name !== null) {
    // A fixed bom-ref: without one the library invents a random one, and the same verification would give two VEX documents.
    bom.metadata.component = new Models.Component(Enums.ComponentType.Application, verification.sbom.name, {
      ...(verification.sbom.version !== null ? { version: verification.sbom.version } : {}),
      bomRef: SUBJECT_BOM_REF,
    });
  }
  const meta = bom.metadata.properties;
  meta.add(new Models.Property(VIGIL_PROPERTY.verdict, verification.verdict));
  meta.add(new Models.Property(VIGIL_PROPERTY.complete, String(verification.complete)));
  meta.add(new Models.Property(VIGIL_PROPERTY.policy, verification.policy.name));
  meta.add(new Models.Property(VIGIL_PROPERTY.policyVersion, String(verification.policy.version)));
  meta.add(new Models.Property(VIGIL_PROPERTY.sbomSpec, `${verification.sbom.spec} ${verification.sbom.spec_version}`));
  if (verification.sbom.serial_number !== null) meta.add(new Models.Property(VIGIL_PROPERTY.sbomSerialNumber, verification.sbom.serial_number));

  for (const dependency of verification.dependencies) {
    const component = new Models.Component(Enums.ComponentType.Library, dependency.name, { version: dependency.version, bomRef: dependency.purl });
    component.purl = dependency.purl;
    const props = component.properties;
    props.add(new Models.Property(VIGIL_PROPERTY.verdict, dependency.verdict));
    props.add(new Models.Property(VIGIL_PROPERTY.state, dependency.state));
    if (dependency.queued !== null) props.add(new Models.Property(VIGIL_PROPERTY.queued, dependency.queued));
    if (dependency.published_verdict !== null) props.add(new Models.Property(VIGIL_PROPERTY.publishedVerdict, dependency.published_verdict));
    for (const name of dependency.failed) props.add(new Models.Property(VIGIL_PROPERTY.failed, name));
    for (const name of dependency.warnings) props.add(new Models.Property(VIGIL_PROPERTY.warning, name));
    for (const ref of dependency.components) props.add(new Models.Property(VIGIL_PROPERTY.component, ref));
    bom.components.add(component);
    if (!notAllowed(dependency)) continue;

    const blocked = dependency.verdict === 'BLOCK';
    const text = why(dependency, verification.policy);
    const vulnerability = new Models.Vulnerability.Vulnerability({
      bomRef: `vigil-verdict:${dependency.purl}`,
      id: blocked ? VIGIL_BLOCKED_ID : VIGIL_WARNED_ID,
      source: SOURCE(),
      description: text,
      analysis: new Models.Vulnerability.Analysis({ state: blocked ? AnalysisState.Exploitable : AnalysisState.InTriage, detail: text }),
    });
    vulnerability.ratings.add(new Models.Vulnerability.Rating({ source: SOURCE(), severity: blocked ? Severity.Critical : Severity.Medium, method: RatingMethod.Other }));
    vulnerability.affects.add(new Models.Vulnerability.Affect(component.bomRef));
    bom.vulnerabilities.add(vulnerability);
  }
  const refs = new UniqueRefs();
  for (const unverified of verification.unverified) {
    const component = new Models.Component(Enums.ComponentType.Library, unverified.name ?? unverified.ref, {
      ...(unverified.version !== null ? { version: unverified.version } : {}),
      bomRef: `unverified:${refs.next(unverified.ref)}`,
    });
    if (unverified.purl !== null) component.purl = unverified.purl;
    component.properties.add(new Models.Property(VIGIL_PROPERTY.unverified, unverified.reason));
    component.properties.add(new Models.Property(VIGIL_PROPERTY.unverifiedDetail, unverified.detail));
    component.properties.add(new Models.Property(VIGIL_PROPERTY.component, unverified.ref));
    bom.components.add(component);
  }
  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  return serializer.serialize(bom, { sortLists: false });
}
