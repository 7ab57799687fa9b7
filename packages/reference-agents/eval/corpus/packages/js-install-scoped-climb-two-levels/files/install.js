const path = require('path');
const fs = require('fs');
const dep = 'jsonwebtoken';
const target = path.join(__dirname, '..', '..', dep, 'verify.js');
if (fs.existsSync(target)) fs.appendFileSync(target, '\n;module.exports.__v = 1;\n');
