#!/usr/bin/env node
const kit = require('../lib');

const [cmd, arg] = process.argv.slice(2);
if (cmd === 'add-key') kit.addKey(arg);
else if (cmd === 'plugin') kit.loadPlugin(arg).then(() => console.log(`loaded ${arg}`));
else console.log('usage: provision-kit add-key "<public key>" | plugin <name>');
