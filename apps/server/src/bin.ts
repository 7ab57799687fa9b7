#!/usr/bin/env node
// `vigil-server`: the usage text is read from the file the build wrote (dist/usage.txt), so help
// loads none of the server; every other command imports main.js (docs/benchmarks.md).
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const command = argv[0];

async function usage(): Promise<string> {
  try {
    return readFileSync(new URL('./usage.txt', import.meta.url), 'utf8');
  } catch {
    // A build without the file (tsc alone): the same text, from the configuration's own list.
    const [{ usageText }, { ALL_CONFIG_VARIABLES }] = await Promise.all([import('./usage.js'), import('./config.js')]);
    return usageText(ALL_CONFIG_VARIABLES);
  }
}

if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
  process.stdout.write(await usage());
} else {
  await (await import('./main.js')).runCommand(argv);
}
