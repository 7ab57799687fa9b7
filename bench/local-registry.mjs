// What the registry benchmarks share (bench/registry-ingest.mjs, bench/firewall-install.mjs): a real
// Verdaccio in its own process (as @vigil/registries' tests start it), a tar.gz writer for the
// packages they publish, and the median. Not in lib.mjs: that one loads the server, which these
// benchmarks do not need built.
import { fork } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function tarGz(files) {
  const blocks = [];
  for (const [path, content] of Object.entries(files)) {
    const body = Buffer.from(content);
    const header = Buffer.alloc(512);
    header.write(path, 0, 100);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(body.length.toString(8).padStart(11, '0') + '\0', 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

export async function startVerdaccio(root) {
  const storage = join(root, 'storage');
  await mkdir(storage, { recursive: true });
  const config = {
    self_path: root,
    storage,
    auth: { htpasswd: { file: join(root, 'htpasswd'), max_users: 10 } },
    uplinks: {},
    packages: { '**': { access: '$all', publish: '$authenticated' } },
    max_body_size: '200mb',
    web: { enable: false },
    log: { type: 'stdout', format: 'json', level: 'error' },
  };
  const runner = fileURLToPath(new URL('../packages/registries/src/test-support/verdaccio-child.mjs', import.meta.url));
  const child = fork(runner, [JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`verdaccio exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) };
}
