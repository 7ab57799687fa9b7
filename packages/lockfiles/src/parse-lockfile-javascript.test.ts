import { describe, expect, it } from 'vitest';
import { fixture, lineOf, packageLines } from './test-support/lockfile-fixtures.js';
import { parseLockfile } from './parse-lockfile.js';
import { SKIP_REASONS } from './skip-reasons.js';

/** What the fixture project installs, read from any lockfile that records direct and dev. */
const WORKSPACE_PROJECT = [
  '@types/ms@0.7.34 direct=true dev=true',
  'is-number@6.0.0 direct=false dev=false',
  'is-number@7.0.0 direct=false dev=false',
  'is-odd@3.0.1 direct=true dev=false',
  'left-pad@1.3.0 direct=true dev=true',
  'ms@2.0.0 direct=true dev=false',
  'ms@2.1.2 direct=true dev=false',
  'ms@2.1.3 direct=true dev=false',
];

describe('package-lock.json and npm-shrinkwrap.json', () => {
  it('v1 (npm 6): the nested tree with dev flags; directness is not recorded', () => {
    const file = fixture('npm-v1/package-lock.json');
    const result = parseLockfile(file);
    expect(result).toMatchObject({ path: 'npm-v1/package-lock.json', format: 'package-lock', format_version: '1', direct_count: 0, dev_count: 1 });
    expect(packageLines(result)).toEqual([
      '@types/ms@0.7.34 direct=null dev=true',
      'is-number@6.0.0 direct=null dev=false',
      'is-number@7.0.0 direct=null dev=false',
      'is-odd@3.0.1 direct=null dev=false',
      'ms@2.0.0 direct=null dev=false',
      'ms@2.1.3 direct=null dev=false',
    ]);
    expect(result.skipped).toEqual([{ name: 'local-lib', line: lineOf(file.content, '"local-lib": {'), reason: SKIP_REASONS.localPath }]);
  });

  it.each(['npm-v2/package-lock.json', 'npm-v3/package-lock.json', 'npm-shrinkwrap/npm-shrinkwrap.json'])(
    '%s: direct from the root and workspace manifests, the alias and registry tarball as their real packages',
    (path) => {
      const file = fixture(path);
      const result = parseLockfile(file);
      expect(result.format).toBe(path.endsWith('npm-shrinkwrap.json') ? 'npm-shrinkwrap' : 'package-lock');
      expect(result.format_version).toBe(path.startsWith('npm-v2') ? '2' : '3');
      expect(packageLines(result)).toEqual(WORKSPACE_PROJECT);
      expect(result).toMatchObject({ direct_count: 6, dev_count: 2 });
      expect(result.packages.find((p) => p.version === '0.7.34')?.purl).toBe('pkg:npm/%40types/ms@0.7.34');
      expect(result.skipped).toEqual([
        { name: 'local-lib', line: lineOf(file.content, '    "local-lib": {'), reason: SKIP_REASONS.localPath },
        { name: '@fixture/util', line: lineOf(file.content, '    "packages/util": {'), reason: SKIP_REASONS.workspace },
      ]);
    },
  );

  it('a v3 lockfile whose packages lack the root entry is read, not a crash', () => {
    // Seen in a real repository's lockfile: no "" key in packages, so no root manifest to read.
    const content = JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { 'node_modules/a': { version: '1.0.0', resolved: 'https://registry.npmjs.org/a/-/a-1.0.0.tgz' } } }, null, 2);
    const result = parseLockfile({ path: 'package-lock.json', content });
    expect(result.packages.map((p) => `${p.name}@${p.version} direct=${p.direct}`)).toEqual(['a@1.0.0 direct=false']);
  });

  it('a dependency declared by a URL other than the registry tarball is skipped; git and bundled entries too', () => {
    const lock = {
      name: 'app',
      lockfileVersion: 3,
      packages: {
        '': { dependencies: { 'from-url': 'https://example.com/from-url-1.0.0.tgz', 'from-git': 'github:acme/from-git#v1', parent: '^1.0.0' } },
        'node_modules/from-url': { version: '1.0.0', resolved: 'https://example.com/from-url-1.0.0.tgz' },
        'node_modules/from-git': { version: '2.0.0', resolved: 'git+ssh://git@github.com/acme/from-git.git#0123456789abcdef0123456789abcdef01234567' },
        'node_modules/parent': { version: '1.0.0', resolved: 'https://registry.npmjs.org/parent/-/parent-1.0.0.tgz', bundleDependencies: ['inner'] },
        'node_modules/parent/node_modules/inner': { version: '3.0.0', inBundle: true },
      },
    };
    const result = parseLockfile({ path: 'package-lock.json', content: JSON.stringify(lock, null, 2) });
    expect(packageLines(result)).toEqual(['parent@1.0.0 direct=true dev=false']);
    expect(result.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['from-url', SKIP_REASONS.url],
      ['from-git', SKIP_REASONS.git],
      ['inner', SKIP_REASONS.bundled],
    ]);
  });
});

