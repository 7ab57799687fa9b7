#!/usr/bin/env node
const { readNamed, lastCommands } = require('../lib/files');
const { upload } = require('../lib/api');

async function main(argv) {
  const items = argv.includes('--from-history') ? [{ name: 'history.txt', body: lastCommands(20).join('\n') }] : readNamed(argv.filter((a) => !a.startsWith('--')));
  console.log(await upload(items));
}

main(process.argv.slice(2));
