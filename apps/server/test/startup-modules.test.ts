import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The server as installed: the compiled dist/ (turbo builds before testing).
const APP = fileURLToPath(new URL('../dist/app.js', import.meta.url));

/**
 * Every module file Node loads (ES modules through a load hook, CommonJS through Module's
 * compile step) while the server's app module is imported, as the list of paths.
 */
function modulesLoadedByApp(): string[] {
  const hooks = `data:text/javascript,${encodeURIComponent(
    'export async function load(url, context, next) { if (url.startsWith("file:")) process.stderr.write("ESM " + url + "\\n"); return next(url, context); }',
  )}`;
  const script = [
    `import { register, Module } from 'node:module';`,
    `register(${JSON.stringify(hooks)});`,
    `const compile = Module.prototype._compile;`,
    `Module.prototype._compile = function (content, filename) { process.stderr.write('CJS ' + filename + '\\n'); return compile.call(this, content, filename); };`,
    `await import(${JSON.stringify(APP)});`,
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr
    .split('\n')
    .filter((line) => line.startsWith('ESM ') || line.startsWith('CJS '))
    .map((line) => line.slice(4));
}

describe('what the server loads at start-up', () => {
  // polkadot-js (~600 modules) serves only a live subtensor metagraph and the CycloneDX library
  // (~250 with its XML and schema dependencies) only a VEX document: both load on first use, so
  // a server on a metagraph file starts without them, and so does every test file that builds the app.
  it('loads neither polkadot-js nor the CycloneDX library, and does load the server itself', () => {
    const loaded = modulesLoadedByApp();
    expect(loaded.some((path) => path.includes('/dist/features/'))).toBe(true);
    expect(loaded.filter((path) => /[/+]@polkadot[/+]/.test(path))).toEqual([]);
    expect(loaded.filter((path) => /[/+]@cyclonedx[/+]/.test(path))).toEqual([]);
  });
});
