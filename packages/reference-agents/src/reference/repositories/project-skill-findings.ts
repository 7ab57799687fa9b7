import { join } from 'node:path';
import type { AgentFinding } from '@vigil/core';
import { analyzeSkill } from '../skills/analyze-skill.js';

// Where coding agents load a repository's own skills from: each `<dir>/<name>/SKILL.md` is a skill
// the agent may run with the developer's rights once it works in the checkout.
const PROJECT_SKILL = /^((?:.*\/)?\.(?:claude|agents|codex|cursor|github|gemini|opencode|windsurf|kiro)\/skills?\/[^/]+)\/SKILL\.md$/i;
const VULNERABILITY_CLASS = /runs a shell command built from variable input|evaluates code built at run time/;
/** Skills analyzed per repository at most: a skill collection is judged by its first ones. */
const MAX_PROJECT_SKILLS = 40;

/** The directories of the project skills among a checkout's paths, at most MAX_PROJECT_SKILLS. */
export function projectSkillDirectories(paths: Iterable<string>): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const m = PROJECT_SKILL.exec(path);
    if (m !== null) out.push(m[1]!);
    if (out.length >= MAX_PROJECT_SKILLS) break;
  }
  return out;
}

/** True for a file inside a project skill directory (the skills analysis reads it; the rules-file checks do not). */
export function isInProjectSkill(path: string, skillDirs: ReadonlySet<string>): boolean {
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) if (skillDirs.has(path.slice(0, cut))) return true;
  return false;
}

/**
 * The skills agent's findings for each project skill (`.claude/skills/<name>/`, `.agents/skills/…`),
 * with file paths made relative to the repository: a skill in a checkout is as dangerous as the
 * same skill installed.
 */
export async function projectSkillFindings(root: string, skillDirs: readonly string[]): Promise<AgentFinding[]> {
  const out: AgentFinding[] = [];
  for (const dir of skillDirs) {
    const result = await analyzeSkill({ dir: join(root, dir), track: 'skills', bundleHash: null });
    for (const f of result.findings) {
      // A command or code built from input makes a skill exploitable, not hostile: in the
      // repository's own skills that is a defect of its code like any other, reported at MED.
      const defect = VULNERABILITY_CLASS.test(f.title) && (f.severity === 'HIGH' || f.severity === 'CRIT');
      out.push({ ...f, severity: defect ? 'MED' : f.severity, file: `${dir}/${f.file}` });
    }
  }
  return out;
}
