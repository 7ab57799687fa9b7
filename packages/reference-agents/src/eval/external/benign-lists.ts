import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** An npm package pinned to one version (the bytes are fetched into the cache, never committed). */
export interface PinnedNpmPackage {
  name: string;
  version: string;
  /** The tarball's `integrity` as the registry gave it when the list was pinned. */
  integrity?: string;
}

/** A skill directory of a public skill collection, pinned to a commit. */
export interface PinnedSkill {
  /** `owner/name` on GitHub. */
  repo: string;
  commit: string;
  /** The skill's directory (the one holding `SKILL.md`). */
  path: string;
}

/** A public repository, pinned to a commit. */
export interface PinnedRepository {
  repo: string;
  commit: string;
}

export interface BenignLists {
  npm: PinnedNpmPackage[];
  mcpNpm: PinnedNpmPackage[];
  skills: PinnedSkill[];
  repositories: PinnedRepository[];
}

/** The committed lists: `packages/reference-agents/eval/external/{npm-top,mcp-servers-npm,skills,repositories}.json`. */
export const BENIGN_LIST_FILES = { npm: 'npm-top.json', mcpNpm: 'mcp-servers-npm.json', skills: 'skills.json', repositories: 'repositories.json' } as const;

interface ListFile<T> {
  /** How the list was chosen, for a person reading it. */
  about: string;
  items: T[];
}

function checkNpm(items: unknown, file: string): PinnedNpmPackage[] {
  if (!Array.isArray(items)) throw new Error(`${file}: items must be an array`);
  return items.map((x, i) => {
    const p = x as Partial<PinnedNpmPackage>;
    if (typeof p.name !== 'string' || typeof p.version !== 'string' || !/^\d+\.\d+\.\d+/.test(p.version)) throw new Error(`${file}: item ${i} needs a name and an exact version`);
    return { name: p.name, version: p.version, ...(typeof p.integrity === 'string' ? { integrity: p.integrity } : {}) };
  });
}

const COMMIT = /^[0-9a-f]{40}$/;

/** Reads and checks the pinned benign lists from `listDir`. */
export async function loadBenignLists(listDir: string): Promise<BenignLists> {
  const read = async <T>(file: string) => (JSON.parse(await readFile(join(listDir, file), 'utf8')) as ListFile<T>).items;
  const skills = await read<PinnedSkill>(BENIGN_LIST_FILES.skills);
  const repositories = await read<PinnedRepository>(BENIGN_LIST_FILES.repositories);
  for (const s of skills) if (typeof s.repo !== 'string' || !COMMIT.test(s.commit) || typeof s.path !== 'string') throw new Error(`${BENIGN_LIST_FILES.skills}: ${JSON.stringify(s)} needs repo, a 40-hex commit and path`);
  for (const r of repositories) if (typeof r.repo !== 'string' || !COMMIT.test(r.commit)) throw new Error(`${BENIGN_LIST_FILES.repositories}: ${JSON.stringify(r)} needs repo and a 40-hex commit`);
  return {
    npm: checkNpm(await read(BENIGN_LIST_FILES.npm), BENIGN_LIST_FILES.npm),
    mcpNpm: checkNpm(await read(BENIGN_LIST_FILES.mcpNpm), BENIGN_LIST_FILES.mcpNpm),
    skills,
    repositories,
  };
}
