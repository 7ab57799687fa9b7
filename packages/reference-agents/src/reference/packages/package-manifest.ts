import type { ArtifactFile } from '../common/artifact-files.js';
import type { Ecosystem } from '../known/typosquat.js';

export interface PackageLayout {
  ecosystem: Ecosystem;
  /** Where the package's root is in the artifact (`''`, or one directory down for `package/`). */
  prefix: string;
  kind: 'npm' | 'sdist' | 'wheel' | 'unknown';
}

const PYTHON_MARKERS = ['setup.py', 'pyproject.toml', 'setup.cfg', 'PKG-INFO'];

/** Which kind of package an artifact is, from the files at its root (or one directory down). */
export function packageLayout(files: readonly ArtifactFile[]): PackageLayout {
  const paths = new Set(files.map((f) => f.path));
  const tops = [''];
  const firstDirs = new Set(files.map((f) => f.path.split('/')).filter((p) => p.length > 1).map((p) => `${p[0]}/`));
  if (firstDirs.size === 1) tops.push([...firstDirs][0]!);
  for (const prefix of tops) {
    if (paths.has(`${prefix}package.json`)) return { ecosystem: 'npm', prefix, kind: 'npm' };
    if (files.some((f) => f.path.startsWith(prefix) && /^[^/]+\.dist-info\/(METADATA|RECORD|WHEEL)$/.test(f.path.slice(prefix.length)))) return { ecosystem: 'pypi', prefix, kind: 'wheel' };
    if (PYTHON_MARKERS.some((m) => paths.has(`${prefix}${m}`))) return { ecosystem: 'pypi', prefix, kind: 'sdist' };
  }
  return { ecosystem: 'npm', prefix: '', kind: 'unknown' };
}

/** The `Name:` of Python core metadata (PKG-INFO, METADATA). */
export function metadataName(text: string): string | null {
  const m = /^Name:\s*(\S+)/m.exec(text);
  return m?.[1] ?? null;
}
