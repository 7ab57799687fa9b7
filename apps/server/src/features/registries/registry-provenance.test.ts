/**
 * The provenance the npm registry offers with a version Vigil fetches (docs/package-facts.md,
 * "Provenance of fetched packages"): npm's real attestations document of gundam-visor@1.0.1 checked
 * against the sha512 the registry's integrity vouched for, kept for Vigil's registry account when it
 * verifies, never kept when it does not. (The tarball itself is no longer served by npm: the
 * stored bytes here are a stand-in, and the digest checked is the connector's, as in the worker.)
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parsePackageRef } from '@vigil/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createFileBlobStore, type BlobStore } from '../../platform/blobs/index.js';
import { keepRegistryProvenance, tarGz, uploadArtifact } from '../artifacts/index.js';
import { describeEachDialect } from '../../test-support/databases.js';
import { T0 } from '../../test-support/fixtures.js';
import { ensureRegistryAccount, REGISTRY_ACCOUNT_ID } from './registry-account.js';

const ATTESTATIONS = JSON.parse(readFileSync(join(import.meta.dirname, '../../../test/fixtures/sigstore/gundam-visor-1.0.1.attestations.json'), 'utf8')) as unknown;
const SIGNED_SHA512 = '8d9d7972f676516c75014aa074e11ae604d98f0b64ec6725a61e2838ff3dab162118fa71433fb31e1550d30bd0dec9d086ce032b94457b583900c507acf39c40';
const PURL = 'pkg:npm/gundam-visor@1.0.1';

let dir: string;
let blobs: BlobStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-registry-provenance-'));
  blobs = createFileBlobStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeEachDialect('provenance of fetched packages', (ctx) => {
  async function fetched(): Promise<number> {
    const db = ctx.db();
    await ensureRegistryAccount(db, T0);
    const tarball = await tarGz([{ path: 'package/package.json', content: JSON.stringify({ name: 'gundam-visor', version: '1.0.1' }) }]);
    const stored = await uploadArtifact(db, blobs, {
      track: 'packages',
      ref: parsePackageRef(PURL),
      source: Readable.from([Buffer.from(tarball)]),
      mediaType: 'application/octet-stream',
      accountId: REGISTRY_ACCOUNT_ID,
      maxBytes: 1 << 20,
      now: T0,
    });
    return Number(stored.artifact.id);
  }

  it("keeps the registry's attestations when they sign the bytes the registry served, attached by Vigil's registry account", async () => {
    const artifactId = await fetched();
    const outcome = await keepRegistryProvenance(ctx.db(), { artifactId, document: ATTESTATIONS, sha512Hex: SIGNED_SHA512, purl: PURL, accountId: REGISTRY_ACCOUNT_ID, now: T0 + 1000 });
    expect(outcome).toMatchObject({ kept: true, provenance: { status: 'verified', subject: PURL, source_repository: 'https://github.com/ramonpetgrave64/gundam-visor' } });
    const row = await ctx.db().selectFrom('artifact_provenance').selectAll().where('artifact_id', '=', artifactId).executeTakeFirstOrThrow();
    expect([row.status, row.uploaded_by, Number(row.logged_at)]).toEqual(['verified', REGISTRY_ACCOUNT_ID, 1717453079000]);
  });

  it('keeps nothing for attestations of other bytes, of another name, or a document that is no bundle, and says why', async () => {
    const artifactId = await fetched();
    const db = ctx.db();
    const other = 'ab'.repeat(64);
    expect(await keepRegistryProvenance(db, { artifactId, document: ATTESTATIONS, sha512Hex: other, purl: PURL, accountId: REGISTRY_ACCOUNT_ID, now: T0 })).toEqual({
      kept: false,
      reason: `the bundle signs ${PURL} with sha512 ${SIGNED_SHA512}, not these bytes (sha512 ${other})`,
    });
    expect(await keepRegistryProvenance(db, { artifactId, document: ATTESTATIONS, sha512Hex: SIGNED_SHA512, purl: 'pkg:npm/gundam-visor-fork@1.0.1', accountId: REGISTRY_ACCOUNT_ID, now: T0 })).toEqual({
      kept: false,
      reason: 'the bundle signs these bytes as pkg:npm/gundam-visor@1.0.1, not as pkg:npm/gundam-visor-fork@1.0.1',
    });
    const notABundle = await keepRegistryProvenance(db, { artifactId, document: { attestations: [] }, sha512Hex: SIGNED_SHA512, purl: PURL, accountId: REGISTRY_ACCOUNT_ID, now: T0 });
    expect(notABundle.kept).toBe(false);
    expect(await db.selectFrom('artifact_provenance').selectAll().where('artifact_id', '=', artifactId).execute()).toEqual([]);
  });
});
