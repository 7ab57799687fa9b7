import { describe, expect, it } from 'vitest';
import { lineOfPackage } from './package-line.js';

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
