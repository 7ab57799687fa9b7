import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readArchive } from './archive/archive-listing.js';
import { packDirectory } from './archive/pack-directory.js';
import { tarGz } from './archive/tar-gz.js';
import { createFileBlobStore, type BlobStore } from '../../platform/blobs/index.js';
import { describeEachDialect } from '../../test-support/databases.js';
import { T0 } from '../../test-support/fixtures.js';
import { zipOf } from '../../test-support/stored-zip.js';
import { ArtifactsCommandError, runArtifactsCommand } from './artifacts-command.js';

let dir: string;
let blobs: BlobStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-load-'));
  blobs = createFileBlobStore(join(dir, 'blobs'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeTree(root: string, files: Record<string, string>): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describeEachDialect('vigil-server artifacts', (ctx) => {
  async function run(args: string[], maxBytes = 64 * 1024 * 1024): Promise<{ code: number; lines: string[] }> {
    const lines: string[] = [];
    const code = await runArtifactsCommand({ db: ctx.db(), blobs, maxBytes, now: () => T0, log: (line) => lines.push(line) }, args);
    return { code, lines };
  }
  const artifacts = () => ctx.db().selectFrom('artifacts').select(['bundle_hash', 'kind', 'ground_truth', 'content_hash', 'label', 'source_id']).orderBy('id').execute();

  it('packs an npm directory under package/, names it by its purl, and loading it again changes nothing', async () => {
    const pkg = await writeTree(join(dir, 'left-pad'), {
      'package.json': '{ "name": "left-pad", "version": "1.3.0", "scripts": { "postinstall": "node setup.js" }, "bundleDependencies": ["@acme/bundled"] }\n',
      'index.js': 'module.exports = (s, n) => String(s).padStart(n);\n',
      'bin/cli.js': '#!/usr/bin/env node\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      // An installed package's directory, as pnpm leaves it: npm pack keeps only bundled dependencies.
      'node_modules/.bin/tsc': '#!/bin/sh\nexec node tsc "$@"\n',
      'node_modules/@acme/bundled/index.js': 'module.exports = 1;\n',
      'node_modules/@acme/other/index.js': 'module.exports = 2;\n',
      'node_modules/unbundled/index.js': 'module.exports = 3;\n',
      'lib/node_modules/kept.js': 'deeper node_modules folders are the package’s own files\n',
    });
    await chmod(join(pkg, 'bin/cli.js'), 0o755);
    await symlink('/etc/passwd', join(pkg, 'passwd'));
    const first = await run(['add', '--track', 'packages', '--kind', 'labeled', '--ground-truth', 'WARN', pkg]);
    expect(first.code).toBe(0);
    const [row] = await artifacts();
    expect(row).toMatchObject({ bundle_hash: 'packages/npm/pkg:npm/left-pad@1.3.0', kind: 'labeled', ground_truth: 'WARN' });
    expect(first.lines[0]).toBe(`added packages/npm/pkg:npm/left-pad@1.3.0 (labeled, ${row!.content_hash}, ${first.lines[0]!.match(/, (\d+) bytes/)![1]} bytes) from ${pkg}`);
    expect(first.lines.at(-1)).toBe('1 added, 0 unchanged, 0 existing under another name, 0 failed');

    // The stored bytes are an npm-style tarball of the regular files (no .git, no symlink, no
    // node_modules but the bundled dependency).
    const stored = await blobs.withLocalFile(row!.content_hash, (file) => readArchive(file.path));
    expect(stored!.listing.format).toBe('tgz');
    expect(stored!.listing.files!.map((f) => f.name)).toEqual([
      'package/bin/cli.js',
      'package/index.js',
      'package/lib/node_modules/kept.js',
      'package/node_modules/@acme/bundled/index.js',
      'package/package.json',
    ]);

    const again = await run(['add', '--track', 'packages', '--kind', 'labeled', '--ground-truth', 'WARN', pkg]);
    expect(again.lines).toEqual([first.lines[0]!.replace(/^added/, 'unchanged'), '0 added, 1 unchanged, 0 existing under another name, 0 failed']);
    expect(await artifacts()).toHaveLength(1);
  });

  it('stores an archive byte for byte under the purl in its package.json, a wheel under its METADATA name', async () => {
    const tgz = tarGz([{ path: 'package/package.json', content: '{ "name": "@acme/Widget", "version": "2.0.0-rc.1" }' }]);
    await writeFile(join(dir, 'widget.tgz'), tgz);
    const wheel = zipOf([
      { name: 'Django_REST/__init__.py', content: '' },
      { name: 'Django_REST-3.15.1.dist-info/METADATA', content: 'Metadata-Version: 2.1\nName: Django_REST\nVersion: 3.15.1\n' },
    ]);
    await writeFile(join(dir, 'django_rest-3.15.1-py3-none-any.whl'), wheel);
    const result = await run(['add', '--track', 'packages', '--kind', 'live', join(dir, 'widget.tgz'), join(dir, 'django_rest-3.15.1-py3-none-any.whl')]);
    expect(result.code).toBe(0);
    expect(await artifacts()).toEqual([
      { bundle_hash: 'packages/npm/pkg:npm/%40acme/Widget@2.0.0-rc.1', kind: 'live', ground_truth: null, content_hash: sha256(tgz), label: 'npm', source_id: 'pkg:npm/%40acme/Widget@2.0.0-rc.1' },
      { bundle_hash: 'packages/pypi/pkg:pypi/django-rest@3.15.1', kind: 'live', ground_truth: null, content_hash: sha256(wheel), label: 'pypi', source_id: 'pkg:pypi/django-rest@3.15.1' },
    ]);
    expect(await blobs.get(sha256(tgz))).toEqual(new Uint8Array(tgz));
  });

  it('gives a second content claiming the same version the checksum qualifier; the same bytes again are the first artifact, whatever the kind', async () => {
    const one = tarGz([{ path: 'package/package.json', content: '{ "name": "twice", "version": "1.0.0" }' }]);
    const two = tarGz([{ path: 'package/package.json', content: '{ "name": "twice", "version": "1.0.0", "description": "other bytes" }' }]);
    await writeFile(join(dir, 'one.tgz'), one);
    await writeFile(join(dir, 'two.tgz'), two);
    await run(['add', '--track', 'packages', '--kind', 'live', join(dir, 'one.tgz'), join(dir, 'two.tgz')]);
    expect((await artifacts()).map((a) => a.bundle_hash)).toEqual(['packages/npm/pkg:npm/twice@1.0.0', `packages/npm/pkg:npm/twice@1.0.0?checksum=${sha256(two)}`]);
    // Loading the second again is a repeat, under the name it got.
    const again = await run(['add', '--track', 'packages', '--kind', 'live', join(dir, 'two.tgz')]);
    expect(again.lines[0]).toMatch(new RegExp(`^unchanged packages/npm/pkg:npm/twice@1\\.0\\.0\\?checksum=${sha256(two)} `));
    expect(again.lines.at(-1)).toBe('0 added, 1 unchanged, 0 existing under another name, 0 failed');

    const relabel = await run(['add', '--track', 'packages', '--kind', 'labeled', '--ground-truth', 'BLOCK', join(dir, 'one.tgz')]);
    expect(relabel.code).toBe(0);
    expect(relabel.lines[0]).toMatch(/^existing packages\/npm\/pkg:npm\/twice@1\.0\.0 \(live, .*: these bytes already are this artifact of the track; left as it is$/);
    expect((await artifacts())[0]).toMatchObject({ kind: 'live', ground_truth: null });
    // Another track is another artifact.
    await run(['add', '--track', 'mcp_servers', '--kind', 'live', join(dir, 'one.tgz')]);
    expect((await artifacts()).map((a) => a.bundle_hash)).toContain('mcp_servers/mcp/pkg:npm/twice@1.0.0');
  });

  it('refuses a given source id whose bundle hash names other bytes, and goes on with the other paths', async () => {
    const a = await writeTree(join(dir, 'a'), { 'SKILL.md': '---\nname: a\n---\nSummarise.\n' });
    const b = await writeTree(join(dir, 'b'), { 'SKILL.md': '---\nname: b\n---\nTranslate.\n' });
    expect((await run(['add', '--track', 'skills', '--kind', 'live', '--source-id', 'github.com/acme/skill', a])).code).toBe(0);
    const clash = await run(['add', '--track', 'skills', '--kind', 'live', '--source-id', 'github.com/acme/skill', b]);
    expect(clash.code).toBe(1);
    expect(clash.lines).toEqual([
      `failed ${b}: bundleHash: skills/skill/github.com/acme/skill is already registered with other content`,
      '0 added, 0 unchanged, 0 existing under another name, 1 failed',
    ]);
    // Without a source id, a directory that names no package is named after itself.
    const mixed = await run(['add', '--track', 'skills', '--kind', 'labeled', '--ground-truth', 'ALLOW', b, join(dir, 'missing')]);
    expect(mixed.code).toBe(1);
    expect(mixed.lines.slice(1)).toEqual([`failed ${join(dir, 'missing')}: no such file or directory`, '1 added, 0 unchanged, 0 existing under another name, 1 failed']);
    expect((await artifacts()).map((r) => r.bundle_hash)).toEqual(['skills/skill/github.com/acme/skill', 'skills/skill/b']);
  });

  it('refuses what it cannot name or read: a packages directory with no package, a file that is not an archive, one over the limit', async () => {
    const plain = await writeTree(join(dir, 'plain'), { 'README.md': 'hello\n' });
    await writeFile(join(dir, 'fake.tgz'), 'not gzip at all');
    await writeFile(join(dir, 'notes.txt'), 'text');
    const big = tarGz([{ path: 'package/package.json', content: `{ "name": "big", "version": "1.0.0", "x": "${'y'.repeat(4000)}" }` }]);
    await writeFile(join(dir, 'big.tgz'), big);
    const result = await run(['add', '--track', 'packages', '--kind', 'live', plain, join(dir, 'fake.tgz'), join(dir, 'notes.txt'), join(dir, 'big.tgz')], big.byteLength - 1);
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      `failed ${plain}: names no package (no package.json, PKG-INFO or wheel METADATA with a name and version); give a label and a source id`,
      `failed ${join(dir, 'fake.tgz')}: not a readable gzipped tar archive`,
      `failed ${join(dir, 'notes.txt')}: expected a directory or a .tar.gz, .tgz, .zip, .whl file`,
      `failed ${join(dir, 'big.tgz')}: ${big.byteLength} bytes, more than the ${big.byteLength - 1}-byte artifact limit`,
      '0 added, 0 unchanged, 0 existing under another name, 4 failed',
    ]);
    expect(await artifacts()).toEqual([]);
    // With a label and a source id, the same directory loads.
    expect((await run(['add', '--track', 'packages', '--kind', 'live', '--label', 'npm', '--source-id', 'pkg:npm/plain@0.0.1', plain])).code).toBe(0);
  });

  it('loads a manifest with paths relative to it, and says which entry of a bad manifest is wrong', async () => {
    await writeTree(join(dir, 'corpus/evil/files'), { 'package.json': '{ "name": "evil-pkg", "version": "0.0.1" }', 'index.js': "require('child_process')\n" });
    await writeTree(join(dir, 'corpus/repo/files'), { '.github/workflows/ci.yml': 'on: push\n' });
    await writeFile(
      join(dir, 'corpus/manifest.json'),
      JSON.stringify({
        artifacts: [
          { path: 'evil/files', track: 'packages', kind: 'labeled', ground_truth: 'BLOCK' },
          { path: 'repo/files', track: 'repositories', kind: 'labeled', ground_truth: 'ALLOW', source_id: 'github.com/acme/service' },
        ],
      }),
    );
    const loaded = await run(['load', join(dir, 'corpus/manifest.json')]);
    expect(loaded.code).toBe(0);
    expect(await artifacts()).toMatchObject([
      { bundle_hash: 'packages/npm/pkg:npm/evil-pkg@0.0.1', ground_truth: 'BLOCK' },
      { bundle_hash: 'repositories/repo/github.com/acme/service', ground_truth: 'ALLOW' },
    ]);
    // A repository made of one hidden folder keeps it: everything sits under one top folder.
    const repo = (await artifacts())[1]!;
    const listing = await blobs.withLocalFile(repo.content_hash, (file) => readArchive(file.path));
    expect(listing!.listing.files!.map((f) => f.name)).toEqual(['files/.github/workflows/ci.yml']);

    await writeFile(join(dir, 'bad.json'), JSON.stringify({ artifacts: [{ path: 'x', track: 'packages', kind: 'labeled' }] }));
    await expect(run(['load', join(dir, 'bad.json')])).rejects.toThrow(`${join(dir, 'bad.json')}: artifacts.0.ground_truth: a labeled artifact needs its ground truth`);
  });

  it('answers usage errors for wrong arguments', async () => {
    const usage = async (args: string[]) => {
      const error = await run(args).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArtifactsCommandError);
      expect((error as ArtifactsCommandError).usage).toBe(true);
      return (error as Error).message;
    };
    expect(await usage(['add', '--track', 'packages', '--kind', 'labeled', 'x'])).toBe('--ground-truth: a labeled artifact needs its ground truth');
    expect(await usage(['add', '--track', 'packages', '--kind', 'live', '--ground-truth', 'BLOCK', 'x'])).toBe('--ground-truth: a live artifact has no ground truth');
    expect(await usage(['add', '--track', 'packages', '--kind', 'live'])).toBe('add: expected at least one path');
    expect(await usage(['add', '--track', 'packages', '--kind', 'live', '--source-id', 's', 'a', 'b'])).toBe('add: --source-id names one artifact; give one path with it');
    expect(await usage(['add', '--track', 'nope', '--kind', 'live', 'a'])).toMatch(/^--track: /);
    expect(await usage(['add', '--bogus', '1', 'a'])).toBe('unknown option --bogus');
    expect(await usage(['remove'])).toMatch(/^expected artifacts add/);
  });
});

it('packs the same directory into the same bytes, long paths included', async () => {
  const long = `${'deep/'.repeat(30)}file.txt`;
  const root = await writeTree(join(dir, 'same'), { [long]: 'x', 'a.txt': 'a' });
  const first = await packDirectory(root, 'package');
  const second = await packDirectory(root, 'package');
  expect(sha256(first.bytes)).toBe(sha256(second.bytes));
  await writeFile(join(dir, 'same.tgz'), first.bytes);
  const read = await readArchive(join(dir, 'same.tgz'));
  expect(read.listing.files!.map((f) => f.name)).toEqual([`package/${long}`, 'package/a.txt'].sort());
});
