import { describe, expect, it } from 'vitest';
import { fixture, lineOf, packageLines } from './test-support/lockfile-fixtures.js';
import { parseLockfile } from './parse-lockfile.js';
import { SKIP_REASONS } from './skip-reasons.js';

describe('poetry.lock', () => {
  it('lock-version 1.0: category main is production; the file does not say what is direct', () => {
    const result = parseLockfile(fixture('poetry-1.0/poetry.lock'));
    expect(result).toMatchObject({ format: 'poetry-lock', format_version: '1.0', direct_count: 0, dev_count: 0, skipped: [] });
    expect(packageLines(result)).toEqual([
      'certifi@2020.6.20 direct=null dev=false',
      'chardet@3.0.4 direct=null dev=false',
      'docker@4.3.1 direct=null dev=false',
      'idna@2.10 direct=null dev=false',
      'pywin32@227 direct=null dev=false',
      'requests@2.24.0 direct=null dev=false',
      'six@1.15.0 direct=null dev=false',
      'urllib3@1.25.10 direct=null dev=false',
      'websocket-client@0.57.0 direct=null dev=false',
    ]);
    expect(result.packages.find((p) => p.name === 'websocket-client')?.purl).toBe('pkg:pypi/websocket-client@0.57.0');
  });

  it('lock-version 2.0: a directory source is skipped', () => {
    const file = fixture('poetry-2.0/poetry.lock');
    const result = parseLockfile(file);
    expect(result.format_version).toBe('2.0');
    expect(packageLines(result)).toEqual([
      'certifi@2022.12.7 direct=null dev=false',
      'chardet@4.0.0 direct=null dev=false',
      'idna@2.10 direct=null dev=false',
      'requests@2.25.1 direct=null dev=false',
      'urllib3@1.26.14 direct=null dev=false',
    ]);
    expect(result.skipped).toEqual([{ name: 'bazz', line: lineOf(file.content, '[[package]]'), reason: SKIP_REASONS.localPath }]);
  });

  it('lock-version 2.1: groups without main are development-only; git and url sources are skipped', () => {
    const content = [
      '[[package]]',
      'name = "Flask"',
      'version = "3.0.0"',
      'groups = ["main"]',
      '',
      '[[package]]',
      'name = "pytest"',
      'version = "8.0.0"',
      'groups = ["dev", "test"]',
      '',
      '[[package]]',
      'name = "tool"',
      'version = "1.0.0"',
      'groups = ["main"]',
      '',
      '[package.source]',
      'type = "git"',
      'url = "https://github.com/acme/tool.git"',
      'reference = "main"',
      'resolved_reference = "0123abc"',
      '',
      '[[package]]',
      'name = "wheel-from-url"',
      'version = "1.0.0"',
      'groups = ["main"]',
      '',
      '[package.source]',
      'type = "url"',
      'url = "https://example.com/wheel_from_url-1.0.0-py3-none-any.whl"',
      '',
      '[metadata]',
      'lock-version = "2.1"',
      'python-versions = "^3.12"',
      'content-hash = "x"',
      '',
    ].join('\n');
    const result = parseLockfile({ path: 'poetry.lock', content });
    expect(packageLines(result)).toEqual(['flask@3.0.0 direct=null dev=false', 'pytest@8.0.0 direct=null dev=true']);
    expect(result.skipped).toEqual([
      { name: 'tool', line: 11, reason: SKIP_REASONS.git },
      { name: 'wheel-from-url', line: 22, reason: SKIP_REASONS.url },
    ]);
  });
});

