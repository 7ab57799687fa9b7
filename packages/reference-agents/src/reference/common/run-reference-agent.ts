import { AgentInput, AgentResult } from '@vigil/core';
import type { TrackAnalyzer } from './analyzer.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The main of a reference agent's bundle: reads the `vigil-agent-input/1` object on stdin, runs
 * the track's analysis, and prints exactly one `AgentResult` on stdout (docs/agents.md). A bad
 * input or an analysis error is written to stderr and exits 1 (`crashed: exit 1` for the runner).
 */
export async function runReferenceAgent(analyze: TrackAnalyzer): Promise<void> {
  try {
    const input = AgentInput.parse(JSON.parse(await readStdin()));
    const result = AgentResult.parse(await analyze({ dir: input.artifact.dir, track: input.track, bundleHash: input.artifact.bundle_hash }));
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
