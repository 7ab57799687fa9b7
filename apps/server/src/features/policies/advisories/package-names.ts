/** The two ecosystems whose advisories Vigil imports, as OSV names them and as purl types name them. */
export const OSV_ECOSYSTEMS = { npm: 'npm', PyPI: 'pypi' } as const;
export type AdvisoryEcosystem = (typeof OSV_ECOSYSTEMS)[keyof typeof OSV_ECOSYSTEMS];

/** The purl type of an OSV ecosystem string, or undefined for an ecosystem Vigil does not match. */
export function ecosystemOfOsv(osvEcosystem: string): AdvisoryEcosystem | undefined {
  return Object.hasOwn(OSV_ECOSYSTEMS, osvEcosystem) ? OSV_ECOSYSTEMS[osvEcosystem as keyof typeof OSV_ECOSYSTEMS] : undefined;
}

/**
 * A package name as advisories are looked up by: PyPI names normalized as PEP 503 says (lowercase,
 * every run of `-`, `_` and `.` one `-`), so `Django`, `django` and `DJANGO` are one package; npm
 * names as they are (npm names are case-sensitive in old packages, and a scope is part of the name:
 * `@cypress/request`).
 */
export function normalizePackageName(ecosystem: AdvisoryEcosystem, name: string): string {
  return ecosystem === 'pypi' ? name.toLowerCase().replace(/[-_.]+/g, '-') : name;
}

/** The indexed lookup key of a package: `npm:@cypress/request`, `pypi:django`. */
export function packageKey(ecosystem: AdvisoryEcosystem, name: string): string {
  return `${ecosystem}:${normalizePackageName(ecosystem, name)}`;
}
