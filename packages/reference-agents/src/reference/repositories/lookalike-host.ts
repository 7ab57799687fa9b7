import { editDistance } from '../known/typosquat.js';

// The domains package registries and code hosts publish from (and their official aliases).
const OFFICIAL_DOMAINS = new Set(['npmjs.org', 'npmjs.com', 'yarnpkg.com', 'pythonhosted.org', 'pypi.org', 'pypi.io', 'python.org', 'github.com', 'githubusercontent.com', 'gitlab.com', 'bitbucket.org', 'crates.io', 'rubygems.org', 'nuget.org', 'golang.org']);
// The name part of each (`npmjs` of npmjs.org): what an imitation misspells.
const BRANDS = [...new Set([...OFFICIAL_DOMAINS].map((d) => d.split('.')[0] as string))].filter((b) => b.length >= 5);
// Names no one else's host carries (code-host names are carried by enterprise instances: github.acme.com).
const REGISTRY_BRANDS = new Set(['npmjs', 'yarnpkg', 'pythonhosted', 'rubygems', 'crates']);

/** The last two labels of a host name (`registry.npmjs.org` → `npmjs.org`). */
function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  return labels.slice(-2).join('.');
}

/**
 * The official domain a host imitates, or null: a host outside the registries' own domains whose
 * labels contain a package registry's name (`registry.npmjs.org.example`, `npmjs-registry.example`)
 * or whose domain misspells a registry's or code host's by one or two letters
 * (`registry.npmjsjs.org`, `registry.yarnpgk.com`, `githuh.com`). Mirrors under their own names
 * (`registry.npmmirror.com`, an Artifactory host) and enterprise code hosts (`github.acme.com`)
 * are not imitations.
 */
export function imitatedRegistry(host: string): string | null {
  const domain = registrableDomain(host);
  if (OFFICIAL_DOMAINS.has(domain) || /^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null;
  const labels = host.toLowerCase().split('.').flatMap((l) => l.split('-'));
  for (const brand of BRANDS) {
    const official = [...OFFICIAL_DOMAINS].find((d) => d.startsWith(`${brand}.`)) as string;
    if (REGISTRY_BRANDS.has(brand) && labels.includes(brand)) return official;
    const name = domain.split('.')[0] as string;
    if (name !== brand && Math.abs(name.length - brand.length) <= 2 && editDistance(name, brand, 2) <= 2 && name.length >= 5) return official;
  }
  return null;
}
