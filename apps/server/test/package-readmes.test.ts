import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { keypairFromSeed } from '@vigil/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';

// Each published package's README has one example a newcomer would paste first. This runs it, as
// written, from the package's own directory (so its bare imports resolve the way they do for an
// installed package) against a real server, and compares what it prints with the README.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = ['core', 'crypto', 'webhooks', 'lockfiles', 'tlog', 'client', 'cli', 'mcp', 'sandbox', 'reference-agents', 'agents'] as const;
const run = promisify(execFile);

/** The validator key the client README signs with; the server's metagraph gives it a permit. */
const README_VALIDATOR = keypairFromSeed('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');

interface Example {
  language: 'js' | 'sh';
  code: string;
  output: string;
}

function exampleOf(readme: string): Example {
  const code = /<!-- readme-example -->\n```(js|sh)\n([\s\S]*?)```/.exec(readme);
  const output = /<!-- readme-example:output -->\n```text\n([\s\S]*?)```/.exec(readme);
  if (!code || !output) throw new Error('README has no <!-- readme-example --> block with its <!-- readme-example:output -->');
  return { language: code[1] as Example['language'], code: code[2]!, output: output[1]! };
}

let server: NetworkApp;
let scratch: string;

beforeAll(async () => {
  server = await startNetworkApp({
    snapshot: {
      netuid: 76,
      block: 5_000_000,
      taken_at: '2026-11-21T00:00:00.000+00:00',
      neurons: [{ uid: 3, hotkey: README_VALIDATOR.hotkey, validator_permit: true }],
    },
  });
  scratch = await mkdtemp(join(tmpdir(), 'vigil-readme-'));
  // `vigil` on PATH is the workspace's built CLI, as `npm install --global @vigil/cli` would give.
  await mkdir(join(scratch, 'bin'));
  await writeFile(join(scratch, 'bin', 'vigil'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'packages/cli/dist/bin.js')}" "$@"\n`);
  await chmod(join(scratch, 'bin', 'vigil'), 0o755);
});

afterAll(async () => {
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('package README examples', () => {
  it.each(PACKAGES)('packages/%s/README.md: the example runs and prints what the README shows', async (name) => {
    const dir = join(ROOT, 'packages', name);
    const example = exampleOf(await readFile(join(dir, 'README.md'), 'utf8'));
    const env = { ...process.env, VIGIL_URL: server.baseUrl, PATH: `${join(scratch, 'bin')}:${process.env.PATH ?? ''}` };
    let stdout: string;
    if (example.language === 'js') {
      // Inside the package directory so `@vigil/<name>` resolves through its own package.json
      // `exports` (dist/), and its dependencies through its node_modules.
      const file = join(dir, `.readme-example.${randomBytes(4).toString('hex')}.mjs`);
      await writeFile(file, example.code);
      try {
        ({ stdout } = await run(process.execPath, [file], { cwd: dir, env }));
      } finally {
        await rm(file, { force: true });
      }
    } else {
      ({ stdout } = await run('bash', ['-euo', 'pipefail', '-c', example.code], { cwd: scratch, env }));
    }
    expect(stdout).toBe(example.output);
  });
});
