/** A PyPI project name as PEP 508 allows it. */
const PYPI_NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;

export function isPypiName(name: string): boolean {
  return name.length <= 200 && PYPI_NAME.test(name);
}

/** PEP 503 normalisation: lowercase, runs of `-`, `_`, `.` become one `-`. */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** A release file's kind and version, read from its name (PEP 427 wheels, PEP 625 sdists). */
export function parsePypiFilename(filename: string, project: string): { kind: 'wheel' | 'sdist'; version: string; tags: string | null } | null {
  const normalised = normalizePypiName(project);
  if (filename.endsWith('.whl')) {
    const parts = filename.slice(0, -4).split('-');
    if (parts.length !== 5 && parts.length !== 6) return null;
    if (normalizePypiName(parts[0]!) !== normalised) return null;
    return { kind: 'wheel', version: parts[1]!, tags: parts.slice(-3).join('-') };
  }
  const ext = ['.tar.gz', '.zip', '.tar.bz2', '.tgz'].find((suffix) => filename.endsWith(suffix));
  if (ext === undefined) return null;
  const stem = filename.slice(0, -ext.length);
  // The name may itself hold dashes (legacy sdists): the version is what follows the normalised name.
  for (let at = stem.indexOf('-'); at > 0; at = stem.indexOf('-', at + 1)) {
    if (normalizePypiName(stem.slice(0, at)) === normalised) return { kind: 'sdist', version: stem.slice(at + 1), tags: null };
  }
  return null;
}
