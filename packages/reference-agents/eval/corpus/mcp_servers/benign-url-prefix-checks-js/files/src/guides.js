import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CDN_BASE = 'https://cdn.guides.example';
const PROMPT_PREFIX = 'prompts/';
const cacheDir = path.join(os.homedir(), '.cache', 'guides-mcp');

// A prompt path from the CDN's index must stay under the prompts of that version: the URL is
// normalised by new URL() and compared with the prefix it must keep.
export function promptUrl(version, promptPath) {
  const versionBase = `${CDN_BASE}/versions/${version}/`;
  const resolvedUrl = new URL(promptPath, versionBase).href;
  const expectedPrefix = `${versionBase}${PROMPT_PREFIX}`;
  if (!resolvedUrl.startsWith(expectedPrefix)) throw new Error('prompt path escapes the prompts of this version');
  return resolvedUrl;
}

const RESOURCES = [{ uri: 'guides://frameworks' }, { uri: 'guides://frameworks/*' }, { uri: 'guides://versions' }];

// Resource routing: `guides://frameworks/react` is served by the `guides://frameworks/*` resource.
export function resourceFor(uri) {
  const exact = RESOURCES.find((r) => r.uri === uri);
  if (exact) return exact;
  return RESOURCES.find((resource) => {
    const star = resource.uri.indexOf('*');
    const basePrefix = star === -1 ? resource.uri : resource.uri.slice(0, star);
    return uri.startsWith(basePrefix);
  });
}

export async function fetchGuide(version, promptPath) {
  const url = promptUrl(version, promptPath);
  const text = await (await fetch(url)).text();
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(path.join(cacheDir, `${version}.md`), text);
  return text;
}
