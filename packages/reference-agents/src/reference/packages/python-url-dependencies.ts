import type { AgentFinding, Severity } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { imitatedRegistry } from '../repositories/lookalike-host.js';

/** Files that declare a Python project's dependencies: setup.py, setup.cfg, pyproject.toml, requirements and constraints files. */
export const PYTHON_DEPENDENCY_FILE = /(?:^|\/)(?:setup\.py|setup\.cfg|pyproject\.toml|Pipfile|[\w.-]*requirements[\w.-]*\.(?:txt|in)|constraints[\w.-]*\.(?:txt|in))$/i;

// A PEP 508 direct reference (`name[extra] @ https://…`), or a URL alone on a requirements line / in dependency_links.
const DIRECT_REFERENCE = /(?:^|["'\s,[])([A-Za-z0-9][\w.-]*(?:\[[^\]\n]*\])?)\s*@\s*((?:git\+)?(?:https?|git|ssh):\/\/[^\s"',;\]#]+)/gm;
const BARE_URL_LINE = /^[ \t]*((?:git\+)?https?:\/\/[^\s"',;#]+\.(?:whl|tar\.gz|zip|tgz)(?:#[^\s]*)?)\s*$/gim;
const DEPENDENCY_LINKS = /dependency_links\s*=\s*\[([^\]]{0,2000})\]/g;
// Hosts that serve public source and wheels: a dependency there is a fork or a pre-release, not a drop.
const CODE_HOSTS = /(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|files\.pythonhosted\.org|pypi\.org|pythonhosted\.org|download\.pytorch\.org|data\.pyg\.org|codeberg\.org|sourceforge\.net|huggingface\.co)$/i;
const PRIVATE_HOST = /^(?:localhost|127\.0\.0\.1|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|\[)|^[^.]+$|\.(?:local|internal|lan|corp|intranet|home\.arpa)$/i;

function hostOf(url: string): string | null {
  try {
    return new URL(url.replace(/^git\+/i, '').replace(/^git:/i, 'https:').replace(/^ssh:\/\/git@/i, 'https://')).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Dependencies a Python project takes from a URL instead of the index (`colorama @ https://…whl`,
 * a wheel URL on a requirements line, `dependency_links`). pip installs what the URL serves, unsigned
 * and unseen by PyPI, and runs its code. A host that imitates a registry's (`files.pythonhosted-cdn.org`,
 * `pypi-mirror.example` spelling `pythonhosted`/`pypi`) is the top.gg campaign's trojanised colorama
 * (Checkmarx, March 2024): CRIT. Another foreign host: HIGH (over plain http too). Public code and
 * wheel hosts, and a company's own network: MED (forks, pre-releases, internal builds).
 */
export function pythonUrlDependencyFindings(path: string, text: string, subject = 'Dependency'): AgentFinding[] {
  if (!/:\/\//.test(text)) return [];
  const out: AgentFinding[] = [];
  const seen = new Set<string>();
  const judge = (name: string, url: string, at: number) => {
    if (seen.has(url) || out.length >= 5) return;
    seen.add(url);
    const host = hostOf(url);
    if (host === null) return;
    const imitated = imitatedRegistry(host);
    const plain = /^(?:git\+)?http:/i.test(url);
    const foreign = !CODE_HOSTS.test(host) && !PRIVATE_HOST.test(host);
    const severity: Severity = imitated !== null ? 'CRIT' : foreign || plain ? 'HIGH' : 'MED';
    const title =
      imitated !== null
        ? `${subject} downloaded from a host imitating ${imitated}`
        : foreign
          ? `${subject} downloaded from a URL on a foreign host, outside the package index`
          : plain
            ? `${subject} fetched over plain http`
            : `${subject} installed from a URL or git, outside the package index`;
    out.push(referenceFinding({ category: 'dependency_confusion', severity, title, file: path, line: lineAt(text, at), evidence: `${name}: ${url}`.slice(0, 300) }));
  };
  for (const m of text.matchAll(DIRECT_REFERENCE)) {
    // An e-mail address or a VCS user (`git@github.com`) is not a dependency.
    if (/^(?:git|ssh)$/i.test(m[1]!)) continue;
    judge(m[1]!, m[2]!, m.index);
  }
  if (/requirements|constraints/i.test(path)) for (const m of text.matchAll(BARE_URL_LINE)) judge(m[1]!.replace(/^.*\//, '').replace(/#.*$/, ''), m[1]!, m.index);
  for (const m of text.matchAll(DEPENDENCY_LINKS)) for (const u of m[1]!.matchAll(/["']((?:git\+)?https?:\/\/[^"']+)["']/g)) judge('dependency_links', u[1]!, m.index + (u.index ?? 0));
  return out;
}
