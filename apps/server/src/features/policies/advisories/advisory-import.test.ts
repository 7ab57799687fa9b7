import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readFeedFiles } from './osv-files.js';
import { describeEachDialect } from '../../../test-support/databases.js';
import { T0 } from '../../../test-support/fixtures.js';
import { zipOf } from '../../../test-support/stored-zip.js';
import { importAdvisories } from './advisory-import.js';
import { knownVulnerabilities } from './advisory-lookup.js';
import { advisoryStatus } from './advisory-status.js';

const FIXTURES = join(import.meta.dirname, '../../../../test/fixtures/osv');
const LODASH = { ecosystem: 'npm' as const, name: 'lodash', version: '4.17.15', purl: 'pkg:npm/lodash@4.17.15' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-osv-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fixture(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(FIXTURES, file), 'utf8')) as Record<string, unknown>;
}

describeEachDialect('advisory import', (ctx) => {
  it('imports a directory of real records, and a second import of the same feed changes nothing', async () => {
    const db = ctx.db();
    const first = await importAdvisories(db, readFeedFiles(FIXTURES), () => T0);
    expect(first).toEqual({
      counts: { files: 7, read: 7, imported: 7, updated: 0, unchanged: 0, older: 0, withdrawn: 0, other_ecosystems: 0, invalid: 0 },
      invalid_files: [],
    });
    const stored = await db.selectFrom('advisories').selectAll().where('id', '=', 'GHSA-35jh-r3h4-6jhm').executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ summary: 'Command Injection in lodash', aliases: '["CVE-2021-23337"]', source_file: 'GHSA-35jh-r3h4-6jhm.json', withdrawn: null });
    expect(Number(stored.modified)).toBe(Date.parse('2022-02-08T21:35:09Z'));
    // Django is stored under its PEP 503 name.
    expect((await db.selectFrom('advisory_packages').select('package_key').where('advisory_id', '=', 'GHSA-r3xc-prgr-mg9p').execute()).map((r) => r.package_key)).toEqual([
      'pypi:django',
      'pypi:django',
      'pypi:django',
    ]);
    const again = await importAdvisories(db, readFeedFiles(FIXTURES), () => T0 + 1);
    expect(again.counts).toMatchObject({ read: 7, imported: 0, updated: 0, unchanged: 7 });
    expect(await advisoryStatus(db)).toMatchObject({ advisories: 7, withdrawn: 0, packages: { npm: 6, pypi: 2 } });
  });

  it('reads a zip of <ID>.json records (the osv.dev export), passing over other entries', async () => {
    const db = ctx.db();
    const names = (await readdir(FIXTURES)).filter((n) => n.endsWith('.json'));
    const zip = zipOf([
      ...(await Promise.all(names.map(async (name) => ({ name, content: await readFile(join(FIXTURES, name)) })))),
      { name: 'README.txt', content: 'not a record' },
    ]);
    await writeFile(join(dir, 'all.zip'), zip);
    const result = await importAdvisories(db, readFeedFiles(join(dir, 'all.zip')), () => T0);
    expect(result.counts).toMatchObject({ files: 7, read: 7, imported: 7, invalid: 0 });
    expect((await knownVulnerabilities(db, [LODASH])).get(LODASH.purl)?.map((v) => v.id)).toEqual(['GHSA-35jh-r3h4-6jhm', 'GHSA-p6mc-m468-83gw']);
  });

  it('replaces a record only with a newer modified time; a withdrawn version stops matching and an older copy cannot bring it back', async () => {
    const db = ctx.db();
    const original = await fixture('GHSA-35jh-r3h4-6jhm.json');
    await mkdir(join(dir, 'a'));
    await writeFile(join(dir, 'a', 'GHSA-35jh-r3h4-6jhm.json'), JSON.stringify(original));
    await importAdvisories(db, readFeedFiles(join(dir, 'a')), () => T0);
    expect((await knownVulnerabilities(db, [LODASH])).get(LODASH.purl)?.map((v) => v.id)).toEqual(['GHSA-35jh-r3h4-6jhm']);

    // The same advisory as the database later publishes it: withdrawn (a test-made variant of the real record).
    const withdrawn = { ...original, modified: '2024-06-01T00:00:00Z', withdrawn: '2024-06-01T00:00:00Z' };
    await writeFile(join(dir, 'a', 'GHSA-35jh-r3h4-6jhm.json'), JSON.stringify(withdrawn));
    expect((await importAdvisories(db, readFeedFiles(join(dir, 'a')), () => T0 + 1)).counts).toMatchObject({ updated: 1, withdrawn: 1 });
    expect(await knownVulnerabilities(db, [LODASH])).toEqual(new Map());
    expect(await advisoryStatus(db)).toMatchObject({ advisories: 1, withdrawn: 1, packages: { npm: 0, pypi: 0 } });

    // An older copy (a stale mirror) does not replace it.
    await writeFile(join(dir, 'a', 'GHSA-35jh-r3h4-6jhm.json'), JSON.stringify(original));
    expect((await importAdvisories(db, readFeedFiles(join(dir, 'a')), () => T0 + 2)).counts).toMatchObject({ updated: 0, older: 1 });
    expect(await knownVulnerabilities(db, [LODASH])).toEqual(new Map());

    // A newer, un-withdrawn version matches again, with its new ranges.
    const reinstated = { ...original, modified: '2025-01-01T00:00:00Z', affected: [{ package: { ecosystem: 'npm', name: 'lodash' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '4.17.10' }] }] }] };
    await writeFile(join(dir, 'a', 'GHSA-35jh-r3h4-6jhm.json'), JSON.stringify(reinstated));
    expect((await importAdvisories(db, readFeedFiles(join(dir, 'a')), () => T0 + 3)).counts).toMatchObject({ updated: 1, withdrawn: 0 });
    expect(await knownVulnerabilities(db, [LODASH])).toEqual(new Map());
    expect((await knownVulnerabilities(db, [{ ...LODASH, version: '4.17.9', purl: 'pkg:npm/lodash@4.17.9' }])).get('pkg:npm/lodash@4.17.9')).toEqual([
      { id: 'GHSA-35jh-r3h4-6jhm', aliases: ['CVE-2021-23337'], summary: 'Command Injection in lodash', severity: 'high', fixed_in: ['4.17.10'] },
    ]);
  });

  it('reports every file that is not a valid record by name, stores the valid ones, and skips other ecosystems', async () => {
    const db = ctx.db();
    await mkdir(join(dir, 'nested', 'deeper'), { recursive: true });
    await writeFile(join(dir, 'nested', 'deeper', 'GHSA-xvch-5gv4-984h.json'), await readFile(join(FIXTURES, 'GHSA-xvch-5gv4-984h.json')));
    await writeFile(join(dir, 'broken.json'), '{"id": "GHSA-x", ');
    await writeFile(join(dir, 'no-modified.json'), JSON.stringify({ id: 'GHSA-aaaa-bbbb-cccc', affected: [] }));
    await writeFile(join(dir, 'two-kinds.json'), JSON.stringify({ ...(await fixture('GHSA-h5c8-rqwp-cp95.json')), affected: [{ package: { ecosystem: 'PyPI', name: 'x' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0', fixed: '1' }] }] }] }));
    await writeFile(join(dir, 'go.json'), JSON.stringify({ id: 'GO-2022-0001', modified: '2022-01-01T00:00:00Z', affected: [{ package: { ecosystem: 'Go', name: 'golang.org/x/text' } }] }));
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    const result = await importAdvisories(db, readFeedFiles(dir), () => T0);
    expect(result.counts).toMatchObject({ files: 5, read: 2, imported: 1, other_ecosystems: 1, invalid: 3 });
    expect(result.invalid_files).toEqual([
      { file: 'broken.json', reason: expect.stringMatching(/^not JSON/) },
      { file: 'no-modified.json', reason: expect.stringMatching(/^modified: /) },
      { file: 'two-kinds.json', reason: expect.stringMatching(/^affected\.0\.ranges\.0\.events\.0: /) },
    ]);
    expect((await db.selectFrom('advisories').select('id').execute()).map((r) => r.id)).toEqual(['GHSA-xvch-5gv4-984h']);
    expect((await db.selectFrom('advisories').select('source_file').executeTakeFirstOrThrow()).source_file).toBe('nested/deeper/GHSA-xvch-5gv4-984h.json');
  });
});
