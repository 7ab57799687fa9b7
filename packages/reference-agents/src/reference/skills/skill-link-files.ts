import { readlink } from 'node:fs/promises';
import type { AgentFinding } from '@vigil/core';
import type { ArtifactFile, ArtifactLink } from '../common/artifact-files.js';
import { referenceFinding } from '../common/reference-finding.js';
import { resolveLinkInside } from '../common/resolve-link-inside.js';

export interface SkillLinkFiles {
  /** Links to files inside the skill, to read under the link's own path. */
  files: ArtifactFile[];
  /** A finding for each link that leaves the skill or leads nowhere. */
  findings: AgentFinding[];
}

/**
 * The symbolic links of a skill directory. A skill installed from a directory keeps its links, so
 * one pointing outside (`SKILL.md -> ~/.ssh/id_rsa`, `scripts/run.sh -> /somewhere/else`) would
 * make the skill's text or scripts whatever is there on the user's machine: it is reported and
 * never read. A link inside the skill reads as the file it points at; a link to a directory is not
 * followed, as its files are read at their own paths.
 */
export async function skillLinkFiles(dir: string, links: readonly ArtifactLink[]): Promise<SkillLinkFiles> {
  const files: ArtifactFile[] = [];
  const findings: AgentFinding[] = [];
  for (const link of links) {
    const resolved = await resolveLinkInside(dir, link.path);
    if (resolved.kind === 'inside') {
      if (resolved.isFile) files.push({ path: link.path, absPath: resolved.absPath, size: resolved.size });
      continue;
    }
    // The link itself is inside the skill: reading what it says touches nothing outside.
    const evidence = `${link.path} -> ${await readlink(link.absPath)}`;
    if (resolved.kind === 'outside') findings.push(referenceFinding({ category: 'skill_format', severity: 'MED', title: 'symbolic link points outside the skill', file: link.path, evidence }));
    else findings.push(referenceFinding({ category: 'skill_format', severity: 'LOW', title: 'symbolic link leads nowhere', file: link.path, evidence }));
  }
  return { files, findings };
}
