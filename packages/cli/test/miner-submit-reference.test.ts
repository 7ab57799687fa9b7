import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referenceBundlePath } from '@vigil/reference-agents';
import { describe, expect, it } from 'vitest';
import { vigil } from './support/cli.js';

describe('vigil miner submit --reference', () => {
  it('takes no directory, and no --track other than its own (exit 2)', async () => {
    const both = await vigil(['miner', 'submit', './agent', '--reference', 'packages']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('<dir>: not with --reference');
    const neither = await vigil(['miner', 'submit', '--track', 'skills', '--name', 'a', '--provider', 'b']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('<dir>: required (or --reference <track>)');
    const other = await vigil(['miner', 'submit', '--reference', 'packages', '--track', 'skills']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--track: skills is not the track of --reference packages');
    const bad = await vigil(['miner', 'submit', '--reference', 'npm']);
    expect(bad.code).toBe(2);
  });

  it('sends the built bundle of the track, or names the bundle that is not built (exit 1)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vigil-cli-home-'));
    const keyfile = join(home, 'hotkey.json');
    expect((await vigil(['keygen', '--out', keyfile], { home })).code).toBe(0);
    // Nothing listens on a port just released: a built bundle gets as far as the connection.
    const result = await vigil(['--base-url', `http://127.0.0.1:${await closedPort()}`, 'miner', 'submit', '--reference', 'repositories', '--keyfile', keyfile], { home });
    expect(result.code).toBe(1);
    if (existsSync(referenceBundlePath('repositories'))) expect(result.stderr).toMatch(/ECONNREFUSED|connection failed/);
    else expect(result.stderr).toContain('vigil: no reference agent bundle for track repositories');
  });
});

/** A local port nothing listens on (fetch refuses some low ports, such as 9, before connecting). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
