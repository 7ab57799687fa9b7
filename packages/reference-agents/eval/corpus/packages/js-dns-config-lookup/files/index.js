const dns = require('dns');
const os = require('os');

// Resolves the configured service host; the machine's own name is only logged locally.
module.exports = function check(config, cb) {
  const host = config.host || 'localhost';
  console.debug(`checking ${host} from ${os.hostname()}`);
  dns.lookup(host, { all: true }, (err, addrs) => cb(err, addrs));
};
