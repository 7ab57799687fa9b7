import { describe, expect, it } from 'vitest';
import { typosquatOf } from './typosquat.js';

const imitated = (name: string, ecosystem: string) => typosquatOf(name, ecosystem)?.imitates ?? null;

describe('typosquatOf', () => {
  it('names the popular package one edit, only separators or look-alike characters away, and how', () => {
    expect(typosquatOf('lodahs', 'npm')).toEqual({ imitates: 'lodash', how: 'one character away' });
    expect(imitated('expres', 'npm')).toBe('express');
    expect(typosquatOf('crossenv', 'npm')).toEqual({ imitates: 'cross-env', how: 'same name with separators changed' });
    expect(typosquatOf('l0dash', 'npm')).toEqual({ imitates: 'lodash', how: 'look-alike characters' });
    expect(typosquatOf('c0a', 'npm')).toEqual({ imitates: 'coa', how: 'look-alike characters' });
    expect(imitated('python3-dateutil', 'pypi')).toBe('python-dateutil');
    expect(imitated('reqeusts', 'pypi')).toBe('requests');
    expect(imitated('jeIlyfish', 'pypi')).toBe('jellyfish');
    expect(imitated('web3js', 'npm')).toBe('@solana/web3.js');
  });

  it('leaves popular names, their legitimate neighbours, scoped and short names alone', () => {
    for (const name of ['lodash', 'preact', 'tslint', 'cookies', 'enquirer', 'safer-buffer', 'through2', '@types/lodash', '@pinojs/redact', 'ms', 'left-pad', 'my-own-lib', 'core']) {
      expect(imitated(name, 'npm'), name).toBeNull();
    }
    expect(imitated('serde', 'cargo')).toBeNull();
  });

  it('reads PyPI names as PyPI does (PEP 503): another spelling of a popular name is that package', () => {
    for (const name of ['python_dateutil', 'Python.Dateutil', 'PyYAML', 'scikit_learn']) expect(imitated(name, 'pypi'), name).toBeNull();
  });
});
