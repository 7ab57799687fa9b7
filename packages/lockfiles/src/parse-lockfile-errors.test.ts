import { MAX_LOCKFILE_BYTES, MAX_LOCKFILE_ENTRIES } from '@vigil/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedLockfile } from './test-support/generated-lockfiles.js';
import { LockfileError } from './lockfile-error.js';
import { fixture, lineOf } from './test-support/lockfile-fixtures.js';
import { parseLockfile } from './parse-lockfile.js';

/** A fixture with one piece of text replaced: the variant a test breaks on purpose. */
function variant(path: string, from: string, to: string): { path: string; content: string } {
  const file = fixture(path);
  expect(file.content.includes(from), `${path} contains ${from}`).toBe(true);
  return { path, content: file.content.replace(from, to) };
}

function refusal(file: { path: string; content: string }): { code: string; status: number; detail: string } {
  try {
    parseLockfile(file);
  } catch (error) {
    if (error instanceof LockfileError) return { code: error.code, status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error(`${file.path} was read`);
}

describe('a malformed lockfile is a 422 naming the file and the line', () => {
  /** `<path>: line <n>: <message>` where n is the line starting with `needle`, plus `offset` when the parser notices the break a line later. */
  const at = (file: { path: string; content: string }, needle: string, offset: number, message: string) =>
    `${file.path}: line ${lineOf(file.content, needle) + offset}: ${message}`;

  const npmV1 = variant('npm-v1/package-lock.json', '"version": "3.0.1",', '"version": "3.0.1"');
  const npmV3 = variant('npm-v3/package-lock.json', '"version": "3.0.1",', '"version": ,');
  const shrinkwrap = variant('npm-shrinkwrap/npm-shrinkwrap.json', '"version": "3.0.1",', '"version": 3,');
  const pnpm6 = variant('pnpm-v6/pnpm-lock.yaml', '  /is-odd@3.0.1:\n', '  /is-odd@3.0.1:\n    resolution: [\n');
  const pnpm9 = variant('pnpm-v9/pnpm-lock.yaml', '      is-number: 6.0.0', '      is-number: 6.0.9');
  const yarn1 = variant('yarn-classic/yarn.lock', 'version "3.0.1"', 'version "3.0.1');
  const berry = variant('yarn-berry/yarn.lock', 'resolution: "is-odd@npm:3.0.1"', 'resolutions: "is-odd@npm:3.0.1"');
  const bun = variant('bun/bun.lock', '"sha512-CQpnWPrDwmP1+SMHXZhtLtJv90yiyVfluGsX5iNCVkrhQtU3TQHsUWPG9wkdk9Lgd5yNpAg9jQEo90CBaXgWMA=="],', '"x"]');
  const requirements = variant('requirements-pip-compile/requirements.txt', 'idna==3.11', 'idna==3.11 !!');
  const poetry = variant('poetry-2.0/poetry.lock', 'version = "2.10"', 'version = ');
  const pipfile = variant('pipfile/Pipfile.lock', '"version": "==3.4"', '"version": "==3.4",');
  const uv = variant('uv-virtual/uv.lock', '{ name = "typing-extensions", marker', '{ name = "typing-extension", marker');

  it.each([
    ['package-lock v1', npmV1, at(npmV1, '"version": "3.0.1"', 1, 'invalid JSON: comma expected')],
    ['package-lock v3', npmV3, at(npmV3, '"version": ,', 0, 'invalid JSON: value expected')],
    ['npm-shrinkwrap', shrinkwrap, at(shrinkwrap, '"node_modules/is-odd": {', 0, 'node_modules/is-odd: version must be a non-empty string')],
    ['pnpm 6', pnpm6, at(pnpm6, 'resolution: [', 2, 'invalid YAML: missed comma between flow collection entries')],
    ['pnpm 9', pnpm9, at(pnpm9, 'is-number: 6.0.9', 0, 'is-number: is-number@6.0.9 is not in snapshots')],
    ['Yarn 1', yarn1, at(yarn1, 'version "3.0.1', 0, 'invalid yarn.lock: Expected ",", "--", ":", "null", [a-zA-Z/0-9], or string but "\\"" found.')],
    ['Yarn Berry', berry, at(berry, '"is-odd@npm:^3.0.1":', 0, 'is-odd@npm:^3.0.1: resolution must be a string')],
    ['bun', bun, at(bun, '"is-odd": ["is-odd@3.0.1"', 2, 'invalid JSONC: comma expected')],
    ['requirements.txt', requirements, at(requirements, 'idna==3.11 !!', 0, '"idna==3.11 !!" is not a requirement')],
    ['poetry.lock', poetry, `${poetry.path}: line ${poetry.content.split('\n').indexOf('version = ') + 1}: invalid TOML: invalid value`],
    ['Pipfile.lock', pipfile, at(pipfile, '"version": "==3.4",', 1, 'invalid JSON: property name expected')],
    ['uv.lock', uv, `${uv.path}: line ${uv.content.split('\n').indexOf('version = "4.8.0"') - 1}: anyio: dependency typing-extension is not a package of the lock`],
  ])('%s', (_, file, detail) => {
    expect(refusal(file)).toEqual({ code: 'lockfile_malformed', status: 422, detail });
  });

  it('a YAML key given twice is malformed at its second occurrence', () => {
    const content = "lockfileVersion: '9.0'\npackages:\n  a@1.0.0: {resolution: {integrity: sha512-x}}\n  a@1.0.0: {resolution: {integrity: sha512-y}}\n";
    expect(refusal({ path: 'pnpm-lock.yaml', content }).detail).toBe('pnpm-lock.yaml: line 4: invalid YAML: duplicate key "a@1.0.0"');
  });

  it('an anchor (which pnpm and Yarn never write) is malformed at its line, so an alias bomb never expands', () => {
    const bomb = ["lockfileVersion: '9.0'", 'a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]', ''].join('\n');
    expect(refusal({ path: 'pnpm-lock.yaml', content: bomb }).detail).toBe('pnpm-lock.yaml: line 2: invalid YAML: anchors and aliases are not used in lockfiles');
  });

  it('nesting deeper than a parser can follow is malformed, not a crash', () => {
    expect(refusal({ path: 'package-lock.json', content: '['.repeat(200_000) }).code).toBe('lockfile_malformed');
    expect(refusal({ path: 'pnpm-lock.yaml', content: '- '.repeat(200_000) }).code).toBe('lockfile_malformed');
  });
});

describe('versions that are not read are refused, never read as empty', () => {
  it.each([
    [variant('npm-v3/package-lock.json', '"lockfileVersion": 3', '"lockfileVersion": 0'), 'npm-v3/package-lock.json: line 4: lockfile version 0 is not read (Vigil reads 1, 2 and 3)'],
    [{ path: 'package-lock.json', content: '{"name": "x", "dependencies": {}}' }, 'package-lock.json: line 1: lockfile version (none) is not read (Vigil reads 1, 2 and 3)'],
    [variant('pnpm-v9/pnpm-lock.yaml', "lockfileVersion: '9.0'", "lockfileVersion: '5.4'"), 'pnpm-v9/pnpm-lock.yaml: line 1: lockfile version 5.4 is not read (Vigil reads 6.x and 9.x)'],
    [variant('yarn-berry/yarn.lock', 'version: 10', 'version: 3'), 'yarn-berry/yarn.lock: line 5: lockfile version 3 is not read (Vigil reads 4 to 10)'],
    [variant('bun/bun.lock', '"lockfileVersion": 1', '"lockfileVersion": 2'), 'bun/bun.lock: line 2: lockfile version 2 is not read (Vigil reads 0 and 1)'],
    [variant('poetry-1.0/poetry.lock', 'lock-version = "1.0"', 'lock-version = "3.0"'), 'poetry-1.0/poetry.lock: line 104: lockfile version 3.0 is not read (Vigil reads 1.x and 2.x)'],
    [variant('pipfile/Pipfile.lock', '"pipfile-spec": 6', '"pipfile-spec": 5'), 'pipfile/Pipfile.lock: line 6: lockfile version 5 is not read (Vigil reads pipfile-spec 6)'],
    [variant('uv-virtual/uv.lock', 'version = 1\n', 'version = 2\n'), 'uv-virtual/uv.lock: line 1: lockfile version 2 is not read (Vigil reads 1)'],
    // TOML tables have no prototype: String() of one threw a TypeError (found by the property below).
    [variant('uv-virtual/uv.lock', 'version = 1\n', 'version = [{ a = 1 }, [{ b = 2 }]]\n'), 'uv-virtual/uv.lock: line 1: lockfile version [{"a":1},[{"b":2}]] is not read (Vigil reads 1)'],
  ])('$0.path', (file, detail) => {
    expect(refusal(file)).toEqual({ code: 'lockfile_version_unsupported', status: 422, detail });
  });
});

describe('file names', () => {
  it('a name Vigil does not read is refused naming it and what is read', () => {
    expect(refusal({ path: 'ruby/Gemfile.lock', content: '' })).toEqual({
      code: 'lockfile_unsupported',
      status: 422,
      detail:
        'ruby/Gemfile.lock: not a lockfile Vigil reads (it reads package-lock.json, npm-shrinkwrap.json, pnpm-lock.yaml, yarn.lock, bun.lock, requirements.txt (and *requirements*.txt, requirements/*.txt), poetry.lock, Pipfile.lock, uv.lock)',
    });
  });

  it("bun's binary lockfile is refused with the command that writes the text one", () => {
    expect(refusal({ path: 'web/bun.lockb', content: '\u0000' }).detail).toBe(
      'web/bun.lockb: the binary lockfile of bun before 1.2 is not read; `bun install --save-text-lockfile` writes bun.lock',
    );
  });
});

describe('bounds', () => {
  it(`a file above ${MAX_LOCKFILE_BYTES} bytes is refused with its size`, () => {
    const content = `# ${'x'.repeat(MAX_LOCKFILE_BYTES)}\n`;
    expect(refusal({ path: 'requirements.txt', content })).toEqual({
      code: 'lockfile_too_large',
      status: 422,
      detail: `requirements.txt: ${MAX_LOCKFILE_BYTES + 3} bytes; Vigil reads lockfiles of at most ${MAX_LOCKFILE_BYTES} bytes`,
    });
  });

  it('multi-byte characters count as the bytes they take', () => {
    // Each `é` is two UTF-8 bytes: a third of the limit in characters is two thirds of it in bytes.
    const content = `# ${'é'.repeat(Math.ceil(MAX_LOCKFILE_BYTES / 2))}\n`;
    expect(refusal({ path: 'requirements.txt', content }).code).toBe('lockfile_too_large');
  });

  it(`more than ${MAX_LOCKFILE_ENTRIES} entries are refused; exactly that many are read`, () => {
    expect(parseLockfile({ path: 'requirements.txt', content: generatedLockfile('requirements-txt', MAX_LOCKFILE_ENTRIES) }).packages).toHaveLength(MAX_LOCKFILE_ENTRIES);
    expect(refusal({ path: 'requirements.txt', content: generatedLockfile('requirements-txt', MAX_LOCKFILE_ENTRIES + 1) })).toEqual({
      code: 'lockfile_too_large',
      status: 422,
      detail: `requirements.txt: more than ${MAX_LOCKFILE_ENTRIES} entries; Vigil reads at most ${MAX_LOCKFILE_ENTRIES} packages and skipped entries per file`,
    });
  });
});

describe('any input', () => {
  const paths = ['package-lock.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'requirements.txt', 'poetry.lock', 'Pipfile.lock', 'uv.lock'];
  const seeds = [
    fixture('npm-v3/package-lock.json'),
    fixture('npm-v1/package-lock.json'),
    fixture('pnpm-v9/pnpm-lock.yaml'),
    fixture('pnpm-v6/pnpm-lock.yaml'),
    fixture('yarn-classic/yarn.lock'),
    fixture('yarn-berry/yarn.lock'),
    fixture('bun/bun.lock'),
    fixture('requirements-pip-compile/requirements.txt'),
    fixture('poetry-2.0/poetry.lock'),
    fixture('pipfile/Pipfile.lock'),
    fixture('uv-virtual/uv.lock'),
  ];

  /** Either a result or a lockfile refusal: nothing else may escape (a TypeError would be a 500). */
  function readsOrRefuses(file: { path: string; content: string }): void {
    try {
      parseLockfile(file);
    } catch (error) {
      expect(error).toBeInstanceOf(LockfileError);
      expect((error as LockfileError).code).toMatch(/^lockfile_/);
    }
  }

  it('arbitrary text under any lockfile name', () => {
    fc.assert(fc.property(fc.constantFrom(...paths), fc.string({ maxLength: 400 }), (path, content) => readsOrRefuses({ path, content })), { numRuns: 400 });
  });

  it('real lockfiles with a slice cut out or text spliced in', () => {
    const mutation = fc.record({
      seed: fc.constantFrom(...seeds),
      at: fc.nat(),
      cut: fc.nat({ max: 80 }),
      insert: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('{', '}', '[', ']', ':', ',', '"', "'", '\n', '  ', '- ', 'null', '1', '@', '#', '=', '\\')),
    });
    fc.assert(
      fc.property(mutation, ({ seed, at, cut, insert }) => {
        const index = at % (seed.content.length + 1);
        readsOrRefuses({ path: seed.path, content: seed.content.slice(0, index) + insert + seed.content.slice(index + cut) });
      }),
      { numRuns: 1500 },
    );
  });

  it('JSON and YAML lockfiles whose values have the wrong types', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(fc.constantFrom('package-lock.json', 'bun.lock', 'Pipfile.lock', 'pnpm-lock.yaml', 'yarn.lock'), json, json, (path, a, b) => {
        const shapes = {
          'package-lock.json': { lockfileVersion: 3, packages: { '': a, 'node_modules/x': b } },
          'bun.lock': { lockfileVersion: 1, workspaces: { '': a }, packages: { x: b } },
          'Pipfile.lock': { _meta: { 'pipfile-spec': 6 }, default: a, develop: { x: b } },
          // JSON is YAML: the same shapes reach the YAML readers.
          'pnpm-lock.yaml': { lockfileVersion: '9.0', importers: { '.': a }, packages: { 'x@1.0.0': b }, snapshots: { 'x@1.0.0': b } },
          'yarn.lock': { __metadata: { version: 8 }, 'x@npm:1.0.0': a, 'y@npm:1.0.0': b },
        } as const;
        readsOrRefuses({ path, content: JSON.stringify(shapes[path]) });
      }),
      { numRuns: 600 },
    );
  });
});
