import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';

const URL_DEPENDENCY = /^(https?:|git(\+[a-z]+)?:|git@|github:|gitlab:|bitbucket:|[\w-]+\/[\w.-]+(#.*)?$)/i;
// Hosts that serve source or tarballs of public code: a dependency there is a fork or a pre-release, not a drop.
const CODE_HOSTS = /(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|registry\.npmjs\.org|npmjs\.com|registry\.yarnpkg\.com|pkg\.pr\.new|codeload\.github\.com|jsr\.io|sourceforge\.net|gitee\.com|codeberg\.org)$/i;
// A company's own network (a private address, a single-label or internal name): a mirror there is not an attacker's host.
const PRIVATE_HOST = /^(?:10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|\[)|^[^.]+$|\.(?:local|internal|lan|corp|intranet|home\.arpa)$/i;
const DEPENDENCY_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'devDependencies'] as const;

function hostOf(spec: string): string | null {
  try {
    return new URL(spec).hostname.toLowerCase();
  } catch {
    return null;
  }
}

// The package's own sites (homepage, repository, bugs): a tarball served there is the author's own build.
function ownHosts(manifest: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const add = (v: unknown) => {
    const url = typeof v === 'string' ? v : typeof v === 'object' && v !== null ? (v as { url?: unknown }).url : undefined;
    if (typeof url !== 'string') return;
    const h = hostOf(url.replace(/^git\+/, ''));
    if (h !== null) out.add(h.split('.').slice(-2).join('.'));
  };
  add(manifest.homepage);
  add(manifest.repository);
  add(manifest.bugs);
  return out;
}

/**
 * Dependencies a package.json takes from outside the registry. A tarball URL on a host that is
 * neither a public code host nor one of the package's own sites is "remote dynamic dependency"
 * (PhantomRaven, 2025): the registry never sees the code, and the host can serve each installer
 * something else. That is HIGH; over plain http HIGH; git and code-host URLs MED (forks, pre-releases).
 * devDependencies are installed only in the package's own checkout, so they count in repositories only.
 */
export function urlDependencyFindings(manifest: Record<string, unknown>, manifestText: string | null, file: string, options: { devDependencies?: boolean; subject?: string } = {}): AgentFinding[] {
  const out: AgentFinding[] = [];
  const own = ownHosts(manifest);
  const lineOf = (key: string): { line?: number } => {
    const at = manifestText?.indexOf(JSON.stringify(key)) ?? -1;
    return at >= 0 && manifestText ? { line: lineAt(manifestText, at) } : {};
  };
  for (const field of DEPENDENCY_FIELDS) {
    if (field === 'devDependencies' && options.devDependencies !== true) continue;
    const deps = manifest[field];
    if (typeof deps !== 'object' || deps === null) continue;
    for (const [dep, raw] of Object.entries(deps as Record<string, unknown>)) {
      if (typeof raw !== 'string') continue;
      const spec = raw.trim();
      if (!URL_DEPENDENCY.test(spec)) continue;
      // git over a URL (`git+http://`, `git+https://`, `git://`) fetches code as a tarball does: judged
      // by the same host (PhantomRaven's class, r16). `git+ssh://git@host` and scp-like `git@host:` stay MED.
      const gitUrl = /^git(?:\+https?)?:\/\//i.test(spec);
      const host = /^https?:/i.test(spec) || gitUrl ? hostOf(spec.replace(/^git\+/i, '').replace(/^git:/i, 'https:')) : null;
      const foreign = host !== null && !CODE_HOSTS.test(host) && !own.has(host.split('.').slice(-2).join('.')) && !/^(localhost|127\.0\.0\.1)$/.test(host);
      const plain = /^http:/i.test(spec);
      const title = plain ? 'Dependency fetched over plain http' : foreign ? (gitUrl ? 'Dependency fetched from a git server on a foreign host' : 'Dependency downloaded from a URL on a foreign host') : 'Dependency installed from a URL or git, outside the registry';
      // Plain http on a host that is not the package's own: whoever is on the path, or the host, serves
      // the code npm installs and runs the scripts of (PhantomRaven, Koi Security, Oct 2025). A tarball
      // over https from a vendor's CDN (`cdn.sheetjs.com`) stays HIGH.
      const severity = plain && foreign && !PRIVATE_HOST.test(host ?? '') ? 'CRIT' : foreign || plain ? 'HIGH' : 'MED';
      out.push(referenceFinding({ category: 'dependency_confusion', severity, title: options.subject ? `${options.subject}: ${title}` : title, file, ...lineOf(dep), evidence: `${dep}: ${spec}`.slice(0, 300) }));
    }
  }
  return out;
}
