import { parsePackageRef } from '@vigil/core';
import { chooseTrack, type TrackChoice } from './choose-track.js';
import { tarGzEntries } from './archive-entries.js';
import { failureOf, fetchMetadata, type MetadataResult } from './fetch-metadata.js';
import { LruMetadataCache, type CachedMetadata, type MetadataCache } from './metadata-cache.js';
import { isNpmName, npmPackumentPath } from './npm-name.js';
import { refusedTarget } from './refused-target.js';
import { RegistryHttp, type RegistryCounters } from './registry-http.js';
import { resolveRegistrySettings, type RegistrySettings } from './registry-settings.js';
import type { RegistryFailure } from './registry-states.js';

export const NPM_ABBREVIATED_ACCEPT = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';
const FULL_ACCEPT = 'application/json';
/** Attestation bundles are small JSON documents; anything bigger is not one. */
const MAX_ATTESTATION_BYTES = 4 * 1024 * 1024;

/** A packument as the registry serves it; fields Vigil reads are typed, the rest kept. */
export interface NpmPackument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, NpmVersionManifest>;
  /** Full form only: publish times per version, plus `created`, `modified` and, for a fully unpublished package, `unpublished`. */
  time?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface NpmVersionManifest {
  name: string;
  version: string;
  deprecated?: string;
  dist: { tarball: string; integrity?: string; shasum?: string; unpackedSize?: number; attestations?: { url: string; provenance?: unknown } };
  [key: string]: unknown;
}

export type NpmPackumentResult = { state: 'ok'; packument: NpmPackument; etag: string | null; not_modified: boolean } | RegistryFailure;

export type NpmResolution =
  | { state: 'ok'; version: string; manifest: NpmVersionManifest; deprecated: string | null; published_at: string | null }
  | RegistryFailure;

export interface NpmArtifact {
  state: 'fetched';
  name: string;
  version: string;
  /** `pkg:npm/...@version`, the reference the artifact answers for. */
  purl: string;
  tarball_url: string;
  bytes: Buffer;
  /** Lowercase hex digests of `bytes`. */
  sha512: string;
  sha1: string;
  /** Which published digests the bytes were checked against. */
  verified_against: ('integrity' | 'shasum')[];
  /** The deprecation message, or null. A deprecated version is still fetched and judged. */
  deprecated: string | null;
  published_at: string | null;
  /**
   * The registry's attestations document (`dist.attestations.url`) as served, for the provenance
   * check of docs/package-facts.md; null with `attestations_state` saying why.
   */
  attestations: Buffer | null;
  attestations_state: 'fetched' | 'none' | 'unavailable' | 'invalid';
  track: TrackChoice;
}

export type NpmFetchResult = NpmArtifact | RegistryFailure;

export interface NpmRegistry {
  readonly settings: RegistrySettings;
  readonly counters: RegistryCounters;
  /**
   * `revalidate`: an answer the caller kept (its ETag and document), revalidated with
   * `If-None-Match` instead of the connector's cache; a 304 answers that document.
   */
  packument(name: string, options?: { form?: 'full' | 'abbreviated'; revalidate?: CachedMetadata }): Promise<NpmPackumentResult>;
  resolve(name: string, versionOrTag: string): Promise<NpmResolution>;
  fetch(name: string, versionOrTag: string): Promise<NpmFetchResult>;
  close(): void;
}

export interface NpmRegistryOptions {
  /** Where packuments are kept for `If-None-Match`; an in-memory LRU by default. */
  cache?: MetadataCache;
  /** Called for every refused artifact (integrity mismatch, too large), for the operator's log. */
  onRefused?: (event: { name: string; version: string; failure: RegistryFailure }) => void;
}

