import type { OsvAffected, OsvRange } from './osv-record.js';
import type { AdvisoryEcosystem } from './package-names.js';
import { versionOrder, type VersionOrder } from './version-order.js';

/** What matching keeps of one `affected[]` entry: the ranges it can order, and the listed versions. */
export interface StoredAffected {
  ranges: { type: 'ECOSYSTEM' | 'SEMVER'; events: OsvRange['events'] }[];
  versions: string[];
}

/** The part of an `affected[]` entry matching reads; `GIT` ranges (commit hashes, no version order) are left out. */
export function storedAffected(entry: OsvAffected): StoredAffected {
  return {
    ranges: (entry.ranges ?? [])
      .filter((r): r is OsvRange & { type: 'ECOSYSTEM' | 'SEMVER' } => r.type === 'ECOSYSTEM' || r.type === 'SEMVER')
      .map((r) => ({ type: r.type, events: r.events })),
    versions: entry.versions ?? [],
  };
}

type Bound = { kind: 'introduced' | 'fixed' | 'last_affected' | 'limit'; version: unknown; zero: boolean };

function eventBound(event: OsvRange['events'][number]): { kind: Bound['kind']; text: string } {
  if ('introduced' in event) return { kind: 'introduced', text: event.introduced };
  if ('fixed' in event) return { kind: 'fixed', text: event.fixed };
  if ('last_affected' in event) return { kind: 'last_affected', text: event.last_affected };
  return { kind: 'limit', text: event.limit };
}

/**
 * The OSV evaluation (schema "Evaluation"): within a range, events sorted by version; `introduced`
 * at or below the version makes it affected, `fixed` at or below makes it not, `last_affected`
 * below makes it not; `limit` events bound the range from above (none: no bound). A bound the
 * ordering cannot read never makes a version look safe: an unreadable `introduced` counts as `0`,
 * an unreadable `fixed`, `last_affected` or `limit` is ignored.
 */
function inRange(order: VersionOrder<unknown>, version: unknown, events: OsvRange['events']): boolean {
  const bounds: Bound[] = [];
  for (const event of events) {
    const { kind, text } = eventBound(event);
    if (kind === 'introduced' && text === '0') {
      bounds.push({ kind, version: undefined, zero: true });
      continue;
    }
    if (kind === 'limit' && text === '*') continue;
    const parsed = order.parse(text);
    if (parsed === undefined) {
      if (kind === 'introduced') bounds.push({ kind, version: undefined, zero: true });
      continue;
    }
    bounds.push({ kind, version: parsed, zero: false });
  }
  const limits = bounds.filter((b) => b.kind === 'limit');
  if (limits.length > 0 && !limits.some((b) => order.compare(version, b.version) < 0)) return false;
  const sorted = bounds
    .filter((b) => b.kind !== 'limit')
    .sort((a, b) => (a.zero ? (b.zero ? 0 : -1) : b.zero ? 1 : order.compare(a.version, b.version)));
  let affected = false;
  for (const bound of sorted) {
    if (bound.kind === 'introduced') {
      if (bound.zero || order.compare(version, bound.version) >= 0) affected = true;
    } else if (bound.kind === 'fixed') {
      if (order.compare(version, bound.version) >= 0) affected = false;
    } else if (order.compare(version, bound.version) > 0) {
      affected = false;
    }
  }
  return affected;
}

/**
 * Whether `version` of a package is affected by one stored `affected[]` entry: listed in its
 * `versions` (compared in the ecosystem's order when both sides parse, as text otherwise), or inside
 * one of its ranges. A version the ordering cannot read (`latest`, a git URL) matches listed versions
 * only.
 */
export function isAffected(ecosystem: AdvisoryEcosystem, affected: StoredAffected, version: string): boolean {
  const ecosystemOrder = versionOrder(ecosystem, 'ECOSYSTEM')!;
  const mine = ecosystemOrder.parse(version);
  for (const listed of affected.versions) {
    if (listed === version) return true;
    const theirs = mine === undefined ? undefined : ecosystemOrder.parse(listed);
    if (theirs !== undefined && ecosystemOrder.compare(mine, theirs) === 0) return true;
  }
  for (const range of affected.ranges) {
    const order = versionOrder(ecosystem, range.type)!;
    const parsed = order.parse(version);
    if (parsed !== undefined && inRange(order, parsed, range.events)) return true;
  }
  return false;
}

/** The `fixed` versions of the entries, once each, in the ecosystem's order (versions it cannot read last, as written). */
export function fixedVersions(ecosystem: AdvisoryEcosystem, entries: readonly StoredAffected[]): string[] {
  const order = versionOrder(ecosystem, 'ECOSYSTEM')!;
  const texts = new Set<string>();
  for (const entry of entries) for (const range of entry.ranges) for (const event of range.events) if ('fixed' in event) texts.add(event.fixed);
  const readable: { text: string; version: unknown }[] = [];
  const unreadable: string[] = [];
  for (const text of texts) {
    const version = order.parse(text);
    if (version === undefined) unreadable.push(text);
    else readable.push({ text, version });
  }
  readable.sort((a, b) => order.compare(a.version, b.version));
  return [...readable.map((r) => r.text), ...unreadable];
}
