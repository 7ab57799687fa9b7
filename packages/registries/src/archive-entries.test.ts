import { describe, expect, it } from 'vitest';
import { tarGzEntries, zipEntries } from './archive-entries.js';
import { tarGzOf } from './test-support/tar-gz.js';
import { zipOf } from './test-support/zip.js';

describe('tarGzEntries', () => {
  it('lists files and reads the wanted ones', () => {
    const bytes = tarGzOf({ 'package/package.json': '{"name":"a"}', 'package/lib/x.js': 'x' });
    const entries = tarGzEntries(bytes, (path) => path.endsWith('package.json'), 1 << 20);
    expect(entries.map((entry) => [entry.path, entry.size, entry.content?.toString() ?? null])).toEqual([
      ['package/package.json', 12, '{"name":"a"}'],
      ['package/lib/x.js', 1, null],
    ]);
  });

  it('yields nothing for bytes that are not gzip, and stops at the gunzip bound', () => {
    expect(tarGzEntries(Buffer.from('not gzip'), () => true, 1 << 20)).toEqual([]);
    const big = tarGzOf({ 'package/big.bin': Buffer.alloc(1 << 20) });
    expect(tarGzEntries(big, () => false, 4096)).toEqual([]);
  });
});

describe('zipEntries', () => {
  it('lists a wheel and inflates the wanted file', () => {
    const bytes = zipOf({ 'demo/__init__.py': 'x = 1\n', 'demo-1.0.dist-info/METADATA': 'Name: demo\n' });
    const entries = zipEntries(bytes, (path) => path.endsWith('METADATA'), 1 << 20);
    expect(entries.map((entry) => [entry.path, entry.content?.toString() ?? null])).toEqual([
      ['demo/__init__.py', null],
      ['demo-1.0.dist-info/METADATA', 'Name: demo\n'],
    ]);
  });

  it('yields nothing for bytes that are not a zip', () => {
    expect(zipEntries(Buffer.from('nope'), () => true, 100)).toEqual([]);
  });
});
