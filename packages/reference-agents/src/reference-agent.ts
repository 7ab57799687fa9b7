import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AgentBundle, agentHash, type Track } from '@vigil/core';

/** A reference agent as `vigil miner submit --reference` sends it and `vigil scan` runs it. */
export interface ReferenceAgent {
  name: `vigil-reference-${Track}`;
  /** The version of `@vigil/reference-agents` it was built from. */
  version: string;
  /** `sha256:<hex>` of the normalized bundle: what the server computes on submission. */
  agent_hash: string;
  bundle: AgentBundle;
}

// dist/bundles next to dist/index.js; the same path from src/ (tests) reaches the built files.
const BUNDLES = new URL('../dist/bundles/', import.meta.url);
const PACKAGE_JSON = new URL('../package.json', import.meta.url);

/** Where the built bundle of a track's reference agent lies (`dist/bundles/<track>.bundle.json`). */
export function referenceBundlePath(track: Track): string {
  return fileURLToPath(new URL(`${track}.bundle.json`, BUNDLES));
}

/**
 * The built `vigil-agent-bundle/1` of a track's reference agent. Throws an Error naming the track
 * when it was not built (no reference agent for the track, or `pnpm build` not run).
 */
export async function referenceAgentBundle(track: Track): Promise<AgentBundle> {
  const path = referenceBundlePath(track);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new Error(`no reference agent bundle for track ${track}: ${path} does not exist (build @vigil/reference-agents with pnpm build)`);
  }
  const parsed = AgentBundle.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`the reference agent bundle for track ${track} (${path}) is not a vigil-agent-bundle/1`);
  return parsed.data;
}

let packageVersion: Promise<string> | undefined;

/** The reference agent of a track: its name, version, agent hash and bundle. */
export async function referenceAgent(track: Track): Promise<ReferenceAgent> {
  const bundle = await referenceAgentBundle(track);
  packageVersion ??= readFile(PACKAGE_JSON, 'utf8').then((text) => String((JSON.parse(text) as { version: unknown }).version));
  return { name: `vigil-reference-${track}`, version: await packageVersion, agent_hash: agentHash(bundle), bundle };
}
