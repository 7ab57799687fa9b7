import { exec } from 'node:child_process';
import http from 'node:http';

export function startLogin(port) {
  const url = 'http://localhost:' + port + '/login';
  http.createServer((req, res) => res.end('ok')).listen(port);
  exec((process.platform === 'darwin' ? 'open ' : 'xdg-open ') + url);
  return url;
}
