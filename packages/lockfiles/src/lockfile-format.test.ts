import { describe, expect, it } from 'vitest';
import { fixture } from './test-support/lockfile-fixtures.js';
import { lockfileFormatOf } from './lockfile-format.js';

describe('lockfileFormatOf', () => {
  it.each([
    ['package-lock.json', 'package-lock'],
    ['apps/web/npm-shrinkwrap.json', 'npm-shrinkwrap'],
    ['pnpm-lock.yaml', 'pnpm-lock'],
    ['bun.lock', 'bun-lock'],
    ['services/api/poetry.lock', 'poetry-lock'],
    ['Pipfile.lock', 'pipfile-lock'],
    ['uv.lock', 'uv-lock'],
    ['requirements.txt', 'requirements-txt'],
    ['requirements-dev.txt', 'requirements-txt'],
    ['dev_requirements.txt', 'requirements-txt'],
    ['requirements/base.txt', 'requirements-txt'],
    ['backend\\requirements\\prod.txt', 'requirements-txt'],
  ])('%s is %s', (path, format) => {
    expect(lockfileFormatOf(path)).toBe(format);
  });

  it('tells Yarn Berry from Yarn 1 by the content', () => {
    expect(lockfileFormatOf('yarn.lock', fixture('yarn-berry/yarn.lock').content)).toBe('yarn-berry');
    expect(lockfileFormatOf('yarn.lock', fixture('yarn-classic/yarn.lock').content)).toBe('yarn-classic');
    expect(lockfileFormatOf('web/yarn.lock')).toBe('yarn-classic');
  });

  it.each(['package.json', 'Pipfile', 'pyproject.toml', 'notes.txt', 'docs/readme.txt', 'Cargo.lock', 'bun.lockb', 'package-lock.json.bak', 'PACKAGE-LOCK.JSON'])(
    '%s is not a lockfile',
    (path) => {
      expect(lockfileFormatOf(path)).toBeNull();
    },
  );
});
