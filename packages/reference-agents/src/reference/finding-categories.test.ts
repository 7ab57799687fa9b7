import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AgentResult, FINDING_CATEGORIES, TRACKS, type Track } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { analyzeCorpusSample } from '../test-support/corpus-analysis.js';
import { analyzerForTrack } from './analyzer-for-track.js';

const CORPUS = fileURLToPath(new URL('../../eval/corpus/', import.meta.url));
const AGENTS_DOC = fileURLToPath(new URL('../../../../docs/agents.md', import.meta.url));

/** The categories the reference-agent tables of docs/agents.md name (first column, in backticks). */
async function documentedCategories(): Promise<Set<string>> {
  const doc = await readFile(AGENTS_DOC, 'utf8');
  return new Set([...doc.matchAll(/^\| `([a-z_-]+)` \|/gm)].map((m) => m[1]!));
}

// Trends, planes and policies key on category names: a reference agent that spelled a known kind
// differently (`install-script` for `install_script`) would land in the wrong plane and count twice.
describe('reference agent finding categories', () => {
  it('are Vigil’s known categories or ones docs/agents.md lists, all snake_case, in a valid AgentResult, on every corpus sample', { timeout: 300_000 }, async () => {
    const documented = await documentedCategories();
    const seen = new Map<string, string>();
    for (const track of TRACKS as readonly Track[]) {
      const analyze = analyzerForTrack(track);
      if (analyze === null) continue;
      for (const id of (await readdir(`${CORPUS}${track}`)).sort()) {
        // The same analysis the track's corpus test asserts on, when it ran first in this worker.
        const result = await analyzeCorpusSample(analyze, `${CORPUS}${track}/${id}/files`, track);
        // What the runner would accept from the agent's stdout, so no sample makes it fail invalid_output.
        const parsed = AgentResult.safeParse(result);
        expect(parsed.success, `${track}/${id}: ${parsed.error?.issues[0]?.path.join('.')} ${parsed.error?.issues[0]?.message}`).toBe(true);
        const { findings } = result;
        for (const f of findings) if (!seen.has(f.category)) seen.set(f.category, `${track}/${id}`);
      }
    }
    expect(seen.size).toBeGreaterThan(10);
    for (const [category, where] of seen) {
      expect(category, `${category} (first seen in ${where})`).toMatch(/^[a-z]+(_[a-z]+)*$/);
      const known = (FINDING_CATEGORIES as readonly string[]).includes(category);
      expect(known || documented.has(category), `${category} (first seen in ${where}) is neither a known category nor in docs/agents.md`).toBe(true);
    }
    for (const known of ['install_script', 'credential_access', 'remote_code_execution', 'exfiltration', 'obfuscation', 'malware', 'typosquat', 'prompt_injection', 'tool_poisoning']) {
      expect([...seen.keys()], known).toContain(known);
    }
  });
});
