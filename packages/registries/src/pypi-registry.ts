import { parsePackageRef } from '@vigil/core';
import { chooseTrack, type TrackChoice } from './choose-track.js';
import { tarGzEntries, zipEntries, type ArchiveEntry } from './archive-entries.js';
import { failureOf, fetchMetadata } from './fetch-metadata.js';
import { LruMetadataCache, type CachedMetadata, type MetadataCache } from './metadata-cache.js';
import { isPypiName, normalizePypiName, parsePypiFilename } from './pypi-name.js';
import { refusedTarget } from './refused-target.js';
import { RegistryHttp, type RegistryCounters } from './registry-http.js';
import { resolveRegistrySettings, type RegistrySettings } from './registry-settings.js';
import type { RegistryFailure } from './registry-states.js';

export const PYPI_SIMPLE_JSON = 'application/vnd.pypi.simple.v1+json';

/** One file of a release, from either API. */
export interface PypiFile {
  filename: string;
  url: string;
  kind: 'sdist' | 'wheel';
  /** Lowercase hex; null when the index publishes none (such a file is never fetched). */
  sha256: string | null;
  /** Declared size in bytes (JSON API only). */
  size: number | null;
  yanked: boolean;
  yanked_reason: string | null;
  requires_python: string | null;
}

export type PypiReleaseResult =
  | { state: 'ok'; name: string; version: string; files: PypiFile[]; requires_dist: string[] | null; source: 'json' | 'simple' }
  | RegistryFailure;

export interface PypiArtifact {
  state: 'fetched';
  /** The PEP 503 normalised name. */
  name: string;
  version: string;
  /** `pkg:pypi/<name>@<version>`, with `?file_name=` when the caller named a file. */
  purl: string;
  file: PypiFile;
  /** Why this file is "the" artifact (docs/registries.md, "Which PyPI file"). */
  chosen_because: 'file_name requested' | 'pure-Python wheel' | 'sdist' | 'first wheel by name';
  bytes: Buffer;
  sha256: string;
  /** Whether the release (the chosen file) is yanked, and why. A yanked file is still fetched and judged. */
  yanked: boolean;
  yanked_reason: string | null;
  track: TrackChoice;
}

export type PypiFetchResult = PypiArtifact | RegistryFailure;

export interface PypiRegistry {
  readonly settings: RegistrySettings;
  readonly counters: RegistryCounters;
  /**
   * The project's JSON API document (`/pypi/<name>/json`), revalidated with ETags: the connector's
   * cache, or `revalidate` (an answer the caller kept), whose document a 304 answers.
   */
  project(name: string, options?: { revalidate?: CachedMetadata }): Promise<{ state: 'ok'; document: Record<string, unknown>; etag: string | null; not_modified: boolean } | RegistryFailure>;
  /** Every file of the project from the simple API, PEP 691 JSON form. */
  simpleFiles(name: string): Promise<{ state: 'ok'; files: PypiFile[]; not_modified: boolean } | RegistryFailure>;
  release(name: string, version: string): Promise<PypiReleaseResult>;
  fetch(name: string, version: string, options?: { fileName?: string }): Promise<PypiFetchResult>;
  close(): void;
}

export interface PypiRegistryOptions {
  cache?: MetadataCache;
  onRefused?: (event: { name: string; version: string; failure: RegistryFailure }) => void;
}

