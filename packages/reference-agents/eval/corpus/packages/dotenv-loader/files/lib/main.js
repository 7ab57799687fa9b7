const fs = require('fs');
const path = require('path');
const os = require('os');
const LINE = /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/mg;
function parse(src) {
  const obj = {};
  let lines = src.toString().replace(/\r\n?/mg, '\n');
  let match;
  while ((match = LINE.exec(lines)) != null) { obj[match[1]] = (match[2] || '').trim(); }
  return obj;
}
function resolveHome(p) { return p[0] === '~' ? path.join(os.homedir(), p.slice(1)) : p; }
function config(options = {}) {
  const file = resolveHome(options.path || path.resolve(process.cwd(), '.env'));
  const parsed = parse(fs.readFileSync(file, { encoding: 'utf8' }));
  for (const key of Object.keys(parsed)) { if (!Object.prototype.hasOwnProperty.call(process.env, key)) process.env[key] = parsed[key]; }
  if (options.debug) console.log(Object.keys(process.env).length + ' variables');
  return { parsed };
}
module.exports = { config, parse };
