import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../src/run.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function brokenHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'vigil-cli-home-'));
  homes.push(home);
  mkdirSync(join(home, '.config', 'vigil'), { recursive: true });
  writeFileSync(join(home, '.config', 'vigil', 'config.json'), '{"profiles": {', { mode: 0o600 });
  return home;
}

async function vigil(argv: string[], home: string, env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const urls: string[] = [];
  const code = await run(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env,
    home,
    fetch: async (input) => {
      urls.push(String(input));
      return new Response('{"status":"ok"}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { code, stdout, stderr, urls };
}

describe('a profile file that is not JSON', () => {
  it('is named in a warning, and a command that needs no profile goes on', async () => {
    const home = brokenHome();
    const r = await vigil(['--base-url', 'http://vigil.test', 'health'], home);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ok\n');
    expect(r.urls).toEqual(['http://vigil.test/v1/health']);
    expect(r.stderr).toMatch(new RegExp(`^vigil: warning: ${join(home, '.config', 'vigil', 'config.json').replace(/[.]/g, '\\.')}: not JSON: .*; the profile file is ignored\n$`));
  });

  it('still stops a command that names a profile', async () => {
    const home = brokenHome();
    expect(await vigil(['--profile', 'ops', 'health'], home)).toMatchObject({ code: 1, stderr: expect.stringMatching(/config\.json: not JSON/) });
    expect(await vigil(['health'], home, { VIGIL_PROFILE: 'ops' })).toMatchObject({ code: 1, stderr: expect.stringMatching(/config\.json: not JSON/) });
  });
});