export function createPypiRegistry(settings: RegistrySettings, options: PypiRegistryOptions = {}): PypiRegistry {
  const resolved = resolveRegistrySettings(settings);
  const http = new RegistryHttp(resolved);
  const cache = options.cache ?? new LruMetadataCache(resolved.metadataCacheEntries);

  async function project(name: string, { revalidate }: { revalidate?: CachedMetadata } = {}) {
    if (!isPypiName(name)) return { state: 'not_found', detail: `not a PyPI project name: ${JSON.stringify(name)}` } as const;
    const result = await fetchMetadata(http, cache, http.url(`/pypi/${normalizePypiName(name)}/json`), 'application/json', revalidate === undefined ? {} : { revalidate });
    if (result.state !== 'ok') return result;
    return { state: 'ok', document: result.document as Record<string, unknown>, etag: result.etag, not_modified: result.not_modified } as const;
  }

  async function simpleFiles(name: string) {
    if (!isPypiName(name)) return { state: 'not_found', detail: `not a PyPI project name: ${JSON.stringify(name)}` } as const;
    const url = http.url(`/simple/${normalizePypiName(name)}/`);
    const result = await fetchMetadata(http, cache, url, PYPI_SIMPLE_JSON, { requireType: PYPI_SIMPLE_JSON });
    if (result.state !== 'ok') return result;
    const doc = result.document as { meta?: { 'api-version'?: unknown }; files?: unknown };
    if (typeof doc.meta?.['api-version'] !== 'string' || !doc.meta['api-version'].startsWith('1.') || !Array.isArray(doc.files)) {
      return { state: 'invalid_metadata', detail: `${url}: not a PEP 691 v1 JSON answer` } as const;
    }
    const files: PypiFile[] = [];
    for (const raw of doc.files as unknown[]) {
      if (raw === null || typeof raw !== 'object') continue;
      const file = raw as Record<string, unknown>;
      const filename = typeof file.filename === 'string' ? file.filename : null;
      const parsed = filename === null ? null : parsePypiFilename(filename, name);
      const fileUrl = typeof file.url === 'string' ? absoluteUrl(file.url, url) : null;
      if (filename === null || parsed === null || fileUrl === null) continue;
      const hashes = (file.hashes !== null && typeof file.hashes === 'object' ? file.hashes : {}) as Record<string, unknown>;
      files.push({
        filename,
        url: fileUrl,
        kind: parsed.kind,
        sha256: sha256Of(hashes.sha256),
        size: typeof file.size === 'number' ? file.size : null,
        yanked: file.yanked !== undefined && file.yanked !== null && file.yanked !== false,
        yanked_reason: typeof file.yanked === 'string' && file.yanked !== '' ? file.yanked : null,
        requires_python: typeof file['requires-python'] === 'string' ? file['requires-python'] : null,
      });
    }
    return { state: 'ok', files, not_modified: result.not_modified } as const;
  }

  async function release(name: string, version: string): Promise<PypiReleaseResult> {
    if (!isPypiName(name)) return { state: 'not_found', detail: `not a PyPI project name: ${JSON.stringify(name)}` };
    const normalised = normalizePypiName(name);
    const url = http.url(`/pypi/${normalised}/${encodeURIComponent(version)}/json`);
    const result = await fetchMetadata(http, cache, url, 'application/json');
    if (result.state === 'ok') {
      const doc = result.document as { info?: Record<string, unknown> | null; urls?: unknown };
      if (!Array.isArray(doc.urls)) return { state: 'invalid_metadata', detail: `${url}: no urls array` };
      const files = (doc.urls as unknown[]).flatMap((entry): PypiFile[] => {
        if (entry === null || typeof entry !== 'object') return [];
        const raw = entry as Record<string, unknown>;
        const fileUrl = typeof raw.url === 'string' ? absoluteUrl(raw.url, url) : null;
        if (typeof raw.filename !== 'string' || fileUrl === null) return [];
        const kind = raw.packagetype === 'bdist_wheel' ? 'wheel' : raw.packagetype === 'sdist' ? 'sdist' : null;
        if (kind === null) return [];
        // As on the simple API: a file named for another project or another version is not this release's.
        if (parsePypiFilename(raw.filename, name)?.version !== version) return [];
        const digests = (raw.digests !== null && typeof raw.digests === 'object' ? raw.digests : {}) as Record<string, unknown>;
        return [{
          filename: raw.filename,
          url: fileUrl,
          kind,
          sha256: sha256Of(digests.sha256),
          size: typeof raw.size === 'number' ? raw.size : null,
          yanked: raw.yanked === true,
          yanked_reason: typeof raw.yanked_reason === 'string' && raw.yanked_reason !== '' ? raw.yanked_reason : null,
          requires_python: typeof raw.requires_python === 'string' ? raw.requires_python : null,
        }];
      });
      const requires = doc.info?.requires_dist;
      return { state: 'ok', name: normalised, version, files, requires_dist: Array.isArray(requires) ? requires.filter((r): r is string => typeof r === 'string') : null, source: 'json' };
    }
    if (result.state !== 'not_found') return result;
    // A 404 for the release: either the project or the version is missing, or the index (a mirror)
    // has no JSON API. The simple API, which every index serves, tells which.
    const simple = await simpleFiles(name);
    if (simple.state !== 'ok') return simple;
    const files = simple.files.filter((file) => parsePypiFilename(file.filename, name)?.version === version);
    if (files.length === 0) return { state: 'version_not_found', detail: `${normalised}: no files for version ${JSON.stringify(version)}` };
    return { state: 'ok', name: normalised, version, files, requires_dist: null, source: 'simple' };
  }

  async function fetchArtifact(name: string, version: string, { fileName }: { fileName?: string } = {}): Promise<PypiFetchResult> {
    const found = await release(name, version);
    if (found.state !== 'ok') return found;
    const choice = fileName === undefined ? chooseReleaseFile(found.files) : (() => {
      const file = found.files.find((candidate) => candidate.filename === fileName);
      return file === undefined ? null : { file, because: 'file_name requested' as const };
    })();
    if (choice === null) {
      return fileName === undefined
        ? { state: 'invalid_metadata', detail: `${found.name} ${version}: the release has no sdist or wheel` }
        : { state: 'version_not_found', detail: `${found.name} ${version}: no file ${JSON.stringify(fileName)}` };
    }
    const { file } = choice;
    if (file.sha256 === null) return { state: 'invalid_metadata', detail: `${file.filename}: the index publishes no sha256` };
    if (file.size !== null && file.size > resolved.maxArtifactBytes) {
      http.counters.tooLarge += 1;
      return refused(found.name, version, { state: 'too_large', limit_bytes: resolved.maxArtifactBytes, declared_bytes: file.size, detail: `${file.filename}: declared ${file.size} bytes, more than the ${resolved.maxArtifactBytes}-byte limit` });
    }
    const download = await http.get(file.url, { headers: { accept: 'application/octet-stream' }, maxBytes: resolved.maxArtifactBytes, digests: ['sha256'] });
    const failure = failureOf(download, file.url);
    if (failure !== null) {
      if (failure.state === 'not_found') return { state: 'invalid_metadata', detail: `${file.filename}: the index lists it but ${failure.detail}` };
      return failure.state === 'too_large' ? refused(found.name, version, failure) : failure;
    }
    if (download.kind !== 'response') throw new Error('unreachable');
    const sha256 = download.digests.sha256!.toString('hex');
    if (sha256 !== file.sha256) {
      http.counters.integrityMismatches += 1;
      return refused(found.name, version, { state: 'integrity_mismatch', expected: `sha256:${file.sha256}`, actual: `sha256:${sha256}`, detail: `${file.filename}: the bytes' sha256 does not match the index` });
    }
    // Canonical as `@vigil/core` writes it, so the server finds the same reference.
    const purl = parsePackageRef(`pkg:pypi/${found.name}@${encodeURIComponent(version)}${fileName === undefined ? '' : `?file_name=${encodeURIComponent(fileName)}`}`).purl;
    return {
      state: 'fetched',
      name: found.name,
      version,
      purl,
      file,
      chosen_because: choice.because,
      bytes: download.body,
      sha256,
      yanked: file.yanked,
      yanked_reason: file.yanked_reason,
      track: pypiTrack(file, download.body, found.requires_dist, resolved.maxArtifactBytes * 8),
    };
  }

  function refused(name: string, version: string, failure: RegistryFailure): RegistryFailure {
    options.onRefused?.({ name, version, failure });
    return failure;
  }

  return { settings, counters: http.counters, project, simpleFiles, release, fetch: fetchArtifact, close: () => http.close() };
}

