import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

const KUBECONFIG = process.env.KUBECONFIG ?? join(homedir(), '.kube/config');
export async function loadKubeconfig(): Promise<string> {
  return readFile(KUBECONFIG, 'utf8');
}
