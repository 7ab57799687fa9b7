import { describe, expect, it } from 'vitest';
import { lineOfPackage } from './package-line.js';
import { typosquatTarget } from './typosquat-target.js';

describe('typosquatTarget', () => {
  it('names the popular package one edit or only separators away', () => {
    expect(typosquatTarget('npm', 'lodahs')).toBe('lodash');
    expect(typosquatTarget('npm', 'expres')).toBe('express');
    expect(typosquatTarget('npm', 'crossenv')).toBe('cross-env');
    expect(typosquatTarget('pypi', 'python3-dateutil')).toBe('python-dateutil');
    expect(typosquatTarget('pypi', 'reqeusts')).toBe('requests');
  });

  it('leaves popular names, their legitimate neighbours, scoped and short names alone', () => {
    for (const name of ['lodash', 'preact', 'tslint', 'cookies', 'enquirer', 'safer-buffer', '@types/lodash', 'ms', 'left-pad', 'my-own-lib']) {
      expect(typosquatTarget('npm', name), name).toBeNull();
    }
    expect(typosquatTarget('cargo', 'serde')).toBeNull();
  });
});

describe('lineOfPackage', () => {
  it('finds the entry of a package in pnpm, yarn and poetry lockfiles rather than a mention', () => {
    const pnpm = ["lockfileVersion: '9.0'", 'importers:', '  .:', '    dependencies:', '      debug:', '        specifier: ^4.4.2', '        version: 4.4.2', 'packages:', '  debug@4.4.2:', '    resolution: {}'];
    expect(lineOfPackage(pnpm, 'debug', '4.4.2')).toBe(9);
    const yarn = ['# yarn lockfile v1', '', '"@lottiefiles/lottie-player@^2.0.4":', '  version "2.0.7"'];
    expect(lineOfPackage(yarn, '@lottiefiles/lottie-player', '2.0.7')).toBe(3);
    const poetry = ['[[package]]', 'name = "ultralytics"', 'version = "8.3.41"'];
    expect(lineOfPackage(poetry, 'ultralytics', '8.3.41')).toBe(2);
    expect(lineOfPackage(['Django==4.2.1'], 'django', '4.2.1')).toBe(1);
    expect(lineOfPackage(['left-pad@1.3.0:'], 'pad', '1.3.0')).toBeNull();
  });
});
