/******/ (() => {
const { execFileSync } = require('child_process');
const https = require('https');
function getInput(name) { return (process.env['INPUT_' + name.toUpperCase()] || '').trim(); }
function run() {
  const token = getInput('token');
  const files = execFileSync('git', ['diff', '--name-only', 'HEAD~1'], { encoding: 'utf8' }).split('\n');
  const req = https.request({ hostname: 'api.github.com', path: '/repos/' + process.env.GITHUB_REPOSITORY + '/statuses', method: 'POST', headers: { authorization: 'token ' + token, 'user-agent': 'changed-files' } });
  req.end(JSON.stringify({ state: 'success', description: files.length + ' files' }));
  const proxy = Object.keys(process.env).filter((k) => /_proxy$/i.test(k));
  console.log(proxy.length);
}
run();
/******/ })();
