require('net').createServer((s) => s.end('ok')).listen('/tmp/local-daemon.sock');
