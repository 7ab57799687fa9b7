const fs = require('fs');

// Dispatch through a local table and a runtime-chosen method: no API name is hidden, none is constant.
const readers = { text: (p) => fs.readFileSync(p, 'utf8'), json: (p) => JSON.parse(fs.readFileSync(p, 'utf8')) };
module.exports = function load(path, kind = 'text', sync = true) {
  const method = sync ? 'readFileSync' : 'readFile';
  if (!sync) return new Promise((ok, ko) => fs[method](path, 'utf8', (e, d) => (e ? ko(e) : ok(d))));
  return readers[kind](path);
};
