import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createNpmRegistry, npmPurl } from './npm-registry.js';

/**
 * The one test against the public npm registry. It runs when the registry answers and is skipped
 * with a message when it does not; under CI=true it never runs (CI must not depend on npmjs.org).
 */
const PUBLIC = 'https://registry.npmjs.org';

async function reachable(): Promise<boolean> {
  if (process.env.CI === 'true') return false;
  try {
    const answer = await fetch(`${PUBLIC}/is-number`, { method: 'HEAD', signal: AbortSignal.timeout(5_000) });
    return answer.ok;
  } catch {
    return false;
  }
}

const live = await reachable();
if (!live) console.warn(`registries live test skipped: ${process.env.CI === 'true' ? 'CI=true' : `${PUBLIC} did not answer within 5 s`}`);

describe.skipIf(!live)('npm connector against the public registry', () => {
  const npm = createNpmRegistry({ url: PUBLIC, requestsPerSecond: 2, burst: 2 });
  afterAll(() => npm.close());

  it('fetches is-number@7.0.0, whose integrity has been the same since 2019', async () => {
    const result = await npm.fetch('is-number', '7.0.0');
    if (result.state !== 'fetched') throw new Error(JSON.stringify(result));
    expect(result.verified_against).toEqual(['integrity', 'shasum']);
    expect(result.sha1).toBe('7535345b896734d5f80c4d06c50955527a14f12b');
    expect(result.bytes.length).toBe(3_730);
    expect(result.track.track).toBe('packages');
  });

  it('tells the legacy JSONStream from the other package the registry holds as jsonstream', async () => {
    const [upper, lower] = await Promise.all([npm.fetch('JSONStream', '1.3.5'), npm.fetch('jsonstream', '1.0.3')]);
    if (upper.state !== 'fetched' || lower.state !== 'fetched') throw new Error(JSON.stringify([upper.state, lower.state]));
    expect(upper.sha1).not.toBe(lower.sha1);
    expect(npmPurl('JSONStream', '1.3.5')).toBe('pkg:npm/JSONStream@1.3.5');
  });
});

describe.skipIf(!live)('the README example', () => {
  it('prints what the README says it prints (run from the package directory, against dist)', async () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const readme = await readFile(`${root}README.md`, 'utf8');
    const code = /<!-- readme-example -->\n```js\n([\s\S]*?)```/.exec(readme)![1]!;
    const output = /<!-- readme-example:output -->\n```text\n([\s\S]*?)```/.exec(readme)![1]!;
    const file = `${root}.readme-example.mjs`;
    await writeFile(file, code);
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: root });
      expect(stdout).toBe(output);
    } finally {
      await rm(file, { force: true });
    }
  });
});
