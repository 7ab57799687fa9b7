import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tarGz } from '../../../sandbox/src/test-support/tar-writer.js';
import { dirWith, tempDir } from '../../../sandbox/src/test-support/temp-dirs.js';
import { loadCorpus } from './corpus.js';
import { npmCacheTarballs, realBenignPackages, sampleEvenly, workspacePackages, type RealPackage } from './real-packages.js';

/** Writes one cacache entry the way npm does: an index bucket line and the content by integrity. */
async function cacheEntry(cache: string, url: string, content: Buffer, bucket: string): Promise<void> {
  const digest = createHash('sha512').update(content).digest();
  const hex = digest.toString('hex');
  const contentDir = join(cache, 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4));
  await mkdir(contentDir, { recursive: true });
  await writeFile(join(contentDir, hex.slice(4)), content);
  const entry = { key: `make-fetch-happen:request-cache:${url}`, integrity: `sha512-${digest.toString('base64')}`, time: 1, size: content.length };
  await mkdir(join(cache, 'index-v5', bucket.slice(0, 2)), { recursive: true });
  await writeFile(join(cache, 'index-v5', bucket.slice(0, 2), bucket), `${createHash('sha1').update(JSON.stringify(entry)).digest('hex')}\t${JSON.stringify(entry)}\n`, { flag: 'a' });
}

describe('the real benign set', () => {
  it('finds registry tarballs in an npm cache by their index keys, skipping packuments', async () => {
    const cache = await tempDir();
    const tgz = await tarGz([{ header: { name: 'package/package.json' }, content: '{"name":"left-pad","version":"1.3.0"}' }]);
    await cacheEntry(cache, 'https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz', tgz, 'aa11');
    await cacheEntry(cache, 'https://registry.npmjs.org/@scope%2fpkg/-/pkg-2.0.0-beta.1.tgz', tgz, 'bb22');
    await cacheEntry(cache, 'https://registry.npmjs.org/@other/lib/-/lib-0.1.0.tgz', tgz, 'bb23');
    await cacheEntry(cache, 'https://registry.npmjs.org/left-pad', Buffer.from('{}'), 'cc33');
    const found = await npmCacheTarballs(cache);
    expect(found.map((p) => `${p.name}@${p.version}`).sort()).toEqual(['@other/lib@0.1.0', '@scope/pkg@2.0.0-beta.1', 'left-pad@1.3.0']);
    expect(found.every((p) => p.origin === 'npm-cache')).toBe(true);
    // The content path is where cacache keeps the bytes of that integrity.
    for (const p of found) expect((await readFile(p.path)).equals(tgz)).toBe(true);
  });

  it('lists installed workspace packages, dedupes by name@version and leaves out @vigil/*', async () => {
    const root = await dirWith({
      'node_modules/.pnpm/acorn@8.15.0/node_modules/acorn/package.json': '{"name":"acorn","version":"8.15.0"}',
      'node_modules/.pnpm/@babel+core@7.0.0/node_modules/@babel/core/package.json': '{"name":"@babel/core","version":"7.0.0"}',
      'node_modules/.pnpm/acorn@8.15.0_x/node_modules/acorn/package.json': '{"name":"acorn","version":"8.15.0"}',
      'node_modules/.pnpm/@vigil+core@0.0.0/node_modules/@vigil/core/package.json': '{"name":"@vigil/core","version":"0.0.0"}',
      'node_modules/.pnpm/lock.yaml': '',
    });
    // Store directories in sorted order: `@babel+…`, `@vigil+…`, `acorn@…`, `acorn@…_x`.
    expect((await workspacePackages(root)).map((p) => p.name)).toEqual(['@babel/core', '@vigil/core', 'acorn', 'acorn']);
    const set = await realBenignPackages({ npmCacheDir: join(root, 'no-cache'), repoRoot: root });
    expect(set.map((p) => `${p.name}@${p.version}`)).toEqual(['@babel/core@7.0.0', 'acorn@8.15.0']);
  });

  it('takes an even sample of the workspace packages when bounded, after leaving out @vigil/* and duplicates', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const files: Record<string, string> = { 'node_modules/.pnpm/@vigil+core@0.0.0/node_modules/@vigil/core/package.json': '{"name":"@vigil/core","version":"0.0.0"}' };
    for (const n of names) files[`node_modules/.pnpm/${n}@1.0.0/node_modules/${n}/package.json`] = `{"name":"${n}","version":"1.0.0"}`;
    // Second copies (another peer set) of the first three only: sampled before deduplication, the
    // thirteen entries would give a, b, d, g.
    for (const n of names.slice(0, 3)) files[`node_modules/.pnpm/${n}@1.0.0_peer/node_modules/${n}/package.json`] = `{"name":"${n}","version":"1.0.0"}`;
    const root = await dirWith(files);
    const bounded = await realBenignPackages({ npmCacheDir: join(root, 'no-cache'), repoRoot: root, maxWorkspacePackages: 4 });
    expect(bounded.map((p) => p.name)).toEqual(['a', 'c', 'f', 'h']);
    expect(await realBenignPackages({ npmCacheDir: join(root, 'no-cache'), repoRoot: root })).toHaveLength(10);
  });
});