/** A published sha256 in lowercase hex; anything but 64 hex digits is no digest at all. */
function sha256Of(value: unknown): string | null {
  return typeof value === 'string' && /^[0-9a-f]{64}$/i.test(value) ? value.toLowerCase() : null;
}

/** A file URL as listed (relative ones resolve against the page), or null when it is not one. */
function absoluteUrl(value: string, base: string): string | null {
  try {
    const resolved = new URL(value, base);
    return (resolved.protocol === 'http:' || resolved.protocol === 'https:') && refusedTarget(resolved) === null ? resolved.href : null;
  } catch {
    return null;
  }
}

const PURE_WHEEL_TAGS = ['py3-none-any', 'py2.py3-none-any'];

/**
 * "The" artifact of a release (docs/registries.md): the pure-Python wheel when there is one (it is
 * the file pip installs on every platform, so its bytes are what runs), else the sdist (the source
 * the platform wheels are built from, readable where their compiled code is not), else the first
 * wheel by file name, so the choice never depends on the order an index lists files in.
 */
export function chooseReleaseFile(files: readonly PypiFile[]): { file: PypiFile; because: 'pure-Python wheel' | 'sdist' | 'first wheel by name' } | null {
  const sorted = [...files].sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  for (const tags of PURE_WHEEL_TAGS) {
    const wheel = sorted.find((file) => file.kind === 'wheel' && file.filename.endsWith(`-${tags}.whl`));
    if (wheel) return { file: wheel, because: 'pure-Python wheel' };
  }
  const anyPure = sorted.find((file) => file.kind === 'wheel' && file.filename.endsWith('-none-any.whl'));
  if (anyPure) return { file: anyPure, because: 'pure-Python wheel' };
  const sdist = sorted.find((file) => file.kind === 'sdist' && file.filename.endsWith('.tar.gz')) ?? sorted.find((file) => file.kind === 'sdist');
  if (sdist) return { file: sdist, because: 'sdist' };
  const wheel = sorted.find((file) => file.kind === 'wheel');
  return wheel ? { file: wheel, because: 'first wheel by name' } : null;
}

