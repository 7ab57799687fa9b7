#!/usr/bin/env node
// Runs every workspace's tests through turbo, then prints one closing line for the whole
// workspace ("N passed, N failed, N skipped") from the vitest JSON reports. Exit code is turbo's.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const workspaces = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(root, group, d.name)),
);
for (const ws of workspaces) rmSync(join(ws, '.test-results'), { recursive: true, force: true });

const turbo = spawnSync('turbo', ['run', 'test', '--force', '--continue', ...process.argv.slice(2)], { stdio: 'inherit', cwd: root, shell: false });

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const ws of workspaces) {
  const file = join(ws, '.test-results', 'vitest.json');
  if (!existsSync(file)) {
    if (existsSync(join(ws, 'package.json'))) missing.push(ws.slice(root.length));
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  // A test file that fails to load reports no tests at all: count it as one failure.
  failed += (report.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (missing.length > 0) console.log(`no test report from: ${missing.join(', ')}`);
const code = turbo.status ?? 1;
if (code !== 0 && failed === 0) failed = 1; // turbo failed before or outside a test (build, crash)
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(code);
