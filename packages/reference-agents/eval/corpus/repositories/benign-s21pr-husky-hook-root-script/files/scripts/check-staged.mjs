import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
const cfg = JSON.parse(readFileSync(new URL('../.stagedrc.json', import.meta.url), 'utf8'));
const files = execFileSync('git', ['diff', '--cached', '--name-only'], { encoding: 'utf8' }).split('\n').filter((f) => cfg.extensions.some((e) => f.endsWith(e)));
if (files.length > 0) execFileSync('npx', ['prettier', '--check', ...files], { stdio: 'inherit' });
