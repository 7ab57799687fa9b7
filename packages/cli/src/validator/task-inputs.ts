import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { materializeBundle } from '@vigil/sandbox';
import type { SignedVigilClient } from '@vigil/client';
import { AgentBundle, agentHash, contentHash, type AgentBundle as AgentBundleType } from '@vigil/core';

/** A download whose bytes are not what the task names: the task cannot be run honestly. */
export class IntegrityError extends Error {
  override name = 'IntegrityError';
}

const hexOf = (hash: string) => hash.slice('sha256:'.length);

/**
 * The artifact's bytes at `<workDir>/artifacts/<hex>`: downloaded once per content hash, checked
 * against it on download and again on every reuse (a cache file edited on disk is fetched anew).
 */
export async function artifactFile(client: SignedVigilClient, workDir: string, sha256: string, signal: AbortSignal): Promise<string> {
  const dir = join(workDir, 'artifacts');
  const file = join(dir, hexOf(sha256));
  const cached = await readFile(file).catch(() => null);
  if (cached !== null && contentHash(cached) === sha256) return file;
  const bytes = await client.validators.downloadArtifact(sha256, { signal });
  const got = contentHash(bytes);
  if (got !== sha256) throw new IntegrityError(`artifact ${sha256}: the downloaded bytes hash to ${got}`);
  await mkdir(dir, { recursive: true });
  // Written aside and renamed, so a concurrent task never reads half a file.
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(temp, bytes);
  await rename(temp, file);
  return file;
}

/**
 * The agent's files at `<workDir>/bundles/<hex>/`, materialized once per agent hash. The download
 * must hash to the agent hash as bytes (the server stores the canonical form) and as a normalized
 * bundle (what any miner's tooling computes), else IntegrityError.
 */
export async function bundleDir(client: SignedVigilClient, workDir: string, hash: string, signal: AbortSignal): Promise<{ dir: string; bundle: AgentBundleType }> {
  const parent = join(workDir, 'bundles');
  const dir = join(parent, hexOf(hash));
  const marker = join(parent, `${hexOf(hash)}.json`);
  const cached = await readFile(marker).catch(() => null);
  if (cached !== null && contentHash(cached) === hash) {
    const bundle = AgentBundle.parse(JSON.parse(cached.toString('utf8')));
    return { dir, bundle };
  }
  const bytes = await client.validators.downloadAgentBundle(hash, { signal });
  const got = contentHash(bytes);
  if (got !== hash) throw new IntegrityError(`agent ${hash}: the downloaded bundle hashes to ${got}`);
  let parsed: ReturnType<typeof AgentBundle.safeParse>;
  try {
    parsed = AgentBundle.safeParse(JSON.parse(Buffer.from(bytes).toString('utf8')));
  } catch {
    throw new IntegrityError(`agent ${hash}: the downloaded bundle is not JSON`);
  }
  if (!parsed.success) throw new IntegrityError(`agent ${hash}: the downloaded bundle is not a vigil-agent-bundle/1`);
  if (agentHash(parsed.data) !== hash) throw new IntegrityError(`agent ${hash}: the bundle's normalized form hashes to ${agentHash(parsed.data)}`);
  await mkdir(parent, { recursive: true });
  const temp = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await materializeBundle(parsed.data, temp);
  await rm(dir, { recursive: true, force: true });
  await rename(temp, dir);
  // The marker is written last: its presence means the directory is complete.
  await writeFile(marker, bytes);
  return { dir, bundle: parsed.data };
}
