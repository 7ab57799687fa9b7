import http from 'node:http';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

const meta = YAML.parse(readFileSync(new URL('./config/oauth.yaml', import.meta.url), 'utf8'));
http.createServer((req, res) => {
  if (req.url === '/.well-known/oauth-authorization-server') {
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify(meta));
  }
  res.statusCode = 404;
  res.end();
}).listen(3000);
