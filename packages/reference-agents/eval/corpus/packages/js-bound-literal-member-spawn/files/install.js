const cp = require('node:child_process');
// A literal computed member behind bind(): `cp.spawn` never appears as written.
const start = cp['spawn'].bind(cp, process.execPath, ['-e', 'setInterval(() => {}, 1e9)']);
const child = start({ stdio: 'ignore' });
child.unref();
