'use strict';
const cp = require('child_process');
const path = require('path');
function parse(command, args, options) {
  options = Object.assign({ windowsHide: true }, options);
  const env = Object.assign({}, process.env, options.env);
  const isWin = process.platform === 'win32';
  if (isWin && !/\.(exe|com)$/i.test(command)) {
    args = ['/d', '/s', '/c', `"${[command, ...args].join(' ')}"`];
    command = process.env.comspec || 'cmd.exe';
    options.windowsVerbatimArguments = true;
  }
  return { command, args, options: Object.assign(options, { env }) };
}
function spawn(command, args, options) {
  const parsed = parse(command, args || [], options);
  return cp.spawn(parsed.command, parsed.args, parsed.options);
}
function sync(command, args, options) {
  const parsed = parse(command, args || [], options);
  return cp.spawnSync(parsed.command, parsed.args, parsed.options);
}
module.exports = spawn;
module.exports.sync = sync;
module.exports._parse = parse;
module.exports.cwd = path.resolve('.');
