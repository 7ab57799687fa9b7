import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVerdaccio, writePackage, type Verdaccio } from './test-support/verdaccio.js';

let verdaccio: Verdaccio;
let work: string;

beforeAll(async () => {
  verdaccio = await startVerdaccio();
  work = await mkdtemp(join(tmpdir(), 'vigil-reg-harness-'));
}, 120_000);

afterAll(async () => {
  await verdaccio?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('the Verdaccio harness', () => {
  it('publishes with the real npm and serves what it stored', async () => {
    await verdaccio.publish(await writePackage(join(work, 'h'), { name: 'harness-pkg', version: '1.0.0' }, { 'index.js': 'module.exports = 1;\n' }));
    const doc = (await (await fetch(`${verdaccio.url}/harness-pkg`)).json()) as { versions: Record<string, { dist: { tarball: string; integrity: string } }> };
    const dist = doc.versions['1.0.0']!.dist;
    expect(dist.integrity).toMatch(/^sha512-/);
    const tarball = Buffer.from(await (await fetch(dist.tarball)).arrayBuffer());
    expect(tarball.equals(await readFile(verdaccio.tarballPath('harness-pkg', '1.0.0')))).toBe(true);
  });
});