describe('Pipfile.lock', () => {
  it('default is production, develop is development; direct is not recorded', () => {
    const result = parseLockfile(fixture('pipfile/Pipfile.lock'));
    expect(result).toMatchObject({ format: 'pipfile-lock', format_version: '6', direct_count: 0, dev_count: 3, skipped: [] });
    expect(packageLines(result)).toEqual([
      'certifi@2023.5.7 direct=null dev=false',
      'charset-normalizer@3.1.0 direct=null dev=false',
      'idna@3.4 direct=null dev=false',
      'py@1.11.0 direct=null dev=true',
      'pytest@3.2.2 direct=null dev=true',
      'requests@2.31.0 direct=null dev=false',
      'setuptools@67.8.0 direct=null dev=true',
      'urllib3@2.0.2 direct=null dev=false',
    ]);
  });

  it('git, editable path and file entries are skipped; a package in both sections is production', () => {
    const lock = {
      _meta: { 'pipfile-spec': 6, hash: { sha256: 'x' }, requires: {}, sources: [] },
      default: {
        requests: { version: '==2.31.0' },
        mylib: { editable: true, path: '.' },
        tool: { git: 'https://github.com/acme/tool.git', ref: '0123abc' },
        wheel: { file: 'https://example.com/wheel-1.0-py3-none-any.whl' },
      },
      develop: { requests: { version: '==2.31.0' } },
    };
    const content = JSON.stringify(lock, null, 4);
    const result = parseLockfile({ path: 'Pipfile.lock', content });
    expect(packageLines(result)).toEqual(['requests@2.31.0 direct=null dev=false']);
    expect(result.skipped).toEqual([
      { name: 'mylib', line: lineOf(content, '"mylib"'), reason: SKIP_REASONS.editable },
      { name: 'tool', line: lineOf(content, '"tool"'), reason: SKIP_REASONS.git },
      { name: 'wheel', line: lineOf(content, '"wheel"'), reason: SKIP_REASONS.url },
    ]);
  });
});

describe('uv.lock', () => {
  it('a workspace: the members name the direct dependencies, extras included', () => {
    const file = fixture('uv-workspace/uv.lock');
    const result = parseLockfile(file);
    expect(result).toMatchObject({ format: 'uv-lock', format_version: '1', direct_count: 3, dev_count: 0 });
    expect(packageLines(result)).toEqual([
      'anyio@1.3.1 direct=true dev=false',
      'async-generator@1.10 direct=false dev=false',
      'idna@1.0 direct=true dev=false',
      'idna@2.0 direct=true dev=false',
      'sniffio@1.3.1 direct=false dev=false',
    ]);
    expect(result.skipped).toEqual([{ name: 'project', line: lineOf(file.content, 'name = "project"') - 1, reason: SKIP_REASONS.workspace }]);
  });

  it('a single virtual project: edges name a version where the name is ambiguous', () => {
    const result = parseLockfile(fixture('uv-virtual/uv.lock'));
    expect(packageLines(result)).toEqual([
      'anyio@1.3.1 direct=true dev=false',
      'anyio@4.8.0 direct=true dev=false',
      'async-generator@1.10 direct=false dev=false',
      'idna@1.0 direct=true dev=false',
      'idna@3.10 direct=false dev=false',
      'sniffio@1.3.1 direct=false dev=false',
      'typing-extensions@4.12.2 direct=false dev=false',
    ]);
    // The project at `.` is the repository itself: not listed.
    expect(result.skipped).toEqual([]);
  });

  it('dependency groups are development; a package both reach is production; git and path sources are skipped', () => {
    const content = [
      'version = 1',
      'requires-python = ">=3.12"',
      '',
      '[[package]]',
      'name = "app"',
      'version = "0.1.0"',
      'source = { editable = "." }',
      'dependencies = [',
      '    { name = "httpx", extra = ["http2"] },',
      '    { name = "local-lib" },',
      ']',
      '',
      '[package.dev-dependencies]',
      'dev = [',
      '    { name = "pytest" },',
      '    { name = "tool" },',
      ']',
      '',
      '[[package]]',
      'name = "h2"',
      'version = "4.1.0"',
      'source = { registry = "https://pypi.org/simple" }',
      '',
      '[[package]]',
      'name = "httpx"',
      'version = "0.27.0"',
      'source = { registry = "https://pypi.org/simple" }',
      'dependencies = [{ name = "idna" }]',
      '',
      '[package.optional-dependencies]',
      'http2 = [{ name = "h2" }]',
      '',
      '[[package]]',
      'name = "idna"',
      'version = "3.7"',
      'source = { registry = "https://pypi.org/simple" }',
      '',
      '[[package]]',
      'name = "local-lib"',
      'version = "0.2.0"',
      'source = { directory = "../local-lib" }',
      '',
      '[[package]]',
      'name = "pytest"',
      'version = "8.3.0"',
      'source = { registry = "https://pypi.org/simple" }',
      'dependencies = [{ name = "idna" }, { name = "pluggy" }]',
      '',
      '[[package]]',
      'name = "pluggy"',
      'version = "1.5.0"',
      'source = { registry = "https://pypi.org/simple" }',
      '',
      '[[package]]',
      'name = "tool"',
      'version = "1.0.0"',
      'source = { git = "https://github.com/acme/tool?rev=v1#0123abc" }',
      '',
    ].join('\n');
    const result = parseLockfile({ path: 'uv.lock', content });
    expect(packageLines(result)).toEqual([
      'h2@4.1.0 direct=false dev=false',
      'httpx@0.27.0 direct=true dev=false',
      'idna@3.7 direct=false dev=false',
      'pluggy@1.5.0 direct=false dev=true',
      'pytest@8.3.0 direct=true dev=true',
    ]);
    expect(result.skipped).toEqual([
      { name: 'local-lib', line: lineOf(content, 'name = "local-lib"') - 1, reason: SKIP_REASONS.localPath },
      { name: 'tool', line: lineOf(content, 'name = "tool"') - 1, reason: SKIP_REASONS.git },
    ]);
  });
});