function pypiTrack(file: PypiFile, bytes: Buffer, requiresDist: string[] | null, maxUnpackedBytes: number): TrackChoice {
  let entries: ArchiveEntry[] = [];
  let rootFiles: string[] = [];
  if (file.kind === 'wheel') {
    entries = zipEntries(bytes, (path) => /^[^/]+\.dist-info\/METADATA$/.test(path), 4 * 1024 * 1024);
    rootFiles = entries.map((entry) => entry.path).filter((path) => !path.includes('/'));
  } else if (file.filename.endsWith('.tar.gz')) {
    entries = tarGzEntries(bytes, (path) => /^[^/]+\/PKG-INFO$/.test(path), maxUnpackedBytes);
    const root = entries[0]?.path.split('/')[0];
    rootFiles = entries.filter((entry) => entry.path.split('/')[0] === root).map((entry) => entry.path.slice(root!.length + 1));
  }
  // The artifact's own metadata first, as for npm's package.json; the index's copy otherwise.
  const metadata = entries.find((entry) => entry.content !== null)?.content?.toString('utf8');
  const fromArtifact = metadata === undefined ? null : [...metadata.split('\n\n')[0]!.matchAll(/^Requires-Dist:\s*(.+)$/gm)].map((match) => match[1]!.trim());
  // Sdists built from setup.py often leave Requires-Dist out of PKG-INFO; the index still knows them.
  return chooseTrack({ ecosystem: 'pypi', requiresDist: fromArtifact !== null && fromArtifact.length > 0 ? fromArtifact : (requiresDist ?? []), files: rootFiles });
}
