import semver from 'semver';

/** Why a version is not offered. */
export interface Hidden {
  version: string;
  reason: string;
}

/** How each version of a packument is judged, decided by the caller (the firewall's rules). */
export type VersionJudgement = { hide: false } | { hide: true; reason: string };

/* eslint-disable @typescript-eslint/no-explicit-any -- a packument is the registry's JSON, edited in place by key */
type Packument = Record<string, any>;

/**
 * Rewrites a packument (full or abbreviated) for the firewall: hidden versions leave `versions`
 * and `time`; a `latest` that named one moves to the newest release still offered not newer
 * than it (else the newest offered), any other dist-tag that named one is dropped; every
 * remaining version keeps its `dist` exactly (its `integrity` and `shasum` above all), only its
 * `dist.tarball` is pointed at the firewall (`tarballBase` + `/name/-/file`).
 */
export function filterPackument(doc: Packument, judge: (version: string) => VersionJudgement, tarballBase: string): { doc: Packument; hidden: Hidden[] } {
  const hidden: Hidden[] = [];
  const versions: Packument = doc.versions && typeof doc.versions === 'object' ? doc.versions : {};
  for (const version of Object.keys(versions)) {
    const judgement = judge(version);
    if (judgement.hide) {
      hidden.push({ version, reason: judgement.reason });
      delete versions[version];
      if (doc.time && typeof doc.time === 'object') delete doc.time[version];
      continue;
    }
    const manifest = versions[version];
    const tarball = manifest?.dist?.tarball;
    if (typeof tarball === 'string') {
      const file = tarball.split('/').pop()!;
      manifest.dist.tarball = `${tarballBase}/${String(doc.name ?? manifest.name)}/-/${file}`;
    }
  }
  const offered = Object.keys(versions).filter((v) => semver.valid(v) !== null);
  const tags: Packument = doc['dist-tags'] && typeof doc['dist-tags'] === 'object' ? doc['dist-tags'] : {};
  for (const [tag, version] of Object.entries(tags)) {
    if (typeof version === 'string' && versions[version] !== undefined) continue;
    if (tag !== 'latest' || typeof version !== 'string' || semver.valid(version) === null) {
      delete tags[tag];
      continue;
    }
    // `latest` rolls back: the newest release still offered that is not newer than the hidden one,
    // so `npm install pkg` keeps getting the line the publisher called latest.
    const stable = offered.filter((v) => semver.prerelease(v) === null).sort(semver.rcompare);
    const moved = stable.find((v) => semver.lte(v, version)) ?? stable[0] ?? [...offered].sort(semver.rcompare)[0];
    if (moved === undefined) delete tags[tag];
    else tags[tag] = moved;
  }
  return { doc, hidden };
}
