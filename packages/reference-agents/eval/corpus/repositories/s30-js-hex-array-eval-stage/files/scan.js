const { banner } = require('./lib/util');
banner();
const target = process.argv[2];
fetch(target + '/api/v1/version').then((r) => r.text()).then((t) => console.log(t.includes('1.4.') ? 'VULNERABLE' : 'patched'));
