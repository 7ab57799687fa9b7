import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { formatBundleHash } from '@vigil/core';
import type { Kysely } from 'kysely';
import { readArchive } from './archive/archive-listing.js';
import { npmBundledDependencies, packDirectory } from './archive/pack-directory.js';
import { identityOfArchive, identityOfDirectory, type PackageIdentity } from './package-identity.js';
import { isPackageFactFile } from './facts/archive-package-facts.js';
import type { BlobStore } from '../../platform/blobs/index.js';
import type { Database, TrackName, VerdictName } from '../../platform/db/schema.js';
import { registerArtifact } from './register-artifact.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { artifactStored } from '../network/index.js';

/** Archive files the loader stores as they are; anything else must be a directory. */
export const LOADABLE_ARCHIVE_SUFFIXES = ['.tar.gz', '.tgz', '.zip', '.whl'] as const;

/** The label an artifact gets on a track other than packages when none is given: the demo seed's and the benchmark's. */
export const TRACK_LABELS: Record<TrackName, string> = { skills: 'skill', mcp_servers: 'mcp', packages: 'npm', repositories: 'repo' };

export class LoadArtifactError extends Error {
  override name = 'LoadArtifactError';
}

export type LoadArtifactInput = {
  /** A directory (packed) or an archive file (stored as it is). */
  path: string;
  track: TrackName;
  /** Bundle-hash label; derived when absent (see docs/configuration.md, "Loading artifacts"). */
  label?: string;
  /** Bundle-hash source id; derived when absent. */
  sourceId?: string;
  /** The largest artifact accepted, in bytes (VIGIL_ARTIFACT_LIMIT_BYTES). */
  maxBytes: number;
  now: number;
} & ({ kind: 'labeled'; groundTruth: VerdictName } | { kind: 'live' });

export interface LoadedArtifact {
  /**
   * `added`: registered now. `unchanged`: this artifact was registered before (same bundle hash,
   * bytes, kind and ground truth). `existing`: these bytes already are an artifact of the track under
   * another name, kind or ground truth, which is left as it is (one artifact per content and track).
   */
  outcome: 'added' | 'unchanged' | 'existing';
  bundleHash: string;
  contentHash: string;
  kind: 'labeled' | 'live';
  size: number;
}

const suffixOf = (path: string) => LOADABLE_ARCHIVE_SUFFIXES.find((s) => path.toLowerCase().endsWith(s));

async function bytesOf(path: string, maxBytes: number): Promise<{ bytes: Uint8Array; identity: PackageIdentity | undefined; name: string }> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new LoadArtifactError(`${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (error as Error).message}`);
  }
  if (info.isDirectory()) {
    const identity = await identityOfDirectory(path);
    const name = basename(path);
    // An npm directory packs under `package/`, a Python one under `<name>-<version>/`, anything
    // else under its own name: one top folder, so the unpacked artifact is exactly the directory.
    let packed;
    try {
      const npmBundled = identity?.type === 'npm' ? npmBundledDependencies(JSON.parse(await readFile(join(path, 'package.json'), 'utf8'))) : undefined;
      packed = await packDirectory(path, identity?.topFolder ?? name, npmBundled === undefined ? {} : { npmBundled });
    } catch (error) {
      throw new LoadArtifactError(`cannot pack the directory: ${(error as Error).message}`);
    }
    if (packed.files === 0) throw new LoadArtifactError('the directory holds no file');
    const { bytes } = packed;
    if (bytes.byteLength > maxBytes) throw new LoadArtifactError(`packed, ${bytes.byteLength} bytes, more than the ${maxBytes}-byte artifact limit`);
    return { bytes, identity, name };
  }
  const suffix = suffixOf(path);
  if (!info.isFile() || suffix === undefined) {
    throw new LoadArtifactError(`expected a directory or a ${LOADABLE_ARCHIVE_SUFFIXES.join(', ')} file`);
  }
  if (info.size > maxBytes) throw new LoadArtifactError(`${info.size} bytes, more than the ${maxBytes}-byte artifact limit`);
  if (info.size === 0) throw new LoadArtifactError('the file is empty');
  const read = await readArchive(path, { capture: isPackageFactFile });
  const expected = suffix === '.zip' || suffix === '.whl' ? 'zip' : 'tgz';
  if (read.listing.status !== 'ok' || read.listing.format !== expected) {
    throw new LoadArtifactError(`not a readable ${expected === 'zip' ? 'zip' : 'gzipped tar'} archive${read.listing.error === null ? '' : ` (${read.listing.error})`}`);
  }
  return { bytes: new Uint8Array(await readFile(path)), identity: identityOfArchive(read), name: basename(path).slice(0, -suffix.length) };
}

