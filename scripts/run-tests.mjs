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
// The CI log keeps only its tail: name every failure (and its first message line) after the turbo output.
const failures = [];
for (const ws of workspaces) {
  const file = join(ws, '.test-results', 'vitest.json');
  if (!existsSync(file)) {
    if (existsSync(join(ws, 'package.json'))) missing.push(ws.slice(root.length));
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  // Errors of suites and files (a throwing beforeAll), which the JSON report leaves out.
  const suiteErrorsFile = join(ws, '.test-results', 'suite-errors.json');
  const suiteErrors = existsSync(suiteErrorsFile) ? JSON.parse(readFileSync(suiteErrorsFile, 'utf8')) : {};
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  // A test file that fails to load, or whose beforeAll threw, reports no failed test: count it as one failure.
  failed += (report.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed')).length;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    const where = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedTests) failures.push(`${where} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (file.status === 'failed' && failedTests.length === 0) failures.push(`${where}: ${firstLine(file.message || suiteErrors[file.name]?.join('\n'))}`);
  }
}
if (missing.length > 0) console.log(`no test report from: ${missing.join(', ')}`);
const code = turbo.status ?? 1;
if (code !== 0 && failed === 0) failed = 1; // turbo failed before or outside a test (build, crash)
for (const f of failures) console.log(`FAILED ${f}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(code);

function firstLine(text) {
  const line = String(text ?? '').split('\n').find((l) => l.trim() !== '') ?? '(no message)';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
