/**
 * What a policy rule reads beyond Vigil's own verdict tables: known vulnerabilities from the
 * imported advisory feed, and facts read out of an artifact (its declared license, lifecycle
 * scripts, registry provenance). Evaluation takes these through one seam so that the policy
 * service does not know how advisories are stored or how archives are read, and so that a
 * lockfile of 2,000 dependencies is answered with one call per kind, never one per package.
 */

/** A package as a lockfile or a package reference names it. `purl` is canonical, without qualifiers. */
export interface PackageCoordinates {
  ecosystem: 'npm' | 'pypi';
  /** The full package name: npm with its scope (`@cypress/request`; a bare name with a scoped purl is completed from the purl), PyPI in any spelling (names are compared PEP 503-normalized). */
  name: string;
  version: string;
  purl: string;
}

// The advisories table stores it, so its definition sits with the table's row type.
import type { VulnerabilitySeverity } from '../../platform/db/schema.js';

export type { VulnerabilitySeverity };

export interface KnownVulnerability {
  /** The advisory's OSV id (GHSA-…, PYSEC-…, …). */
  id: string;
  /** CVE and other ids the advisory lists as aliases. */
  aliases: string[];
  summary: string;
  severity: VulnerabilitySeverity;
  /** Versions the advisory names as fixing it, in the ecosystem's own order; empty when none. */
  fixed_in: string[];
}

// What an archive declares is the artifacts feature's to read; rules see it as it reports it.
import type { PackageFacts, RegistryProvenance } from '../artifacts/index.js';

export type { PackageFacts, RegistryProvenance };

export interface PolicyInputSources {
  /** Known vulnerabilities per package, keyed by `purl`; a package with none may be absent from the map. */
  vulnerabilities(packages: readonly PackageCoordinates[]): Promise<Map<string, KnownVulnerability[]>>;
  /** Facts per artifact row id; an artifact whose facts cannot be read is absent from the map. */
  facts(artifactIds: readonly number[]): Promise<Map<number, PackageFacts>>;
}
