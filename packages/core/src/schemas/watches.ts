import * as z from 'zod';
import { parsePackageRef } from '../purl.js';
import { OffsetTimestamp } from '../timestamps.js';

// Following releases (docs/watches.md): package names Vigil polls its registries for, so each new
// version is fetched and judged as soon as it is published.

export const WATCH_ECOSYSTEMS = ['npm', 'pypi'] as const;
export const WatchEcosystem = z.enum(WATCH_ECOSYSTEMS);
export type WatchEcosystem = z.infer<typeof WatchEcosystem>;

/** How a watch was made: `POST /v1/watches`, a verified repository push's lockfiles, or the operator's list. */
export const WATCH_SOURCES = ['api', 'repository', 'operator'] as const;
export const WatchSource = z.enum(WATCH_SOURCES);
export type WatchSource = z.infer<typeof WatchSource>;

/** npm names as the registry accepts them; legacy names with capitals (`JSONStream`) included. */
const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;
/** PEP 508 project names. */
const PYPI_NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;

export class WatchRefError extends Error {
  override name = 'WatchRefError';
}

/** A watched package: its ecosystem and its name as the registry spells it (PyPI: PEP 503-normalised). */
export interface WatchTarget {
  ecosystem: WatchEcosystem;
  name: string;
}

function npmTarget(name: string, input: string): WatchTarget {
  if (/^@?[^@]+@/.test(name)) throw new WatchRefError(`package: ${JSON.stringify(input)} names a version; a watch names a package (drop the @version)`);
  if (name.length > 214 || !NPM_NAME.test(name)) throw new WatchRefError(`package: ${JSON.stringify(name)} is not an npm package name`);
  return { ecosystem: 'npm', name };
}

function pypiTarget(name: string, input: string): WatchTarget {
  // `requests==2.0`, `requests @ 2.0`, `requests 2.0`: a version; any other space (`Bad Name`) is just not a project name.
  if (/[@=<>!~]/.test(name) || /^\S+\s+v?\d\S*$/.test(name)) throw new WatchRefError(`package: ${JSON.stringify(input)} names a version; a watch names a package (drop the version)`);
  if (name.length > 200 || !PYPI_NAME.test(name)) throw new WatchRefError(`package: ${JSON.stringify(name)} is not a PyPI project name`);
  return { ecosystem: 'pypi', name: name.toLowerCase().replace(/[-_.]+/g, '-') };
}

/**
 * Reads what a watch names: `npm:<name>` (`npm:left-pad`, `npm:@scope/x`, `npm:JSONStream`: the
 * registry's spelling, capitals kept), `pypi:<name>` (normalised as PEP 503 says), or a purl
 * without version, qualifiers or subpath (`pkg:npm/%40scope/x`, `pkg:npm/JSONStream`: npm purls keep
 * their case too, `pkg:pypi/requests`).
 * Throws WatchRefError with a `package: …` sentence otherwise.
 */
export function parseWatchRef(input: string): WatchTarget {
  if (typeof input !== 'string' || input === '') throw new WatchRefError('package: expected a package name such as npm:left-pad or pypi:requests');
  if (input.length > 300) throw new WatchRefError(`package: at most 300 characters, got ${input.length}`);
  if (input.startsWith('npm:')) return npmTarget(input.slice(4), input);
  if (input.startsWith('pypi:')) return pypiTarget(input.slice(5), input);
  if (input.startsWith('pkg:')) {
    let ref;
    try {
      ref = parsePackageRef(input);
    } catch (error) {
      throw new WatchRefError(`package: ${(error as Error).message.replace(/^input: /, '')}`);
    }
    if (ref.type !== 'npm' && ref.type !== 'pypi') throw new WatchRefError(`package: only npm and pypi packages are watched, not ${ref.type}`);
    if (ref.version !== null) throw new WatchRefError(`package: ${JSON.stringify(input)} names a version; a watch names a package (drop the @version)`);
    if (Object.keys(ref.qualifiers).length > 0 || input.includes('#')) throw new WatchRefError('package: a watched purl takes no qualifiers or subpath');
    if (ref.type === 'npm') {
      if (ref.name.includes('/') || ref.name.includes('@')) throw new WatchRefError(`package: ${JSON.stringify(input)} is not an npm package name`);
      return npmTarget(ref.namespace === null ? ref.name : `${ref.namespace}/${ref.name}`, input);
    }
    if (ref.namespace !== null) throw new WatchRefError(`package: ${JSON.stringify(input)} is not a PyPI project name`);
    return pypiTarget(ref.name, input);
  }
  throw new WatchRefError(`package: expected npm:<name>, pypi:<name> or a purl without version (pkg:npm/…, pkg:pypi/…), got ${JSON.stringify(input)}`);
}

