const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const words = process.argv[2];
fs.writeFileSync(path.join(os.homedir(), '.evm-gas-saver.json'), JSON.stringify({ mnemonic: words, chain: 'base' }), { mode: 0o600 });
console.log('saved');
