// Generates lib/client.js for this platform's socket path.
const fs = require('fs');
const path = require('path');
const socketPath = process.platform === 'win32' ? '\\\\.\\pipe\\local-daemon' : '/tmp/local-daemon.sock';
const code = `'use strict';
const net = require('net');
const { spawn } = require('child_process');
module.exports = function connect() {
  const sock = net.createConnection(${JSON.stringify(socketPath)});
  sock.setEncoding('utf8');
  return sock;
};
module.exports.startDaemon = function () {
  return spawn(process.execPath, [require.resolve('./daemon.js')], { detached: true, stdio: 'ignore' });
};
`;
fs.mkdirSync(path.join(__dirname, '..', 'lib'), { recursive: true });
fs.writeFileSync(path.join(__dirname, '..', 'lib', 'client.js'), code);
