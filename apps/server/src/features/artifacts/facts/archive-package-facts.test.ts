import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tarGz } from '../archive/tar-gz.js';
import { zipOf } from '../../../test-support/stored-zip.js';
import { readArchive } from '../archive/archive-listing.js';
import { isPackageFactFile, packageFactsOf } from './archive-package-facts.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function factsOf(bytes: Uint8Array, ecosystem: string | null = null) {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-facts-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'artifact'), bytes);
  return packageFactsOf(await readArchive(join(dir, 'artifact'), { capture: isPackageFactFile }), ecosystem);
}

const npmTarball = (manifest: unknown, extra: Record<string, string> = {}) =>
  tarGz([
    { path: 'package/package.json', content: typeof manifest === 'string' ? manifest : JSON.stringify(manifest) },
    ...Object.entries(extra).map(([path, content]) => ({ path: `package/${path}`, content })),
  ]);

describe('npm package facts', () => {
  it('reads the license as declared: an SPDX expression, a legacy {type} object, a legacy licenses array', async () => {
    expect(await factsOf(npmTarball({ license: '(MIT OR Apache-2.0)' }))).toEqual({ kind: 'npm', license: '(MIT OR Apache-2.0)', license_source: 'package.json license', install_scripts: [] });
    expect((await factsOf(npmTarball({ license: { type: 'BSD-3-Clause', url: 'https://…' } })))?.license).toBe('BSD-3-Clause');
    expect(await factsOf(npmTarball({ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0' }] }))).toMatchObject({ license: '(MIT OR GPL-2.0)', license_source: 'package.json licenses' });
    expect((await factsOf(npmTarball({ licenses: [{ type: 'MIT' }] })))?.license).toBe('MIT');
    // Not SPDX: kept as written, for a policy to treat as unknown.
    expect((await factsOf(npmTarball({ license: 'SEE LICENSE IN LICENSE.md' })))?.license).toBe('SEE LICENSE IN LICENSE.md');
    expect(await factsOf(npmTarball({ name: 'x' }))).toMatchObject({ license: null, license_source: null });
  });

  it('lists the lifecycle scripts npm runs on install, not prepare or others', async () => {
    const scripts = { prepare: 'tsc', test: 'vitest', postinstall: 'node p.js', preinstall: 'node pre.js', prepublishOnly: 'x' };
    expect((await factsOf(npmTarball({ scripts })))?.install_scripts).toEqual(['preinstall', 'postinstall']);
    expect((await factsOf(npmTarball({ scripts: { install: '' } })))?.install_scripts).toEqual([]);
  });

  it('a binding.gyp at the package root implies the install script npm adds (node-gyp rebuild), unless gypfile is false or an install script exists', async () => {
    expect((await factsOf(npmTarball({ scripts: { postinstall: 'x' } }, { 'binding.gyp': '{}' })))?.install_scripts).toEqual(['install', 'postinstall']);
    expect((await factsOf(npmTarball({ gypfile: false }, { 'binding.gyp': '{}' })))?.install_scripts).toEqual([]);
    expect((await factsOf(npmTarball({ scripts: { preinstall: 'x' } }, { 'binding.gyp': '{}' })))?.install_scripts).toEqual(['preinstall']);
    // Not at the root: npm does not look there.
    expect((await factsOf(npmTarball({}, { 'deps/binding.gyp': '{}' })))?.install_scripts).toEqual([]);
  });

  it('a package.json that is not JSON declares nothing; an archive without one is not an npm package', async () => {
    expect(await factsOf(npmTarball('{ not json'))).toEqual({ kind: 'npm', license: null, license_source: null, install_scripts: [] });
    expect(await factsOf(tarGz([{ path: 'skill/SKILL.md', content: '# hi' }]))).toBeUndefined();
    expect(await factsOf(new TextEncoder().encode('plain text'))).toBeUndefined();
  });
});

const metadata = (headers: string) => `Metadata-Version: 2.4\nName: demo\nVersion: 1.0\n${headers}\n\nLong description. License: GPL (not a header)\n`;

describe('PyPI package facts', () => {
  const wheel = (headers: string) => zipOf([{ name: 'demo/__init__.py', content: '' }, { name: 'demo-1.0.dist-info/METADATA', content: metadata(headers) }]);

  it('a wheel: License-Expression (PEP 639) first, no install scripts', async () => {
    expect(await factsOf(wheel('License-Expression: MIT OR Apache-2.0\nLicense: BSD\nClassifier: License :: OSI Approved :: MIT License'))).toEqual({
      kind: 'pypi-wheel',
      license: 'MIT OR Apache-2.0',
      license_source: 'License-Expression',
      install_scripts: [],
    });
  });

  it('then License (UNKNOWN counts as none), then a license classifier that names one SPDX license', async () => {
    expect(await factsOf(wheel('License: BSD 3-Clause'))).toMatchObject({ license: 'BSD 3-Clause', license_source: 'License' });
    expect(await factsOf(wheel('License: UNKNOWN\nClassifier: License :: OSI Approved :: MIT License\nClassifier: License :: OSI Approved'))).toMatchObject({ license: 'MIT', license_source: 'classifier' });
    // Ambiguous classifiers: no license stated.
    expect(await factsOf(wheel('Classifier: License :: OSI Approved :: BSD License'))).toMatchObject({ license: null, license_source: null });
    expect(await factsOf(wheel('Classifier: License :: OSI Approved :: MIT License\nClassifier: License :: OSI Approved :: Apache Software License'))).toMatchObject({ license: null });
  });

  it('an sdist: PKG-INFO, and setup.py (or a pyproject build backend) runs when it is installed', async () => {
    const sdist = (files: Record<string, string>) => tarGz(Object.entries(files).map(([path, content]) => ({ path: `demo-1.0/${path}`, content })));
    expect(await factsOf(sdist({ 'PKG-INFO': metadata('License: MIT'), 'setup.py': 'setup()' }))).toEqual({ kind: 'pypi-sdist', license: 'MIT', license_source: 'License', install_scripts: ['setup.py'] });
    expect((await factsOf(sdist({ 'PKG-INFO': metadata(''), 'pyproject.toml': '' })))?.install_scripts).toEqual(['build-backend']);
    // A tarball with both files is read as what it was uploaded as.
    const both = sdist({ 'PKG-INFO': metadata('License: MIT'), 'package.json': '{"license": "ISC"}' });
    expect((await factsOf(both, 'npm'))?.kind).toBe('npm');
    expect((await factsOf(both, 'pypi'))?.kind).toBe('pypi-sdist');
  });
});
