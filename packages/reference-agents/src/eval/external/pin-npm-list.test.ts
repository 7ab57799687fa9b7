import { describe, expect, it } from 'vitest';
import { npmSampleId, npmTarballName } from './fetch-benign.js';
import { parsePackJson } from './pin-npm-list.js';

describe('npm pinning and fetching names', () => {
  it('reads npm pack --json output, also after a lifecycle script printed first', () => {
    const out = '> x@1.0.0 prepack\n> echo hi\n\n[{"id":"ms@2.1.3","name":"ms","version":"2.1.3","integrity":"sha512-AAA=","filename":"ms-2.1.3.tgz"}]\n';
    expect(parsePackJson(out)).toEqual([expect.objectContaining({ name: 'ms', version: '2.1.3', integrity: 'sha512-AAA=' })]);
    expect(parsePackJson('{"error":{"code":"E404"}}')).toEqual([]);
  });

  it('names tarballs as npm pack does and sample directories without a leading @', () => {
    expect(npmTarballName({ name: '@playwright/mcp', version: '0.0.83' })).toBe('playwright-mcp-0.0.83.tgz');
    expect(npmTarballName({ name: 'ms', version: '2.1.3' })).toBe('ms-2.1.3.tgz');
    expect(npmSampleId({ name: '@types/node', version: '26.6.7' })).toBe('types+node@26.6.7');
  });
});
