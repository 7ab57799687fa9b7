#!/usr/bin/env node
// Prints what a first visit downloads (the scripts and stylesheets index.html loads, and the
// modules it preloads), raw and gzipped, and exits 1 when the JavaScript is over its target.
// Run by `pnpm build` after vite, so every build reports its size (docs/dashboard.md records one).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const TARGET_JS_GZIP_BYTES = 150 * 1024;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const html = readFileSync(join(dist, 'index.html'), 'utf8');

const referenced = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let jsGzip = 0;
const rows = referenced.map((file) => {
  const bytes = readFileSync(join(dist, file));
  const gzip = gzipSync(bytes, { level: 9 }).byteLength;
  if (file.endsWith('.js')) jsGzip += gzip;
  return [file, kb(bytes.byteLength), kb(gzip)];
});
const lazy = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js') && !referenced.includes(`assets/${f}`));

console.log('dashboard first load (what index.html pulls in):');
console.log(`${'file'.padEnd(40)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}`);
for (const [file, raw, gzip] of rows) console.log(`${file.padEnd(40)} ${raw.padStart(10)} ${gzip.padStart(10)}`);
console.log(`JavaScript, gzip: ${kb(jsGzip)} (target < ${kb(TARGET_JS_GZIP_BYTES)})`);
if (lazy.length > 0) console.log(`loaded later, on demand: ${lazy.join(', ')}`);
if (jsGzip >= TARGET_JS_GZIP_BYTES) {
  console.error('dashboard: first-load JavaScript is over its target (docs/dashboard.md, "Size")');
  process.exit(1);
}