describe('the npm-cache sample', () => {
  const cached = (names: string[]): RealPackage[] => names.map((name) => ({ name, version: '1.0.0', origin: 'npm-cache', path: `/c/${name}` }));

  it('keeps at most the bound, evenly spaced over name order, the same whatever order the cache lists them in', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    expect(sampleEvenly(cached(names), 4).map((p) => p.name)).toEqual(['a', 'c', 'f', 'h']);
    expect(sampleEvenly(cached([...names].reverse()), 4).map((p) => p.name)).toEqual(['a', 'c', 'f', 'h']);
    expect(sampleEvenly(cached(names), 20)).toHaveLength(10);
    expect(sampleEvenly(cached(names), undefined)).toHaveLength(10);
  });

  it('bounds only the cache part of the real set, never the workspace part', async () => {
    const cache = await tempDir();
    const tgz = await tarGz([{ header: { name: 'package/package.json' }, content: '{"name":"x","version":"1.0.0"}' }]);
    for (const [i, name] of ['alpha', 'beta', 'gamma', 'delta'].entries()) {
      await cacheEntry(cache, `https://registry.npmjs.org/${name}/-/${name}-1.0.0.tgz`, tgz, `a${i}00`);
    }
    const root = await dirWith({
      'node_modules/.pnpm/acorn@8.15.0/node_modules/acorn/package.json': '{"name":"acorn","version":"8.15.0"}',
      'node_modules/.pnpm/zod@3.0.0/node_modules/zod/package.json': '{"name":"zod","version":"3.0.0"}',
    });
    const set = await realBenignPackages({ npmCacheDir: cache, repoRoot: root, maxNpmCacheTarballs: 2 });
    expect(set.map((p) => `${p.origin} ${p.name}`)).toEqual(['workspace acorn', 'npm-cache alpha', 'npm-cache delta', 'workspace zod']);
    expect(await realBenignPackages({ npmCacheDir: cache, repoRoot: root })).toHaveLength(6);
  });
});

describe('loadCorpus', () => {
  it('reads labelled samples sorted by id and refuses a sample without a source', async () => {
    const root = await dirWith({
      'packages/b/sample.json': JSON.stringify({ label: 'benign', technique: 'cli-env', expected: 'ALLOW', source: 'look-alike of dotenv' }),
      'packages/b/files/package.json': '{}',
      'packages/a/sample.json': JSON.stringify({ label: 'malicious', technique: 'install-curl', source: 'incident X (https://x.example)' }),
      'packages/a/files/package.json': '{}',
    });
    const samples = await loadCorpus(root, 'packages');
    expect(samples.map((s) => [s.id, s.label, s.expected])).toEqual([
      ['packages/a', 'malicious', null],
      ['packages/b', 'benign', 'ALLOW'],
    ]);
    expect(await loadCorpus(root, 'skills')).toEqual([]);
    await writeFile(join(root, 'packages', 'a', 'sample.json'), JSON.stringify({ label: 'malicious', technique: 'install-curl', source: '' }));
    await expect(loadCorpus(root, 'packages')).rejects.toThrow('packages/a/sample.json: source must name the incident or write-up');
  });
});
