import type { AgentFinding, Severity } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { imitatedRegistry } from './lookalike-host.js';

// The public registries and the well-known extra indexes of scientific Python (the skills agent's list).
const KNOWN_INDEX_HOST = /^(?:pypi\.org|files\.pythonhosted\.org|pypi\.python\.org|download\.pytorch\.org|pypi\.nvidia\.com|pypi\.ngc\.nvidia\.com|data\.pyg\.org|registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmjs\.com|localhost|127\.0\.0\.1|\[::1\])$/i;

/** What kind of package-index configuration a repository file is, or null. */
export function indexConfigKind(path: string): 'requirements' | 'pip-conf' | 'npmrc' | 'yarnrc' | 'yarnrc-yml' | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/^(?:[\w.-]*requirements[\w.-]*|constraints[\w.-]*)\.(?:txt|in)$/i.test(base)) return 'requirements';
  if (/^pip\.(?:conf|ini)$/i.test(base)) return 'pip-conf';
  if (base === '.npmrc') return 'npmrc';
  if (base === '.yarnrc') return 'yarnrc';
  if (base === '.yarnrc.yml') return 'yarnrc-yml';
  return null;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

// Plain http or a bare IP address: anyone on the path (or the address's owner) serves the packages.
const anonymous = (url: string) => /^http:\/\//i.test(url) || /^https?:\/\/(?:\d{1,3}\.){3}\d{1,3}(?:[:/]|$)/.test(url);

/**
 * Package-index configuration committed in a repository: where `pip install -r requirements.txt`,
 * `pip` with the repository's `pip.conf`, `npm install` or `yarn` take packages from.
 * - An extra index beside PyPI (`--extra-index-url`, `extra-index-url =`) on a host that is not a
 *   public registry: pip installs the highest version found on any index, so an internal-looking
 *   name published there, or on PyPI by someone else, wins (dependency confusion; Birsan, 2021;
 *   torchtriton, Dec 2022): HIGH.
 * - The index replaced (`--index-url`, `-i`, `index-url =`, an unscoped npm / Yarn registry): MED on
 *   a named host (a company mirror), HIGH over plain http or a bare IP address.
 * - `--trusted-host` / `trusted-host =` of a host that is not local: pip stops checking its
 *   certificate: MED.
 * - Any index (extra or replacing) on a host that imitates a registry's name (`lookalike-host.ts`):
 *   CRIT, the top.gg campaign's look-alike PyPI mirror (Checkmarx, March 2024).
 */
export function indexConfigFindings(path: string, text: string): AgentFinding[] {
  const kind = indexConfigKind(path);
  if (kind === null) return [];
  const out: AgentFinding[] = [];
  const push = (severity: Severity, title: string, at: number, evidence: string) => {
    if (!out.some((f) => f.title === title)) out.push(referenceFinding({ category: 'dependency_confusion', severity, title, file: path, line: lineAt(text, at), evidence: evidence.trim().slice(0, 300) }));
  };
  const judge = (option: string, url: string, at: number, evidence: string) => {
    const host = hostOf(url);
    if (host === null || KNOWN_INDEX_HOST.test(host)) return;
    // An index on a host spelled like a registry's (`pypi.pythonhosted-cdn.org`) is no company mirror: it serves an attacker's builds of ordinary packages.
    const imitated = imitatedRegistry(host);
    if (imitated !== null) return push('CRIT', `repository installs packages from an index on a host imitating ${imitated}`, at, evidence);
    if (/extra/i.test(option)) push('HIGH', 'repository installs packages from an extra index beside the public registry (dependency confusion)', at, evidence);
    else push(anonymous(url) ? 'HIGH' : 'MED', anonymous(url) ? 'repository installs every package from a plain-HTTP or bare-IP index' : 'repository installs every package from another index than the public registry', at, evidence);
  };
  if (kind === 'requirements' || kind === 'pip-conf') {
    const option = kind === 'requirements' ? /^[ \t]*(--extra-index-url|--index-url|-i|--trusted-host|--find-links|-f)(?:[ \t]*=[ \t]*|[ \t]+)(\S+)/gm : /^[ \t]*(extra-index-url|extra_index_url|index-url|index_url|trusted-host|trusted_host|find-links|find_links)[ \t]*[=:][ \t]*([^\n]*(?:\n[ \t]+[^\n]+)*)/gim;
    for (const m of text.matchAll(option)) {
      const name = m[1] as string;
      // pip.conf values may list several, one per line or space separated.
      const values = (m[2] as string).split(/\s+/).filter((v) => v !== '');
      for (const value of values) {
        if (/trusted/i.test(name)) {
          const host = value.replace(/^https?:\/\//, '').replace(/[:/].*$/, '').toLowerCase();
          if (!KNOWN_INDEX_HOST.test(host)) push('MED', 'repository turns off TLS checks for a package index (trusted-host)', m.index, m[0]);
        } else if (/find/i.test(name)) {
          if (/^https?:\/\//i.test(value) && imitatedRegistry(hostOf(value) ?? '') !== null) judge(name, value, m.index, m[0]);
          else if (/^https?:\/\//i.test(value) && anonymous(value)) push('HIGH', 'repository installs every package from a plain-HTTP or bare-IP index', m.index, m[0]);
        } else judge(name, value, m.index, m[0]);
      }
    }
    return out;
  }
  // npm and Yarn: only an unscoped registry replaces where every package comes from.
  const registry = kind === 'npmrc' ? /^[ \t]*registry[ \t]*=[ \t]*["']?(\S+?)["']?[ \t]*$/gm : kind === 'yarnrc' ? /^[ \t]*registry[ \t]+["']?(\S+?)["']?[ \t]*$/gm : /^npmRegistryServer:[ \t]*["']?(\S+?)["']?[ \t]*$/gm;
  for (const m of text.matchAll(registry)) judge('registry', m[1] as string, m.index, m[0]);
  return out;
}
