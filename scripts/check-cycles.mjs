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
  if (project === 'apps/server') cycles += folderCycles(project, graph.obj());
}

/**
 * The server's features and platform/ must also form no cycle as folders (docs/contributing.md,
 * "The shape"): two features that import each other, through any files, are one feature or need a
 * third piece both import. Tests and test-support are left out: a test may set a case up with another
 * feature's help without making the features depend on each other.
 */
function folderCycles(project, files) {
  const unitOf = (file) => file.match(/^(features\/[^/]+|platform)\//)?.[1];
  const edges = new Map();
  for (const [file, deps] of Object.entries(files)) {
    if (/\.test\.ts$|(^|\/)test-support\//.test(file)) continue;
    const from = unitOf(file);
    if (!from) continue;
    for (const dep of deps) {
      const to = unitOf(dep);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${file} -> ${dep}`);
    }
  }
  // Depth-first search; each back edge closes one cycle, reported with one import per step.
  const state = new Map();
  const stack = [];
  let found = 0;
  const visit = (unit) => {
    state.set(unit, 'open');
    stack.push(unit);
    for (const next of (edges.get(unit) ?? new Map()).keys()) {
      if (state.get(next) === 'open') {
        found++;
        const loop = [...stack.slice(stack.indexOf(next)), next];
        const steps = loop.slice(0, -1).map((u, i) => edges.get(u).get(loop[i + 1]));
        console.error(`${project}: folder cycle ${loop.join(' -> ')} (${steps.join('; ')})`);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(unit, 'done');
  };
  for (const unit of [...edges.keys()].sort()) if (!state.has(unit)) visit(unit);
  return found;
}
if (cycles > 0) process.exit(1);
console.log(`no import cycles in ${projects.join(', ')}`);
