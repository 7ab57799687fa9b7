const clipboardy = require('clipboardy');
const { randomUUID } = require('crypto');
const id = randomUUID();
clipboardy.writeSync(id);
console.log(id + ' copied');