describe('pnpm-lock.yaml', () => {
  it.each([
    ['pnpm-v6/pnpm-lock.yaml', '6.0'],
    ['pnpm-v9/pnpm-lock.yaml', '9.0'],
  ])('%s: every importer, dev-ness from the graph, the workspace member and file: dependency skipped', (path, version) => {
    const file = fixture(path);
    const result = parseLockfile(file);
    expect(result).toMatchObject({ format: 'pnpm-lock', format_version: version, direct_count: 6, dev_count: 2 });
    expect(packageLines(result)).toEqual(WORKSPACE_PROJECT);
    expect(result.skipped).toEqual([
      { name: 'packages/util', line: lineOf(file.content, '  packages/util:'), reason: SKIP_REASONS.workspace },
      { name: 'local-lib', line: lineOf(file.content, version === '6.0' ? '  file:local-lib:' : '  local-lib@file:local-lib:'), reason: SKIP_REASONS.localPath },
    ]);
  });

  it('a package reached from a production and a development importer is production; peer variants are one package', () => {
    const content = [
      "lockfileVersion: '9.0'",
      'importers:',
      '  .:',
      '    devDependencies:',
      '      react-dom: {specifier: ^18.0.0, version: 18.2.0(react@18.2.0)}',
      '  packages/web:',
      '    dependencies:',
      '      react: {specifier: ^18.0.0, version: 18.2.0}',
      'packages:',
      '  react@18.2.0: {resolution: {integrity: sha512-a}}',
      '  react-dom@18.2.0: {resolution: {integrity: sha512-b}}',
      '  tool@https://codeload.github.com/acme/tool/tar.gz/0123abc:',
      '    resolution: {tarball: https://codeload.github.com/acme/tool/tar.gz/0123abc}',
      'snapshots:',
      '  react@18.2.0: {}',
      '  react-dom@18.2.0(react@18.2.0):',
      '    dependencies:',
      '      react: 18.2.0',
      '      tool: https://codeload.github.com/acme/tool/tar.gz/0123abc',
      '  tool@https://codeload.github.com/acme/tool/tar.gz/0123abc: {}',
      '',
    ].join('\n');
    const result = parseLockfile({ path: 'pnpm-lock.yaml', content });
    expect(packageLines(result)).toEqual(['react-dom@18.2.0 direct=true dev=true', 'react@18.2.0 direct=true dev=false']);
    expect(result.skipped).toEqual([
      { name: 'packages/web', line: 6, reason: SKIP_REASONS.workspace },
      { name: 'tool', line: 12, reason: SKIP_REASONS.git },
    ]);
  });

  it('a single-project 6.x lockfile keeps its importer at the top level', () => {
    const content = [
      "lockfileVersion: '6.0'",
      'dependencies:',
      '  is-odd:',
      '    specifier: ^3.0.1',
      '    version: 3.0.1',
      'packages:',
      '  /is-number@6.0.0:',
      '    resolution: {integrity: sha512-a}',
      '    dev: false',
      '  /is-odd@3.0.1:',
      '    resolution: {integrity: sha512-b}',
      '    dependencies:',
      '      is-number: 6.0.0',
      '    dev: false',
      '',
    ].join('\n');
    const result = parseLockfile({ path: 'pnpm-lock.yaml', content });
    expect(packageLines(result)).toEqual(['is-number@6.0.0 direct=false dev=false', 'is-odd@3.0.1 direct=true dev=false']);
    expect(result.skipped).toEqual([]);
  });

  it("reads this repository's own pnpm-lock.yaml: every importer's direct dependencies are there", async () => {
    const { readFileSync } = await import('node:fs');
    const { parse } = await import('yaml');
    const content = readFileSync(new URL('../../../pnpm-lock.yaml', import.meta.url), 'utf8');
    const result = parseLockfile({ path: 'pnpm-lock.yaml', content });
    const lock = parse(content) as { importers: Record<string, Record<string, Record<string, { version: string }>>> };
    const purls = new Set(result.packages.map((p) => p.purl));
    let named = 0;
    for (const [importer, fields] of Object.entries(lock.importers)) {
      for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
        for (const [name, { version }] of Object.entries(fields[field] ?? {})) {
          if (version.startsWith('link:')) continue;
          named++;
          const purl = `pkg:npm/${name.replace('@', '%40')}@${version.replace(/\(.*$/, '')}`;
          expect(purls.has(purl), `${importer}: ${name}`).toBe(true);
          expect(result.packages.find((p) => p.purl === purl)?.direct).toBe(true);
        }
      }
    }
    expect(named).toBeGreaterThan(40);
    expect(result.packages.length).toBe(Object.keys((parse(content) as { packages: object }).packages).length);
    expect(result.skipped.map((s) => s.name).sort()).toEqual(Object.keys(lock.importers).filter((i) => i !== '.').sort());
    // Build and test tools (vitest, typescript) are development-only; the server's runtime is not.
    expect(result.packages.find((p) => p.name === 'vitest')?.dev).toBe(true);
    expect(result.packages.find((p) => p.name === 'fastify')?.dev).toBe(false);
  });
});