export function createNpmRegistry(settings: RegistrySettings, options: NpmRegistryOptions = {}): NpmRegistry {
  const resolved = resolveRegistrySettings(settings);
  const http = new RegistryHttp(resolved);
  const cache = options.cache ?? new LruMetadataCache(resolved.metadataCacheEntries);
  // Versions seen per package, and those that later vanished. The public registry keeps
  // `time[version]` after an unpublish; Verdaccio and some mirrors erase every trace, so having
  // served a version before is the only evidence there that it was unpublished.
  const history = new Map<string, { versions: Set<string>; removed: Map<string, string> }>();

  function remember(name: string, versions: readonly string[]): void {
    const entry = history.get(name) ?? { versions: new Set<string>(), removed: new Map<string, string>() };
    const current = new Set(versions);
    for (const version of entry.versions) if (!current.has(version)) entry.removed.set(version, new Date().toISOString());
    for (const version of current) entry.removed.delete(version);
    entry.versions = current;
    history.delete(name);
    history.set(name, entry);
    while (history.size > Math.max(1, resolved.metadataCacheEntries)) history.delete(history.keys().next().value!);
  }

  async function packument(name: string, { form = 'full', revalidate }: { form?: 'full' | 'abbreviated'; revalidate?: CachedMetadata } = {}): Promise<NpmPackumentResult> {
    if (!isNpmName(name)) return { state: 'not_found', detail: `not an npm package name: ${JSON.stringify(name)}` };
    const url = http.url(npmPackumentPath(name));
    const result: MetadataResult = await fetchMetadata(http, cache, url, form === 'full' ? FULL_ACCEPT : NPM_ABBREVIATED_ACCEPT, revalidate === undefined ? {} : { revalidate });
    if (result.state !== 'ok') return result;
    const doc = result.document as Partial<NpmPackument>;
    const time = doc.time;
    // A fully unpublished package keeps a stub: no versions, `time.unpublished`.
    if (time !== undefined && time !== null && typeof time === 'object' && 'unpublished' in time && (doc.versions === undefined || Object.keys(doc.versions).length === 0)) {
      return { state: 'ok', packument: { name, 'dist-tags': {}, versions: {}, ...doc } as NpmPackument, etag: result.etag, not_modified: result.not_modified };
    }
    if (doc.versions === undefined || typeof doc.versions !== 'object' || doc.versions === null) return { state: 'invalid_metadata', detail: `${url}: no versions object` };
    remember(name, Object.keys(doc.versions));
    return { state: 'ok', packument: { 'dist-tags': {}, ...doc, name: typeof doc.name === 'string' ? doc.name : name } as NpmPackument, etag: result.etag, not_modified: result.not_modified };
  }

  async function resolve(name: string, versionOrTag: string): Promise<NpmResolution> {
    const found = await packument(name);
    if (found.state !== 'ok') return found;
    const doc = found.packument;
    const time = (doc.time !== null && typeof doc.time === 'object' ? doc.time : {}) as Record<string, unknown>;
    const unpublished = time.unpublished as { time?: unknown } | null | undefined;
    if (unpublished !== undefined && Object.keys(doc.versions).length === 0) {
      const at = unpublished !== null && typeof unpublished === 'object' && typeof unpublished.time === 'string' ? unpublished.time : null;
      return { state: 'unpublished', unpublished_at: at, detail: `${name}: every version was unpublished` };
    }
    const tags: Record<string, unknown> = doc['dist-tags'] !== null && typeof doc['dist-tags'] === 'object' ? doc['dist-tags'] : {};
    const tagged = Object.hasOwn(tags, versionOrTag) && typeof tags[versionOrTag] === 'string' ? (tags[versionOrTag] as string) : undefined;
    const version = Object.hasOwn(doc.versions, versionOrTag) ? versionOrTag : tagged;
    if (version === undefined || !Object.hasOwn(doc.versions, version)) {
      // A dist-tag left pointing at a removed version speaks of that version.
      const wanted = version ?? versionOrTag;
      if (Object.hasOwn(time, wanted)) {
        // The registry remembers when it was published but no longer serves it.
        return { state: 'unpublished', unpublished_at: null, detail: `${name}@${wanted}: unpublished (the registry keeps its publish time, not its files)` };
      }
      const noticed = history.get(name)?.removed.get(wanted);
      if (noticed !== undefined) return { state: 'unpublished', unpublished_at: noticed, detail: `${name}@${wanted}: unpublished (served earlier, gone since)` };
      return { state: 'version_not_found', detail: `${name}: no version or dist-tag ${JSON.stringify(versionOrTag)}` };
    }
    const manifest = doc.versions[version] as NpmVersionManifest | null;
    if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) return { state: 'invalid_metadata', detail: `${name}@${version}: the version's manifest is not an object` };
    // The manifest is what gets judged under this purl: it must say it is this package and version.
    if (manifest.name !== name || manifest.version !== version) {
      return { state: 'invalid_metadata', detail: `${name}@${version}: the version's manifest names ${JSON.stringify(manifest.name)}@${JSON.stringify(manifest.version)}` };
    }
    const deprecated = typeof manifest.deprecated === 'string' && manifest.deprecated !== '' ? manifest.deprecated : null;
    const publishedAt = typeof time[version] === 'string' ? (time[version] as string) : null;
    return { state: 'ok', version, manifest, deprecated, published_at: publishedAt };
  }

  function refused(name: string, version: string, failure: RegistryFailure): RegistryFailure {
    if (failure.state === 'integrity_mismatch') http.counters.integrityMismatches += 1;
    options.onRefused?.({ name, version, failure });
    return failure;
  }

  async function fetchArtifact(name: string, versionOrTag: string): Promise<NpmFetchResult> {
    const resolution = await resolve(name, versionOrTag);
    if (resolution.state !== 'ok') return resolution;
    const { version, manifest } = resolution;
    const dist = manifest.dist as Partial<NpmVersionManifest['dist']> | null | undefined;
    if (dist === undefined || dist === null || typeof dist !== 'object' || typeof dist.tarball !== 'string') return { state: 'invalid_metadata', detail: `${name}@${version}: no dist.tarball` };
    const expected = expectedDigests(dist);
    if (expected === null) return { state: 'invalid_metadata', detail: `${name}@${version}: neither dist.integrity (sha512/sha1) nor dist.shasum` };
    let tarballUrl: string;
    try {
      tarballUrl = new URL(dist.tarball, http.settings.url + '/').href;
    } catch {
      return { state: 'invalid_metadata', detail: `${name}@${version}: dist.tarball is not a URL` };
    }
    if (!/^https?:$/.test(new URL(tarballUrl).protocol)) return { state: 'invalid_metadata', detail: `${name}@${version}: dist.tarball is not an http(s) URL` };
    const refusedTarball = refusedTarget(new URL(tarballUrl));
    if (refusedTarball !== null) return { state: 'invalid_metadata', detail: `${name}@${version}: dist.tarball is never requested: ${refusedTarball}` };
    const download = await http.get(tarballUrl, { headers: { accept: 'application/octet-stream' }, maxBytes: http.settings.maxArtifactBytes, digests: ['sha512', 'sha1'] });
    const failure = failureOf(download, tarballUrl);
    if (failure !== null) {
      // A tarball the packument names but the registry does not serve is a broken registry, not a missing package.
      const state = failure.state === 'not_found' ? ({ state: 'invalid_metadata', detail: `${name}@${version}: the tarball ${failure.detail}` } as const) : failure;
      return state.state === 'too_large' ? refused(name, version, state) : state;
    }
    if (download.kind !== 'response') throw new Error('unreachable');
    const sha512 = download.digests.sha512!;
    const sha1 = download.digests.sha1!;
    const verified: ('integrity' | 'shasum')[] = [];
    if (expected.sri.length > 0) {
      const strongest = expected.sri.some((entry) => entry.algorithm === 'sha512') ? 'sha512' : 'sha1';
      const actual = strongest === 'sha512' ? sha512 : sha1;
      const candidates = expected.sri.filter((entry) => entry.algorithm === strongest);
      if (!candidates.some((entry) => entry.digest.equals(actual))) {
        return refused(name, version, {
          state: 'integrity_mismatch',
          expected: candidates.map((entry) => `${strongest}-${entry.digest.toString('base64')}`).join(' '),
          actual: `${strongest}-${actual.toString('base64')}`,
          detail: `${name}@${version}: the tarball's ${strongest} does not match dist.integrity`,
        });
      }
      verified.push('integrity');
    }
    if (expected.shasum !== null) {
      if (expected.shasum !== sha1.toString('hex')) {
        return refused(name, version, { state: 'integrity_mismatch', expected: expected.shasum, actual: sha1.toString('hex'), detail: `${name}@${version}: the tarball's sha1 does not match dist.shasum` });
      }
      verified.push('shasum');
    }
    const bytes = download.body;
    const attestations = await fetchAttestations(dist.attestations);
    return {
      state: 'fetched',
      name,
      version,
      purl: npmPurl(name, version),
      tarball_url: tarballUrl,
      bytes,
      sha512: sha512.toString('hex'),
      sha1: sha1.toString('hex'),
      verified_against: verified,
      deprecated: resolution.deprecated,
      published_at: resolution.published_at,
      attestations: attestations.bytes,
      attestations_state: attestations.state,
      track: npmTrack(bytes, http.settings.maxArtifactBytes * 8),
    };
  }

  async function fetchAttestations(pointer: unknown): Promise<{ bytes: Buffer | null; state: NpmArtifact['attestations_state'] }> {
    if (pointer === undefined || pointer === null || typeof pointer !== 'object' || typeof (pointer as { url?: unknown }).url !== 'string') return { bytes: null, state: 'none' };
    let url: string;
    try {
      url = new URL((pointer as { url: string }).url, http.settings.url + '/').href;
    } catch {
      return { bytes: null, state: 'invalid' };
    }
    if (!/^https?:$/.test(new URL(url).protocol) || refusedTarget(new URL(url)) !== null) return { bytes: null, state: 'invalid' };
    const answer = await http.get(url, { headers: { accept: 'application/json' }, maxBytes: MAX_ATTESTATION_BYTES });
    if (answer.kind !== 'response' || answer.status < 200 || answer.status >= 300) return { bytes: null, state: 'unavailable' };
    try {
      const doc = JSON.parse(answer.body.toString('utf8')) as { attestations?: unknown };
      if (!Array.isArray(doc.attestations)) return { bytes: null, state: 'invalid' };
    } catch {
      return { bytes: null, state: 'invalid' };
    }
    return { bytes: answer.body, state: 'fetched' };
  }

  return {
    settings,
    counters: http.counters,
    packument,
    resolve,
    fetch: fetchArtifact,
    close: () => http.close(),
  };
}