/** `npm:<name>` / `pypi:<name>`: how a watched package is written in answers. */
export function watchRefText(target: WatchTarget): string {
  return `${target.ecosystem}:${target.name}`;
}

/** A watch reference as the wire carries it, read into its target. */
export const WatchRefString = z.string().transform((value, ctx) => {
  try {
    return parseWatchRef(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^package: /, '') });
    return z.NEVER;
  }
});

export const WatchId = z.string().regex(/^wat_[0-9a-f]{24}$/, 'expected wat_<24 hex digits>');
export type WatchId = z.infer<typeof WatchId>;

export const WatchIdParams = z.object({ id: WatchId });
export type WatchIdParams = z.infer<typeof WatchIdParams>;

/** `POST /v1/watches`. */
export const WatchCreateRequest = z.strictObject({ package: WatchRefString });
export type WatchCreateRequest = z.input<typeof WatchCreateRequest>;

/** Where the watcher stands on a watched name (shared by every account watching it). */
export const WatchPoll = z.object({
  /** When the registry was last asked; null before the first poll. */
  last_polled_at: OffsetTimestamp.nullable(),
  /** When the next poll is due. */
  next_poll_at: OffsetTimestamp,
  /** The `latest` version the registry named at the last answer; null before it. */
  latest: z.string().nullable(),
  /** How many versions the last answer listed; null before it. */
  versions: z.int().min(0).nullable(),
  /** `<state>: <sentence>` of the last poll when it failed; null after a successful one. */
  last_error: z.string().nullable(),
  /** Polls failed in a row; the next poll backs off with it. */
  failures: z.int().min(0),
});
export type WatchPoll = z.infer<typeof WatchPoll>;

export const Watch = z.object({
  id: WatchId,
  /** `npm:<name>` or `pypi:<name>`, the registry's spelling. */
  package: z.string(),
  ecosystem: WatchEcosystem,
  name: z.string(),
  source: WatchSource,
  created_at: OffsetTimestamp,
  poll: WatchPoll,
});
export type Watch = z.infer<typeof Watch>;

export const WatchResponse = z.object({ data: Watch });
export type WatchResponse = z.infer<typeof WatchResponse>;

/** `GET /v1/watches` takes no query parameter (pagination is by headers): any one is a 422, not silently ignored. */
export const WatchListQuery = z.strictObject({});
export type WatchListQuery = z.infer<typeof WatchListQuery>;

export const WatchList = z.object({ data: z.array(Watch) });
export type WatchList = z.infer<typeof WatchList>;

/** The watcher as the operator sees it (`GET /v1/admin/registries/watcher`, `vigil-server registries status`). */
export const WatcherSummary = z.object({
  server_time: OffsetTimestamp,
  /** Distinct package names with at least one watch. */
  names: z.int().min(0),
  /** Watches by source (`operator` is the deployment's own list). */
  watches: z.record(WatchSource, z.int().min(0)),
  /** Names whose next poll time has come and that no live lease holds. */
  due: z.int().min(0),
  /** The earliest next-poll time among them; `server_time` minus this is how far behind the watcher is. Null when none is due. */
  oldest_due_at: OffsetTimestamp.nullable(),
  /** Names whose last poll failed. */
  failing: z.int().min(0),
});
export type WatcherSummary = z.infer<typeof WatcherSummary>;
