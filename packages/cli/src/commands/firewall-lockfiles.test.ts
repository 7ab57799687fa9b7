/** `vigil yarn`'s yarn.lock handling (outsider F2): upstream URLs point at the firewall for the run and come back as they were. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pointYarnLockAtFirewall, restoreLockfileUrls } from './firewall.js';

const FW = 'http://127.0.0.1:40001';
const entry = (url: string) => `fw-roll@1.1.0:\n  version "1.1.0"\n  resolved "${url}/fw-roll/-/fw-roll-1.1.0.tgz#0123abcd"\n  integrity sha512-x==\n`;

function lockIn(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-yarn-lock-'));
  writeFileSync(join(dir, 'yarn.lock'), text);
  return dir;
}

describe('pointYarnLockAtFirewall and restoreLockfileUrls', () => {
  it.each([
    ['a private upstream', 'http://127.0.0.1:4873/', 'http://127.0.0.1:4873'],
    ['the public registry as npmjs', 'https://registry.npmjs.org/', 'https://registry.npmjs.org'],
    ['the public registry as yarnpkg', 'https://registry.npmjs.org/', 'https://registry.yarnpkg.com'],
  ])('%s: resolved points at the firewall during the run and is written back unchanged', (_what, upstream, host) => {
    const original = entry(host) + entry('https://other.example');
    const dir = lockIn(original);
    const back = pointYarnLockAtFirewall(dir, FW, upstream);
    expect(readFileSync(join(dir, 'yarn.lock'), 'utf8')).toBe(entry(FW) + entry('https://other.example'));
    expect(restoreLockfileUrls(dir, FW, upstream, back)).toEqual(['yarn.lock']);
    expect(readFileSync(join(dir, 'yarn.lock'), 'utf8')).toBe(original);
  });

  it('no yarn.lock: nothing written, the upstream returned', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-yarn-lock-'));
    expect(pointYarnLockAtFirewall(dir, FW, 'http://127.0.0.1:4873/')).toBe('http://127.0.0.1:4873/');
    expect(restoreLockfileUrls(dir, FW, 'http://127.0.0.1:4873/')).toEqual([]);
  });
});
