import type { AgentFinding } from '@vigil/core';
import { readArtifactText, type ArtifactFile } from '../common/artifact-files.js';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { memoryPlants, plantedHarm } from '../text/memory-plant.js';

export const PLANT_TITLE = "instruction to write harmful standing orders into the agent's memory or rules files";

/**
 * Orders in a text (a skill's document, a repository's rules file) to write into an agent's memory,
 * judged by what they plant: the text given inline and the artifact's files the order names (a path
 * from the artifact's root or from the text's folder), read as instructions (`plantedHarm`). CRIT for
 * the first harmful one: the orders then run in every later session of the agent.
 */
export async function plantFindings(file: string, text: string, byPath: ReadonlyMap<string, ArtifactFile>): Promise<AgentFinding[]> {
  const plants = memoryPlants(text);
  if (plants.length === 0) return [];
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
  const lineAt = lineLocator(text);
  for (const plant of plants) {
    const shipped: string[] = [];
    for (const token of plant.tokens) {
      if (/(?:^|\/)(?:CLAUDE|AGENTS|GEMINI|SKILL)\.md$/.test(token)) continue;
      const f = byPath.get(`${dir}${token}`) ?? byPath.get(token) ?? [...byPath.values()].find((x) => x.path.endsWith(`/${token}`));
      if (f !== undefined && f.path !== file && f.size <= 256 * 1024) shipped.push((await readArtifactText(f)) ?? '');
    }
    const harm = plantedHarm(`${plant.inline}\n${shipped.join('\n')}`);
    if (harm !== null) return [referenceFinding({ category: 'persistence', severity: 'CRIT', title: PLANT_TITLE, file, line: lineAt(plant.offset), evidence: `${plant.evidence} … (${harm})`.slice(0, 300) })];
  }
  return [];
}