describe('requirements.txt', () => {
  it("pip-compile output: `# via -r …` and `(pyproject.toml)` mark the direct requirements", () => {
    const file = fixture('requirements-pip-compile/requirements.txt');
    const result = parseLockfile(file);
    expect(result).toMatchObject({ format: 'requirements-txt', format_version: null, skipped: [], dev_count: 0 });
    expect(result.packages).toHaveLength(file.content.split('\n').filter((line) => line.includes('==')).length);
    expect(result.packages.every((p) => p.dev === null)).toBe(true);
    expect(result.packages.filter((p) => p.direct).map((p) => p.name).sort()).toEqual([
      'build',
      'click',
      'furo',
      'myst-parser',
      'pip',
      'pyproject-hooks',
      'setuptools',
      'setuptools-scm',
      'sphinx',
      'sphinx-issues',
      'sphinxcontrib-apidoc',
      'sphinxcontrib-programoutput',
      'sphinxcontrib-towncrier',
      'wheel',
    ]);
    expect(result.packages.find((p) => p.name === 'sphinx-basic-ng')).toMatchObject({ version: '1.0.0b2', direct: false, purl: 'pkg:pypi/sphinx-basic-ng@1.0.0b2' });
  });

  it('ranges are skipped as unpinned, names normalized', () => {
    const result = parseLockfile(fixture('requirements-unpinned/requirements.txt'));
    expect(result.packages).toEqual([]);
    expect(result.skipped).toEqual(
      ['furo', 'myst-parser', 'setuptools-scm', 'sphinx'].map((name, i) => ({ name, line: i + 1, reason: SKIP_REASONS.unpinned })),
    );
  });

  it("pip's syntax: continuations, hashes, markers, extras, options, includes, editables, URLs and VCS", () => {
    const content = [
      '# a hand-written file: every line is direct',
      '--index-url https://pypi.org/simple',
      '-r base.txt',
      '--constraint constraints.txt',
      'Django==4.2.7 \\',
      '    --hash=sha256:aaaa \\',
      '    --hash=sha256:bbbb',
      'requests[socks] == 2.31.0 ; python_version >= "3.8"  # pinned for the proxy',
      'zope.interface===6.0',
      'numpy==1.*',
      'flask>=2,<3',
      'attrs',
      '-e git+https://github.com/acme/tool.git@v1#egg=acme-tool',
      'git+https://github.com/acme/other.git@v2#egg=other',
      'https://example.com/pkg-1.0.tar.gz',
      './vendor/local_pkg-1.0-py3-none-any.whl',
      'pkg_b @ https://example.com/pkg_b-2.0-py3-none-any.whl',
      '',
    ].join('\n');
    const result = parseLockfile({ path: 'requirements/prod.txt', content });
    expect(packageLines(result)).toEqual(['django@4.2.7 direct=true dev=null', 'requests@2.31.0 direct=true dev=null', 'zope-interface@6.0 direct=true dev=null']);
    expect(result.skipped).toEqual([
      { name: null, line: 3, reason: SKIP_REASONS.include },
      { name: null, line: 4, reason: SKIP_REASONS.include },
      { name: 'numpy', line: 10, reason: SKIP_REASONS.unpinned },
      { name: 'flask', line: 11, reason: SKIP_REASONS.unpinned },
      { name: 'attrs', line: 12, reason: SKIP_REASONS.unpinned },
      { name: 'acme-tool', line: 13, reason: SKIP_REASONS.editable },
      { name: 'other', line: 14, reason: SKIP_REASONS.git },
      { name: null, line: 15, reason: SKIP_REASONS.url },
      { name: null, line: 16, reason: SKIP_REASONS.localPath },
      { name: 'pkg-b', line: 17, reason: SKIP_REASONS.url },
    ]);
  });
});