interface ExpectedDigests {
  sri: { algorithm: 'sha512' | 'sha1'; digest: Buffer }[];
  shasum: string | null;
}

function expectedDigests(dist: Partial<NpmVersionManifest['dist']>): ExpectedDigests | null {
  const sri: ExpectedDigests['sri'] = [];
  if (typeof dist.integrity === 'string') {
    for (const token of dist.integrity.trim().split(/\s+/)) {
      const match = /^(sha512|sha1)-([A-Za-z0-9+/]+={0,2})(?:\?.*)?$/.exec(token);
      if (match) sri.push({ algorithm: match[1] as 'sha512' | 'sha1', digest: Buffer.from(match[2]!, 'base64') });
    }
  }
  const shasum = typeof dist.shasum === 'string' && /^[0-9a-f]{40}$/i.test(dist.shasum) ? dist.shasum.toLowerCase() : null;
  if (sri.length === 0 && shasum === null) return null;
  return { sri, shasum };
}

/** The canonical purl of an npm version, exactly as `@vigil/core` (and so the server) writes it. */
export function npmPurl(name: string, version: string): string {
  const encodedName = name.startsWith('@') ? `%40${name.slice(1)}` : name;
  return parsePackageRef(`pkg:npm/${encodedName}@${encodeURIComponent(version)}`).purl;
}

function npmTrack(bytes: Buffer, maxGunzippedBytes: number): TrackChoice {
  const entries = tarGzEntries(bytes, (path) => /^[^/]+\/package\.json$/.test(path), maxGunzippedBytes);
  const root = entries[0]?.path.split('/')[0];
  const files = entries.filter((entry) => entry.path.split('/')[0] === root).map((entry) => entry.path.slice(root!.length + 1));
  const packageJson = entries.find((entry) => entry.path === `${root}/package.json`)?.content;
  let manifest: Record<string, unknown> | null = null;
  if (packageJson) {
    try {
      const parsed = JSON.parse(packageJson.toString('utf8')) as unknown;
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) manifest = parsed as Record<string, unknown>;
    } catch {
      manifest = null;
    }
  }
  return chooseTrack({ ecosystem: 'npm', manifest, files });
}
