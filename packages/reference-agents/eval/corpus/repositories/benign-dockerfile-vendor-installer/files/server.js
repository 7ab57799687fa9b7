require('http').createServer((q, r) => r.end('ok')).listen(8080);
