import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parsePackageRef } from '@vigil/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readFeedFiles } from './advisories/osv-files.js';
import { createFileBlobStore, type BlobStore } from '../../platform/blobs/index.js';
import { OPERATOR } from '../../platform/audit-log.js';
import { tarGz } from '../artifacts/archive/tar-gz.js';
import { createAccount } from '../accounts/accounts.js';
import { importAdvisories } from './advisories/advisory-import.js';
import { uploadArtifact } from '../artifacts/customer-artifacts.js';
import { storeArtifact } from '../artifacts/store-artifact.js';
import { describeEachDialect } from '../../test-support/databases.js';
import { T0 } from '../../test-support/fixtures.js';
import type { PackageCoordinates } from './input-sources.js';
import { createPolicyInputSources } from './create-input-sources.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/osv');

function npm(name: string, version: string): PackageCoordinates {
  return { ecosystem: 'npm', name, version, purl: `pkg:npm/${name.replace('@', '%40')}@${version}` };
}
function pypi(name: string, version: string): PackageCoordinates {
  return { ecosystem: 'pypi', name, version, purl: `pkg:pypi/${name.toLowerCase()}@${version}` };
}

let dir: string;
let blobs: BlobStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-sources-'));
  blobs = createFileBlobStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeEachDialect('policy input sources', (ctx) => {
  it('answers the known vulnerabilities of a lockfile from the imported feed, in one query', async () => {
    const db = ctx.db();
    await importAdvisories(db, readFeedFiles(FIXTURES), () => T0);
    const sources = createPolicyInputSources(db, blobs, () => T0);
    const lockfile = [
      npm('lodash', '4.17.15'),
      npm('lodash', '4.17.21'),
      npm('minimist', '1.2.5'),
      npm('@cypress/request', '2.88.11'),
      npm('request', '2.88.2'),
      npm('left-pad', '1.3.0'),
      pypi('Django', '4.2.0'),
      pypi('jinja2', '3.1.3'),
      ...Array.from({ length: 2_000 }, (_, i) => npm(`unrelated-${i}`, '1.0.0')),
    ];
    let statements = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const found = await createPolicyInputSources(counted, blobs).vulnerabilities(lockfile);
    expect(statements).toBe(1);
    expect(found.get('pkg:npm/lodash@4.17.15')?.map((v) => [v.id, v.severity, v.fixed_in])).toEqual([
      ['GHSA-35jh-r3h4-6jhm', 'high', ['4.17.21']],
      ['GHSA-p6mc-m468-83gw', 'high', ['4.17.20']],
    ]);
    expect(found.has('pkg:npm/lodash@4.17.21')).toBe(false);
    expect(found.get('pkg:npm/minimist@1.2.5')).toEqual([
      { id: 'GHSA-xvch-5gv4-984h', aliases: ['CVE-2021-44906'], summary: 'Prototype Pollution in minimist', severity: 'critical', fixed_in: ['0.2.4', '1.2.6'] },
    ]);
    expect(found.get('pkg:npm/%40cypress/request@2.88.11')?.map((v) => v.id)).toEqual(['GHSA-p8p7-x288-28g6']);
    // Coordinates as built from a parsed reference carry the scope only in the purl: @cypress/request
    // 2.88.11 is affected (last_affected 2.88.11), the unscoped request 2.88.11 is not (2.88.2).
    const scoped = await sources.vulnerabilities([{ ecosystem: 'npm', name: 'request', version: '2.88.11', purl: 'pkg:npm/%40cypress/request@2.88.11' }]);
    expect(scoped.get('pkg:npm/%40cypress/request@2.88.11')?.map((v) => v.id)).toEqual(['GHSA-p8p7-x288-28g6']);
    expect(found.get('pkg:npm/request@2.88.2')?.map((v) => v.id)).toEqual(['GHSA-p8p7-x288-28g6']);
    expect(found.get('pkg:pypi/django@4.2.0')?.map((v) => [v.id, v.fixed_in])).toEqual([['GHSA-r3xc-prgr-mg9p', ['3.2.19', '4.1.9', '4.2.1']]]);
    expect(found.has('pkg:pypi/jinja2@3.1.3')).toBe(false);
    expect(found.has('pkg:npm/left-pad@1.3.0')).toBe(false);
    expect(await sources.vulnerabilities([])).toEqual(new Map());
  });

  it('reads package facts stored at upload, and computes those of older artifacts once', async () => {
    const db = ctx.db();
    const account = await createAccount(db, { name: 'acme', kind: 'organization', plan: 'paid', now: T0, actor: OPERATOR });
    const tarball = tarGz([
      { path: 'package/package.json', content: JSON.stringify({ name: 'native-thing', version: '1.0.0', license: 'MIT', scripts: { postinstall: 'node setup.js', test: 'tap' } }) },
      { path: 'package/binding.gyp', content: '{}' },
    ]);
    const uploaded = await uploadArtifact(db, blobs, {
      track: 'packages',
      ref: parsePackageRef('npm:native-thing@1.0.0'),
      source: Readable.from([Buffer.from(tarball)]),
      mediaType: 'application/octet-stream',
      accountId: account.account_id,
      maxBytes: 1 << 20,
      now: T0,
    });
    // An artifact from before facts existed (the demo data): no row until first asked.
    const older = await storeArtifact(db, blobs, {
      track: 'packages',
      label: 'npm',
      sourceId: 'pkg:npm/agent-util-1@1.0.0',
      kind: 'live',
      bytes: tarGz([{ path: 'agent-util-1/package.json', content: '{ "name": "agent-util-1", "version": "1.0.0", "license": { "type": "ISC" } }' }]),
      now: T0,
    });
    const skill = await storeArtifact(db, blobs, { track: 'skills', label: 'skill', sourceId: 's', kind: 'live', bytes: new TextEncoder().encode('# just text'), now: T0 });
    expect(await db.selectFrom('artifact_facts').select('artifact_id').execute()).toHaveLength(1);

    const sources = createPolicyInputSources(db, blobs, () => T0);
    const ids = [Number(uploaded.artifact.id), Number(older.id), Number(skill.id), 999_999];
    const facts = await sources.facts(ids);
    expect(facts.get(Number(uploaded.artifact.id))).toEqual({ license: 'MIT', install_scripts: ['install', 'postinstall'], registry_provenance: 'absent', published_at: null });
    expect(facts.get(Number(older.id))).toEqual({ license: 'ISC', install_scripts: [], registry_provenance: 'absent', published_at: null });
    // Not a package archive, or no such artifact: absent.
    expect(facts.has(Number(skill.id))).toBe(false);
    expect(facts.has(999_999)).toBe(false);
    // Computed once and stored, the text file included: the next call reads no archive.
    expect(await db.selectFrom('artifact_facts').select('artifact_id').execute()).toHaveLength(3);
    await rm(dir, { recursive: true, force: true });
    expect(await sources.facts(ids)).toEqual(facts);
  });
});
