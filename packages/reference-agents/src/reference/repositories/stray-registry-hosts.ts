import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { POPULAR_NPM } from '../known/popular-names.js';

/**
 * Lockfile injection (Snyk, 2019; poisoned-lockfile pull requests since): one entry's tarball URL
 * is pointed at another server while every other entry keeps the registry, so `npm ci` installs
 * the attacker's build of an ordinary dependency and the diff of a long lockfile reads as noise.
 * The registry a project uses is what the rest of its lockfile and its `.npmrc`/`.yarnrc` say: a
 * host a handful of entries resolve from, that no configuration names and that is no public npm
 * registry or mirror, is a stray. A lockfile wholly on a company registry has no stray; a company
 * scope registry (every `@acme/*` entry on `npm.acme.example`) is a scope's, not a stray.
 * A small lockfile has no majority to go by: there, the project's registry is what its configuration
 * names, or what every other entry resolves from when the stray is one a swap pays for (a popular
 * package, or an entry recorded as running an install script).
 */

// Public npm registries and their well-known mirrors: the same packages, whoever resolved them.
const PUBLIC_NPM = /^(?:registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmmirror\.com|registry\.npm\.taobao\.org|r\.cnpmjs\.org|registry\.nlark\.com|mirrors\.cloud\.tencent\.com|mirrors\.huaweicloud\.com|repo\.huaweicloud\.com|npm\.pkg\.github\.com)$/i;
/** At most this many entries (or this share of all) on a host make it a stray rather than a second registry the project uses. */
const STRAY_MAX_ENTRIES = 3;
const STRAY_MAX_SHARE = 0.05;
/** A lockfile needs this many registry-resolved entries before a majority says which registry it uses. */
const MIN_ENTRIES = 8;

/** Hosts the project's registry configuration names: `registry=`, `@scope:registry=` (.npmrc), `registry` (.yarnrc), `npmRegistryServer` and scope servers (.yarnrc.yml). */
export function configuredRegistryHosts(texts: readonly string[]): Set<string> {
  const hosts = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(/^[ \t]*(?:@[\w.-]+:)?registry[ \t]*[= \t][ \t]*["']?(https?:\/\/[^\s"']+)|^[ \t]*npmRegistryServer:[ \t]*["']?(https?:\/\/[^\s"']+)|^[ \t]*\/\/([^/\s:]+)[^\s]*:_auth/gm)) {
      try {
        hosts.add(new URL(m[1] ?? m[2] ?? `https://${m[3]}`).hostname.toLowerCase());
      } catch {
        // not a URL: nothing configured
      }
    }
  }
  return hosts;
}

interface Resolved {
  host: string;
  name: string;
  line: number;
}

/** Entries resolved to a registry-layout tarball (`…/<name>/-/<name>-<version>.tgz`), with the package name the path gives. */
function registryTarballs(lines: readonly string[]): Resolved[] {
  const out: Resolved[] = [];
  lines.forEach((line, i) => {
    const m = /\bhttps?:\/\/([^/\s"'#]+)((?:\/[^\s"'#]*?)??)\/((?:@|%40)[^/\s"'#]+(?:\/|%2f)[^/\s"'#]+|[^/\s"'#@]+)\/-\/[^/\s"'#]+\.tgz\b/i.exec(line);
    if (m === null) return;
    out.push({ host: m[1]!.toLowerCase().replace(/:\d+$/, ''), name: decodeURIComponent(m[3]!), line: i + 1 });
  });
  return out;
}

/**
 * The stray hosts of a lockfile (package-lock, npm-shrinkwrap, yarn.lock, pnpm-lock): CRIT when a
 * stray entry is recorded as running an install script (the swapped package runs code at
 * install), HIGH otherwise. `withScripts`: names the lockfile records with `hasInstallScript`.
 * `entries`: how many packages the lockfile holds (pnpm and Yarn 2+ record no URL for registry
 * entries, so those count for the default registry).
 */
export function strayRegistryHostFindings(path: string, content: string, entries: number, withScripts: ReadonlySet<string>, configured: ReadonlySet<string>): AgentFinding[] {
  const lines = content.split('\n');
  const tarballs = registryTarballs(lines);
  if (tarballs.length === 0) return [];
  const byHost = new Map<string, Resolved[]>();
  for (const t of tarballs) byHost.set(t.host, [...(byHost.get(t.host) ?? []), t]);
  const total = Math.max(entries, tarballs.length);
  const known = (h: string) => PUBLIC_NPM.test(h) || configured.has(h);
  const configuredPublic = configured.size > 0 && [...configured].every((h) => PUBLIC_NPM.test(h));
  const out: AgentFinding[] = [];
  for (const [host, list] of byHost) {
    if (known(host)) continue;
    if (list.length > Math.max(STRAY_MAX_ENTRIES, total * STRAY_MAX_SHARE)) continue;
    const others = tarballs.filter((t) => t.host !== host);
    if (total < MIN_ENTRIES || total - list.length < MIN_ENTRIES - 1) {
      // Small: every other entry on a public or configured registry, at least as many as the stray's, and a reason to trust that registry as the project's.
      const swapPays = list.some((t) => withScripts.has(t.name) || POPULAR_NPM.includes(t.name));
      if (others.length < Math.max(2, list.length) || !others.every((t) => known(t.host)) || !(configuredPublic || swapPays)) continue;
    }
    // A scope's registry: every entry of the scope(s) this host serves resolves from it.
    const scopes = new Set(list.map((t) => (t.name.startsWith('@') ? t.name.split('/')[0] : '')));
    if (!scopes.has('') && tarballs.filter((t) => scopes.has(t.name.split('/')[0]!)).every((t) => t.host === host)) continue;
    const scripted = list.filter((t) => withScripts.has(t.name));
    const lead = scripted[0] ?? list[0]!;
    out.push(
      referenceFinding({
        category: 'dependency_confusion',
        severity: scripted.length > 0 ? 'CRIT' : 'HIGH',
        title: scripted.length > 0 ? 'lockfile entry that runs an install script resolves from a host the rest of the lockfile does not use' : 'lockfile entry resolves from a host the rest of the lockfile and the registry configuration do not use',
        file: path,
        line: lead.line,
        evidence: `${list.map((t) => t.name).slice(0, 5).join(', ')} from ${host} (${total - list.length} other entries from the project's registry${configured.size > 0 ? `; configured: ${[...configured].slice(0, 3).join(', ')}` : ''})`,
      }),
    );
  }
  return out;
}
