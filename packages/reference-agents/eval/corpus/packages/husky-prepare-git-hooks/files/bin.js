#!/usr/bin/env node
import { spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';
const dir = process.argv[2] || '.hookify';
if (process.env.HOOKIFY === '0') process.exit(0);
const { status, stderr } = spawnSync('git', ['config', 'core.hooksPath', `${dir}/_`]);
if (status == null) { console.log('git command not found'); process.exit(1); }
if (status) { process.stdout.write(String(stderr)); process.exit(1); }
fs.mkdirSync(path.join(dir, '_'), { recursive: true });
fs.writeFileSync(path.join(dir, '_', '.gitignore'), '*');
fs.writeFileSync(path.join(dir, '_', 'h'), '#!/usr/bin/env sh\n[ "$HOOKIFY" = "2" ] && set -x\nsh -e "$0" "$@"\n', { mode: 0o755 });