function naming(input: LoadArtifactInput, identity: PackageIdentity | undefined, name: string): { label: string; sourceId: string; derivedPurl: boolean } {
  if (input.track === 'packages' && identity === undefined && (input.label === undefined || input.sourceId === undefined)) {
    throw new LoadArtifactError(
      `names no package (no package.json, PKG-INFO or wheel METADATA with a name and version); give a label and a source id`,
    );
  }
  const label = input.label ?? (input.track === 'packages' ? identity!.type : TRACK_LABELS[input.track]);
  if (input.sourceId !== undefined) return { label, sourceId: input.sourceId, derivedPurl: false };
  if (identity !== undefined) return { label, sourceId: identity.purl, derivedPurl: true };
  return { label, sourceId: name, derivedPurl: false };
}

/**
 * Puts one artifact in: a directory is packed into a reproducible `.tar.gz`, an archive file is
 * stored byte for byte; the bytes go to the blob store and the artifact is registered (labeled with
 * its ground truth, or live). Loading the same content again changes nothing. A derived purl that
 * already names other bytes in the track gets the purl `checksum` qualifier, as uploads do
 * (docs/artifacts.md, "Benchmark secrecy"); a given source id whose bundle hash names other bytes is
 * refused with `artifact_conflict`.
 */
export async function loadArtifact(db: Kysely<Database>, blobs: BlobStore, input: LoadArtifactInput): Promise<LoadedArtifact> {
  const { bytes, identity, name } = await bytesOf(input.path, input.maxBytes);
  const contentHash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const groundTruth = input.kind === 'labeled' ? input.groundTruth : null;
  const same = await db
    .selectFrom('artifacts')
    .select(['bundle_hash', 'kind', 'ground_truth'])
    .where('track', '=', input.track)
    .where('content_hash', '=', contentHash)
    .orderBy('id')
    .executeTakeFirst();
  const { label, sourceId: wanted, derivedPurl } = naming(input, identity, name);
  let sourceId = wanted;
  // A derived purl that was taken when these bytes were first loaded carries their checksum.
  const withChecksum = `${wanted}${wanted.includes('?') ? '&' : '?'}checksum=${contentHash}`;
  if (same !== undefined) {
    const names = [formatBundleHash({ track: input.track, label, sourceId }), ...(derivedPurl ? [formatBundleHash({ track: input.track, label, sourceId: withChecksum })] : [])];
    const unchanged = names.includes(same.bundle_hash) && same.kind === input.kind && same.ground_truth === groundTruth;
    return { outcome: unchanged ? 'unchanged' : 'existing', bundleHash: same.bundle_hash, contentHash, kind: same.kind, size: bytes.byteLength };
  }
  if (derivedPurl) {
    const taken = await db
      .selectFrom('artifacts')
      .select('id')
      .where('bundle_hash', '=', formatBundleHash({ track: input.track, label, sourceId }))
      .executeTakeFirst();
    if (taken !== undefined) sourceId = withChecksum;
  }
  await blobs.put(bytes);
  const base = { track: input.track, label, sourceId, contentHash, now: input.now };
  const row = await inTransaction(db, async (trx) => {
    const registered = await registerArtifact(trx, input.kind === 'labeled' ? { ...base, kind: 'labeled', groundTruth: input.groundTruth } : { ...base, kind: 'live' });
    // A new artifact does not wait for the next round: the incumbents get fast tasks for it, labeled
    // ones too so that a fast task never says its artifact is live (docs/rounds.md, "Verdicts between rounds").
    await artifactStored(trx, { artifactId: Number(registered.id), now: input.now });
    return registered;
  });
  return { outcome: 'added', bundleHash: row.bundle_hash, contentHash, kind: row.kind, size: bytes.byteLength };
}
