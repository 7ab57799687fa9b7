#!/usr/bin/env node
// Fails when the server's or a package's source has an import cycle (madge), and names each cycle.
// Run by `pnpm lint` (turbo: every lint task depends on //#check:cycles). Type-only imports count
// too: a cycle of types today becomes a cycle of values with the next helper someone moves.
import { readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import madge from 'madge';

const root = new URL('..', import.meta.url).pathname;
const projects = [
  'apps/server',
  ...readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'packages', d.name, 'src')))
    .map((d) => `packages/${d.name}`),
];

let cycles = 0;
for (const project of projects) {
  const dir = join(root, project);
  const graph = await madge(join(dir, 'src'), {
    fileExtensions: ['ts'],
    // Resolves `./x.js` to `./x.ts` as tsc does (NodeNext).
    tsConfig: join(dir, 'tsconfig.json'),
    // Another package's build output is not this project's source: cycles are checked per project.
    excludeRegExp: [/(^|\/)dist\//, /(^|\/)node_modules\//],
  });
  // Only the project's own (relative) imports matter: a workspace package is a separate project,
  // and it resolves only once built, which lint does not wait for.
  const skipped = graph.warnings().skipped.filter((path) => path.startsWith('.'));
  if (skipped.length > 0) {
    console.error(`${project}: cannot resolve ${skipped.join(', ')} (a cycle through them would go unnoticed)`);
    cycles += skipped.length;
  }
  for (const cycle of graph.circular()) {
    cycles++;
    console.error(`${project}: import cycle ${[...cycle, cycle[0]].map((f) => relative(root, join(dir, 'src', f))).join(' -> ')}`);
  }
}
if (cycles > 0) process.exit(1);
console.log(`no import cycles in ${projects.join(', ')}`);
