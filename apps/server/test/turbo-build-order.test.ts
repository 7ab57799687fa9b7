import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// turbo.json lists the server build's dependencies by hand instead of `^build`: `^build` would include
// the dev dependencies (@vigil/cli and its reference agents), which only the tests need, and the
// server's build would wait about ten seconds longer for them in every `pnpm test`
// (docs/benchmarks.md, "Test suite time"). This keeps the list equal to the workspace packages the
// server depends on at run time.
const ROOT = join(import.meta.dirname, '../../..');

describe('turbo.json: the server build waits for exactly its run-time workspace dependencies', () => {
  it('lists the build of every @vigil dependency in package.json, and nothing else', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'apps/server/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const turbo = JSON.parse(readFileSync(join(ROOT, 'turbo.json'), 'utf8')) as { tasks: Record<string, { dependsOn?: string[] }> };
    const workspace = Object.keys(manifest.dependencies).filter((name) => manifest.dependencies[name]!.startsWith('workspace:'));
    expect(workspace.length).toBeGreaterThan(0);
    expect([...(turbo.tasks['@vigil/server#build']?.dependsOn ?? [])].sort()).toEqual(workspace.map((name) => `${name}#build`).sort());
  });
});
