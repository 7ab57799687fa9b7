import { describe, expect, it } from 'vitest';
import { describeLicense, licenseAllowed, licenseDenied, licenseListProblem } from './spdx-licenses.js';

describe('declared licenses', () => {
  it('lists the licenses of an expression as SPDX writes them', () => {
    expect(describeLicense('(MIT OR Apache-2.0) AND GPL-2.0-only WITH Classpath-exception-2.0')).toEqual({
      declared: '(MIT OR Apache-2.0) AND GPL-2.0-only WITH Classpath-exception-2.0',
      valid: true,
      ids: ['MIT', 'Apache-2.0', 'GPL-2.0-only WITH Classpath-exception-2.0'],
    });
    expect(describeLicense('GPL-2.0+').ids).toEqual(['GPL-2.0+']);
  });

  it('keeps an unparseable declaration visible instead of throwing', () => {
    expect(describeLicense('UNLICENSED')).toEqual({ declared: 'UNLICENSED', valid: false, ids: [] });
    expect(describeLicense('SEE LICENSE IN LICENSE.md')).toMatchObject({ valid: false });
    expect(describeLicense(null)).toEqual({ declared: null, valid: false, ids: [] });
  });
});

describe('license_allowed', () => {
  it.each([
    ['MIT', ['MIT', 'ISC'], true],
    ['MIT OR GPL-3.0-only', ['MIT'], true],
    ['MIT AND GPL-3.0-only', ['MIT'], false],
    ['(MIT OR Apache-2.0) AND BSD-3-Clause', ['Apache-2.0', 'BSD-3-Clause'], true],
    ['GPL-3.0-only', ['GPL-2.0+'], true],
    ['GPL-2.0-only WITH Classpath-exception-2.0', ['GPL-2.0-only'], false],
    ['GPL-2.0-only WITH Classpath-exception-2.0', ['GPL-2.0-only WITH Classpath-exception-2.0'], true],
    ['UNLICENSED', ['MIT'], false],
    ['MIT', [], false],
  ])('%s under %j is %s', (expression, list, expected) => {
    expect(licenseAllowed(expression, list)).toBe(expected);
  });
});

describe('license_denied', () => {
  it.each([
    ['MIT OR GPL-3.0-only', ['GPL-3.0-only'], false],
    ['MIT AND GPL-3.0-only', ['GPL-3.0-only'], true],
    ['GPL-3.0-only', ['GPL-3.0-only'], true],
    ['GPL-2.0-only WITH Classpath-exception-2.0', ['GPL-2.0-only'], true],
    ['GPL-3.0-or-later', ['GPL-2.0+'], true],
    ['Apache-2.0', ['GPL-2.0+'], false],
    ['(GPL-3.0-only OR AGPL-3.0-only) AND MIT', ['GPL-3.0-only', 'AGPL-3.0-only'], true],
    ['UNLICENSED', ['GPL-3.0-only'], false],
    ['GPL-3.0-only', [], false],
  ])('%s against %j is %s', (expression, list, expected) => {
    expect(licenseDenied(expression, list)).toBe(expected);
  });
});

describe('the lists rules pass', () => {
  it('names the first entry that is not one SPDX license, and both functions refuse it', () => {
    expect(licenseListProblem(['MIT', 'Apache 2', 'ISC'])).toBe('"Apache 2" is not an SPDX license identifier');
    expect(licenseListProblem(['MIT OR ISC'])).toBe('"MIT OR ISC" is not an SPDX license identifier');
    expect(licenseListProblem(['MIT', 'GPL-2.0+', 'Apache-2.0 WITH LLVM-exception'])).toBeNull();
    expect(() => licenseAllowed('MIT', ['Apache 2'])).toThrow('"Apache 2" is not an SPDX license identifier');
    expect(() => licenseDenied('MIT', ['mit'])).toThrow('"mit" is not an SPDX license identifier');
  });
});
