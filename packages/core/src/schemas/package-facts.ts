import * as z from 'zod';
import { OffsetTimestamp } from '../timestamps.js';
import { ArtifactId } from './artifacts-api.js';

/**
 * What an artifact's archive says about it as a package, and the registry provenance attached to it
 * (docs/package-facts.md): `GET /v1/artifacts/{id}/facts`, `POST /v1/artifacts/{id}/provenance`.
 */

export const PACKAGE_KINDS = ['npm', 'pypi-wheel', 'pypi-sdist'] as const;
export const PackageKind = z.enum(PACKAGE_KINDS);
export type PackageKind = z.infer<typeof PackageKind>;

export const REGISTRY_PROVENANCE_STATES = ['verified', 'present_unverified', 'absent'] as const;
export const RegistryProvenanceState = z.enum(REGISTRY_PROVENANCE_STATES);
export type RegistryProvenanceState = z.infer<typeof RegistryProvenanceState>;

/** A Sigstore bundle attached to an artifact, and what its offline verification found. */
export const ArtifactProvenance = z.object({
  artifact_id: ArtifactId,
  status: z.enum(['verified', 'present_unverified']),
  /** Why the bundle is not verified (null when verified). */
  reason: z.string().nullable(),
  /** The in-toto subject the bundle signs (`pkg:npm/…@…`), when the bundle could be read. */
  subject: z.string().nullable(),
  /** The source repository the signing certificate names (verified bundles only). */
  source_repository: z.string().nullable(),
  /** When the transparency log recorded the signature (verified bundles only). */
  logged_at: OffsetTimestamp.nullable(),
  created_at: OffsetTimestamp,
});
export type ArtifactProvenance = z.infer<typeof ArtifactProvenance>;

/** `GET /v1/artifacts/{id}/facts`. */
export const ArtifactFacts = z.object({
  artifact_id: ArtifactId,
  /** What the archive is as a package; null when it is not one the facts are read from (then every fact below is empty). */
  kind: PackageKind.nullable(),
  /** The declared license: an SPDX expression when the package wrote one, any other text as written; null when none. */
  license: z.string().nullable(),
  /** Where the license was read: `package.json license`, `package.json licenses`, `License-Expression`, `License`, `classifier`. */
  license_source: z.string().nullable(),
  /** What runs when the package is installed, in the order it runs. */
  install_scripts: z.array(z.string()),
  registry_provenance: RegistryProvenanceState,
  /** When the registry published the version, when known (docs/package-facts.md, "published_at"). */
  published_at: OffsetTimestamp.nullable(),
  provenance: ArtifactProvenance.nullable(),
});
export type ArtifactFacts = z.infer<typeof ArtifactFacts>;

/**
 * The body of `POST /v1/artifacts/{id}/provenance`: a Sigstore bundle (JSON, any bundle media type
 * version), or the npm registry's attestations document (`{"attestations": [...]}`) from which the
 * SLSA provenance bundle is taken. Checked as a bundle by the server.
 */
export const ProvenanceUpload = z.record(z.string(), z.unknown());
export type ProvenanceUpload = z.infer<typeof ProvenanceUpload>;
