import { parsePackageRef } from '@vigil/core';
import type { Kysely } from 'kysely';
import { isAffected, type StoredAffected } from './affected-versions.js';
import { packageKey } from './package-names.js';
import { inTextList } from '../../../platform/db/dialect.js';
import type { Database } from '../../../platform/db/schema.js';
import type { KnownVulnerability, PackageCoordinates, VulnerabilitySeverity } from '../input-sources.js';

/**
 * The package's full name as advisories name it. An npm scope is part of the name (`@cypress/request`);
 * coordinates built from a parsed package reference may carry the scope only in the purl (core's
 * PackageRef splits it into `namespace`), so a scoped purl completes a bare npm name.
 */
function advisoryName(pkg: PackageCoordinates): string {
  if (pkg.ecosystem !== 'npm' || pkg.name.includes('/')) return pkg.name;
  try {
    const ref = parsePackageRef(pkg.purl);
    return ref.namespace === null ? pkg.name : `${ref.namespace}/${ref.name}`;
  } catch {
    return pkg.name;
  }
}

const SEVERITY_ORDER: Readonly<Record<VulnerabilitySeverity, number>> = { critical: 4, high: 3, moderate: 2, low: 1, unknown: 0 };

/**
 * The imported advisories that affect each package (docs/advisories.md, "Matching"), keyed by purl:
 * one indexed query for all of them, whatever their number, then each version checked against the
 * candidates in its ecosystem's order. A package with none is absent from the map. Each list is
 * ordered most severe first, then by id.
 */
export async function knownVulnerabilities(db: Kysely<Database>, packages: readonly PackageCoordinates[]): Promise<Map<string, KnownVulnerability[]>> {
  const result = new Map<string, KnownVulnerability[]>();
  if (packages.length === 0) return result;
  const keys = [...new Set(packages.map((p) => packageKey(p.ecosystem, advisoryName(p))))];
  const rows = await db
    .selectFrom('advisory_packages as p')
    .innerJoin('advisories as a', 'a.id', 'p.advisory_id')
    .select(['p.package_key', 'p.advisory_id', 'p.affected', 'p.severity', 'p.fixed_in', 'a.aliases', 'a.summary'])
    .where(inTextList(db, 'p.package_key', keys))
    .where('a.withdrawn', 'is', null)
    .orderBy('p.advisory_id')
    .orderBy('p.position')
    .execute();
  const byKey = new Map<string, typeof rows>();
  for (const row of rows) byKey.set(row.package_key, [...(byKey.get(row.package_key) ?? []), row]);
  for (const pkg of packages) {
    if (result.has(pkg.purl)) continue;
    const found = new Map<string, KnownVulnerability>();
    for (const row of byKey.get(packageKey(pkg.ecosystem, advisoryName(pkg))) ?? []) {
      if (!isAffected(pkg.ecosystem, JSON.parse(row.affected) as StoredAffected, pkg.version)) continue;
      const known = found.get(row.advisory_id);
      if (known !== undefined) {
        // Two entries of one advisory for the package (one per branch): the more severe rating stands.
        if (SEVERITY_ORDER[row.severity] > SEVERITY_ORDER[known.severity]) known.severity = row.severity;
        continue;
      }
      found.set(row.advisory_id, {
        id: row.advisory_id,
        aliases: JSON.parse(row.aliases) as string[],
        summary: row.summary,
        severity: row.severity,
        fixed_in: JSON.parse(row.fixed_in) as string[],
      });
    }
    if (found.size === 0) continue;
    result.set(
      pkg.purl,
      [...found.values()].sort((a, b) => SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    );
  }
  return result;
}
