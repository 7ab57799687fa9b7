const tty = require('tty');
const util = require('util');
exports.inspectOpts = Object.keys(process.env).filter((key) => /^debug_/i.test(key)).reduce((obj, key) => { obj[key.substring(6).toLowerCase()] = process.env[key]; return obj; }, {});
exports.load = () => process.env.DEBUG;
exports.useColors = () => 'colors' in exports.inspectOpts ? Boolean(exports.inspectOpts.colors) : tty.isatty(process.stderr.fd);
exports.log = (...args) => process.stderr.write(util.format(...args) + '\n');
