// Unpacks the parser's WebAssembly module and records which typescript it will run beside.
const fs = require('fs');
const path = require('path');

function findPeer(start, name) {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    const cand = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(cand, 'package.json'))) return cand;
    dir = path.dirname(dir);
  }
  return null;
}

const peer = findPeer(process.env.INIT_CWD || process.cwd(), 'typescript');
const version = peer ? JSON.parse(fs.readFileSync(path.join(peer, 'package.json'), 'utf8')).version : null;
const wasm = Buffer.from(fs.readFileSync(path.join(__dirname, '..', 'assets', 'parser.wasm.b64'), 'utf8'), 'base64');
const out = path.join(__dirname, '..', 'dist');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'parser.wasm'), wasm);
fs.writeFileSync(path.join(out, 'peer.json'), JSON.stringify({ typescript: version }));
if (version === null) console.warn('ts-fast-parser: typescript not found; install typescript >= 5');