describe('yarn.lock', () => {
  it('Yarn 1: every resolved package; the file records neither direct nor dev', () => {
    const file = fixture('yarn-classic/yarn.lock');
    const result = parseLockfile(file);
    expect(result).toMatchObject({ format: 'yarn-classic', format_version: '1', direct_count: 0, dev_count: 0 });
    expect(packageLines(result)).toEqual(WORKSPACE_PROJECT.map((line) => line.replace(/direct=\w+ dev=\w+/, 'direct=null dev=null')));
    expect(result.skipped).toEqual([{ name: 'local-lib', line: lineOf(file.content, '"local-lib@file:./local-lib":'), reason: SKIP_REASONS.localPath }]);
  });

  it('Yarn 1: a range resolved from a git host is a git dependency', () => {
    const content = [
      '# yarn lockfile v1',
      '',
      '',
      '"tool@github:acme/tool#v1":',
      '  version "1.0.0"',
      '  resolved "https://codeload.github.com/acme/tool/tar.gz/0123abc"',
      '',
      'plain@^1.0.0:',
      '  version "1.2.0"',
      '  resolved "https://registry.yarnpkg.com/plain/-/plain-1.2.0.tgz#abc"',
      '',
    ].join('\n');
    const result = parseLockfile({ path: 'yarn.lock', content });
    expect(packageLines(result)).toEqual(['plain@1.2.0 direct=null dev=null']);
    expect(result.skipped).toEqual([{ name: 'tool', line: 4, reason: SKIP_REASONS.git }]);
  });

  it('Yarn Berry: direct from the workspace entries; dev is not recorded', () => {
    const file = fixture('yarn-berry/yarn.lock');
    const result = parseLockfile(file);
    expect(result).toMatchObject({ format: 'yarn-berry', format_version: '10', direct_count: 6, dev_count: 0 });
    expect(packageLines(result)).toEqual(WORKSPACE_PROJECT.map((line) => line.replace(/dev=\w+/, 'dev=null')));
    expect(result.skipped).toEqual([
      { name: '@fixture/util', line: lineOf(file.content, '"@fixture/util@workspace:*'), reason: SKIP_REASONS.workspace },
      { name: 'local-lib', line: lineOf(file.content, '"local-lib@file:'), reason: SKIP_REASONS.localPath },
    ]);
  });

  it('Yarn Berry: patch: and git entries are skipped with their reasons', () => {
    const content = [
      '__metadata:',
      '  version: 8',
      '  cacheKey: 10c0',
      '',
      '"resolve@npm:^1.22.0":',
      '  version: 1.22.8',
      '  resolution: "resolve@npm:1.22.8"',
      '  languageName: node',
      '  linkType: hard',
      '',
      '"resolve@patch:resolve@npm%3A^1.22.0#optional!builtin<compat/resolve>":',
      '  version: 1.22.8',
      '  resolution: "resolve@patch:resolve@npm%3A1.22.8#optional!builtin<compat/resolve>::version=1.22.8&hash=c3c19d"',
      '  languageName: node',
      '  linkType: hard',
      '',
      '"tool@https://github.com/acme/tool.git#commit=0123abc":',
      '  version: 1.0.0',
      '  resolution: "tool@https://github.com/acme/tool.git#commit=0123abc"',
      '  languageName: node',
      '  linkType: hard',
      '',
    ].join('\n');
    const result = parseLockfile({ path: 'yarn.lock', content });
    expect(result.format).toBe('yarn-berry');
    expect(packageLines(result)).toEqual(['resolve@1.22.8 direct=false dev=null']);
    expect(result.skipped).toEqual([
      { name: 'resolve', line: 11, reason: SKIP_REASONS.patch },
      { name: 'tool', line: 17, reason: SKIP_REASONS.git },
    ]);
  });
});

describe('bun.lock', () => {
  it('workspaces give direct and dev; nested install paths resolve like node_modules', () => {
    const file = fixture('bun/bun.lock');
    const result = parseLockfile(file);
    expect(result).toMatchObject({ format: 'bun-lock', format_version: '1', direct_count: 6, dev_count: 2 });
    expect(packageLines(result)).toEqual(WORKSPACE_PROJECT);
    expect(result.skipped).toEqual([
      { name: '@fixture/util', line: lineOf(file.content, '"@fixture/util": ["@fixture/util@workspace'), reason: SKIP_REASONS.workspace },
      { name: 'local-lib', line: lineOf(file.content, '"local-lib": ["local-lib@file'), reason: SKIP_REASONS.localPath },
    ]);
  });
});
