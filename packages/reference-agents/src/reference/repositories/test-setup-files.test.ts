import { describe, expect, it } from 'vitest';
import { shebangLanguage, testSetupFiles } from './test-setup-files.js';

describe('testSetupFiles', () => {
  it('resolves globalSetup, globalTeardown and setupFiles(AfterEnv) next to the configuration, skipping package names and parent paths', () => {
    const config = "export default { globalSetup: './g.ts', test: { setupFiles: ['<rootDir>/s.js', 'jest-extended/all', '../x.js'] }, setupFilesAfterEnv: [\"./after.cjs\"] };";
    expect(testSetupFiles('web/vitest.config.ts', config)).toEqual(['web/g.ts', 'web/s.js', 'web/after.cjs']);
    expect(testSetupFiles('jest.config.js', 'module.exports = { testEnvironment: "node" };')).toEqual([]);
  });
});

describe('shebangLanguage', () => {
  it('reads the interpreter of a #! line, directly or through env', () => {
    expect(shebangLanguage('#!/bin/bash\necho')).toBe('shell');
    expect(shebangLanguage('#!/usr/bin/env node\n')).toBe('javascript');
    expect(shebangLanguage('#!/usr/bin/env python3\n')).toBe('python');
    expect(shebangLanguage('#!/usr/bin/perl\n')).toBeNull();
    expect(shebangLanguage('\x7fELF')).toBeNull();
  });
});
