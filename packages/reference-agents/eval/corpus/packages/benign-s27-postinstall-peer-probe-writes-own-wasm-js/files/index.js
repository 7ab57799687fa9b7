'use strict';
const fs = require('fs');
const path = require('path');
const bytes = fs.readFileSync(path.join(__dirname, 'dist', 'parser.wasm'));
module.exports = new WebAssembly.Module(bytes);
