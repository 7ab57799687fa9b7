import { open } from 'node:fs/promises';
import { posix } from 'node:path';
import type { AgentFinding, AgentResult } from '@vigil/core';
import type { CodeFacts } from '../code/code-facts.js';
import { javascriptFacts } from '../code/javascript-facts.js';
import { pythonFacts } from '../code/python-facts.js';
import type { AnalyzeInput } from '../common/analyzer.js';
import { listArtifactFiles, readArtifactText, type ArtifactFile } from '../common/artifact-files.js';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { resultFromFindings } from '../common/score-findings.js';
import { codeFindings } from './code-findings.js';
import { GIT_INSTALL_HOOKS, INSTALL_HOOKS, parseScript, resolveModulePath } from './install-scripts.js';
import { metadataFindings } from './metadata-findings.js';
import { metadataName, packageLayout } from './package-manifest.js';
import { commandSignals } from './shell-command.js';

const reparse = (code: string, language: CodeFacts['language']): CodeFacts => (language === 'javascript' ? javascriptFacts(code) : pythonFacts(code));

const JS_FILE = /\.(js|cjs|mjs|jsx)$/i;
const PY_FILE = /\.py$/i;
/** Files above this size are not parsed (generated bundles); they get a cheap text scan. */
const MAX_PARSE_BYTES = 768 * 1024;
/** Source parsed per package at most; the rest gets the cheap scan, so a huge tarball stays bounded in time. */
const MAX_PARSED_TOTAL = 8 * 1024 * 1024;
const NATIVE_MAGIC: readonly [string, Buffer][] = [
  ['ELF', Buffer.from([0x7f, 0x45, 0x4c, 0x46])],
  ['PE', Buffer.from([0x4d, 0x5a])],
  ['Mach-O', Buffer.from([0xcf, 0xfa, 0xed, 0xfe])],
  ['Mach-O', Buffer.from([0xca, 0xfe, 0xba, 0xbe])],
];
const TEXTUAL = /\.(js|cjs|mjs|jsx|ts|tsx|mts|cts|json|md|markdown|txt|map|css|scss|less|html|htm|yml|yaml|py|pyi|toml|cfg|ini|rst|svg|lock|flow|d\.ts|LICENSE|gitignore|npmignore|editorconfig)$/i;

/**
 * The reference analysis of a package: an npm tarball's content (`package.json` at the root), a
 * PyPI sdist or a wheel. Reads files only; never runs, imports or requires the package.
 */
export async function analyzePackage(input: AnalyzeInput): Promise<AgentResult> {
  const { files } = await listArtifactFiles(input.dir);
  const layout = packageLayout(files);
  const byPath = new Map(files.map((f) => [f.path.slice(layout.prefix.length), f] as const));
  const findings: AgentFinding[] = [];
  const installTime = new Set<string>();
  let manifest: Record<string, unknown> | null = null;
  let manifestText: string | null = null;

  if (layout.kind === 'npm') {
    const pkgFile = byPath.get('package.json');
    const text = pkgFile === undefined ? null : await readArtifactText(pkgFile);
    manifestText = text;
    try {
      manifest = text === null ? null : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      findings.push(referenceFinding({ category: 'metadata', severity: 'LOW', title: 'package.json is not valid JSON', file: 'package.json' }));
    }
    if (manifest !== null && text !== null) findings.push(...(await installScriptFindings(manifest, text, byPath, installTime)));
  } else if (layout.kind === 'sdist') {
    if (byPath.has('setup.py')) installTime.add('setup.py');
    const pyproject = byPath.get('pyproject.toml');
    const toml = pyproject === undefined ? null : await readArtifactText(pyproject);
    if (toml !== null) for (const path of pythonBuildHooks(toml)) if (byPath.has(path)) installTime.add(path);
  }

  // Install-time JavaScript pulls in its relative requires: they run at install too.
  let parsedBytes = 0;
  const analyzed = new Set<string>();
  const queue = [...installTime];
  const factsCache = new Map<string, CodeFacts>();
  while (queue.length > 0) {
    const rel = queue.shift()!;
    const file = byPath.get(rel);
    if (file === undefined || !JS_FILE.test(rel) || factsCache.has(rel) || file.size > MAX_PARSE_BYTES) continue;
    const text = await readArtifactText(file);
    if (text === null) continue;
    const facts = javascriptFacts(text);
    parsedBytes += file.size;
    factsCache.set(rel, facts);
    for (const imp of facts.imports) {
      if (!imp.module.startsWith('.')) continue;
      const target = resolveModulePath(imp.module, posix.dirname(rel), (p) => byPath.has(p));
      if (target !== null && !installTime.has(target)) {
        installTime.add(target);
        queue.push(target);
      }
    }
  }

  let packageName: string | null = typeof manifest?.name === 'string' ? manifest.name : null;
  // Entry points and install-time code first, then smaller files before larger ones: the parse
  // budget goes to what runs and to hand-written code before vendored bundles, and padding a
  // package with big junk files does not push a small payload out of deep analysis.
  const entries = entryPoints(manifest, (p) => byPath.has(p));
  const order = [...byPath].sort(([a, fa], [b, fb]) => {
    const pa = installTime.has(a) || entries.has(a) ? 0 : 1;
    const pb = installTime.has(b) || entries.has(b) ? 0 : 1;
    return pa - pb || fa.size - fb.size || (a < b ? -1 : a > b ? 1 : 0);
  });
  for (const [rel, file] of order) {
    const isJs = JS_FILE.test(rel) && !rel.endsWith('.d.ts');
    const isPy = PY_FILE.test(rel);
    if (rel.endsWith('.pth') && layout.ecosystem === 'pypi') {
      // Lines of a .pth starting with `import` run at every interpreter start (setuptools' own
      // distutils shim does it): reported low, and the code on them analyzed as install-time code.
      const text = await readArtifactText(file);
      const m = text === null ? null : /^\s*import\s.*$/m.exec(text);
      if (m !== null && text !== null) {
        const code = text.split('\n').filter((l) => /^\s*import\s/.test(l)).join('\n');
        const risky = /\b(exec|eval|b64decode|subprocess|system|urlopen|socket|popen)\b/.test(code);
        findings.push(referenceFinding({ category: 'install_script', severity: risky ? 'HIGH' : 'LOW', title: risky ? 'A .pth file runs decoded or external code every time Python starts' : 'A .pth file runs an import every time Python starts', file: rel, line: lineAt(text, m.index), evidence: m[0] }));
        findings.push(...codeFindings(pythonFacts(code), { file: rel, installTime: true, reparse }));
      }
      continue;
    }
    if ((rel === 'PKG-INFO' || /^[^/]+\.dist-info\/METADATA$/.test(rel)) && packageName === null) {
      const text = await readArtifactText(file);
      if (text !== null) packageName = metadataName(text);
    }
    if (!isJs && !isPy) {
      if (!TEXTUAL.test(rel)) {
        const kind = await nativeKind(file);
        if (kind !== null) findings.push(...nativeFindings(rel, kind));
      }
      continue;
    }
    const isInstall = installTime.has(rel);
    let facts = factsCache.get(rel);
    if (facts === undefined) {
      const text = await readArtifactText(file);
      if (text === null) continue;
      // Size is judged without whitespace, so padding a payload with spaces does not hide it.
      const big = file.size > MAX_PARSE_BYTES && nonSpaceLength(text) > MAX_PARSE_BYTES;
      if (!isInstall && (big || parsedBytes > MAX_PARSED_TOTAL)) {
        findings.push(...cheapScan(text, rel));
        continue;
      }
      facts = isJs ? javascriptFacts(text) : pythonFacts(text);
      parsedBytes += file.size;
    }
    if (isInstall) findings.push(...(await scriptsRunBy(facts, rel, byPath)));
    analyzed.add(rel);
    if (isPy && rel === 'setup.py' && packageName === null) {
      const setup = facts.calls.find((c) => /(^|\.)setup$/.test(c.callee) && c.options.name !== undefined);
      if (setup !== undefined && /^[\w.-]+$/.test(setup.options.name!)) packageName = setup.options.name!;
    }
    findings.push(...codeFindings(facts, { file: rel, installTime: isInstall || (layout.kind === 'sdist' && rel === 'setup.py'), reparse }));
    if (isPy && rel === 'setup.py') findings.push(...setupPyFindings(facts));
  }

  findings.push(...metadataFindings({ layout, manifest, manifestText, packageName, paths: [...byPath.keys()] }));
  return resultFromFindings(findings);
}

function nonSpaceLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) n++;
  }
  return n;
}

/** Files package.json names as code a consumer loads: main, module, browser, bin, exports. */
function entryPoints(manifest: Record<string, unknown> | null, exists: (path: string) => boolean): Set<string> {
  const out = new Set<string>();
  if (manifest === null) return out;
  const add = (value: unknown): void => {
    if (typeof value === 'string') {
      const resolved = resolveModulePath(value, '', exists);
      if (resolved !== null) out.add(resolved);
    } else if (typeof value === 'object' && value !== null) {
      for (const v of Object.values(value)) add(v);
    }
  };
  add(manifest.main ?? 'index.js');
  add(manifest.module);
  add(manifest.browser);
  add(manifest.bin);
  add(manifest.exports);
  return out;
}

async function installScriptFindings(manifest: Record<string, unknown>, text: string, byPath: Map<string, ArtifactFile>, installTime: Set<string>): Promise<AgentFinding[]> {
  const out: AgentFinding[] = [];
  const scripts = typeof manifest.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
  for (const hook of [...INSTALL_HOOKS, ...GIT_INSTALL_HOOKS]) {
    const command = scripts[hook];
    if (typeof command !== 'string' || command.trim() === '') continue;
    const line = lineAt(text, Math.max(0, text.indexOf(`"${hook}"`)));
    const atInstall = (INSTALL_HOOKS as readonly string[]).includes(hook);
    if (atInstall) out.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: `Runs ${hook === 'install' ? 'an' : 'a'} ${hook} script at install`, file: 'package.json', line, evidence: command }));
    for (const s of commandSignals(command)) out.push(referenceFinding({ category: s.category, severity: s.severity, title: s.title, file: 'package.json', line, evidence: `${hook}: ${command}` }));
    if (!atInstall) continue;
    const parsed = parseScript(command);
    for (const code of parsed.inlineJavaScript) {
      for (const f of codeFindings(javascriptFacts(code), { file: 'package.json', installTime: true, reparse })) out.push({ ...f, line, evidence: f.evidence ?? code.slice(0, 300) });
      if (/\b(require|import)\s*\(\s*['"](https?|child_process|node:child_process)/.test(code) || /\beval\s*\(/.test(code)) {
        out.push(referenceFinding({ category: 'install_script', severity: 'HIGH', title: 'Install script runs inline code that spawns processes or evaluates code', file: 'package.json', line, evidence: code.slice(0, 300) }));
      }
    }
    for (const target of parsed.targets) {
      const resolved = target.interpreter === 'node' ? resolveModulePath(target.path, '', (p) => byPath.has(p)) : byPath.has(target.path) ? target.path : null;
      if (resolved === null) continue;
      installTime.add(resolved);
      if (target.interpreter === 'shell') {
        const file = byPath.get(resolved);
        const body = file === undefined ? null : await readArtifactText(file);
        if (body === null) continue;
        body.split('\n').forEach((l, i) => {
          for (const s of commandSignals(l)) out.push(referenceFinding({ category: s.category, severity: s.severity, title: s.title, file: resolved, line: i + 1, evidence: l }));
        });
      }
    }
  }
  return out;
}

const EXEC = /^(child_process\.(exec|execSync|spawn|spawnSync|execFile|execFileSync)|os\.system|subprocess\.\w+)$/;

/** Shell, batch and PowerShell files that install-time code runs (`exec('cmd /c compile.bat')`): their lines are checked too. */
async function scriptsRunBy(facts: CodeFacts, from: string, byPath: Map<string, ArtifactFile>): Promise<AgentFinding[]> {
  const out: AgentFinding[] = [];
  const seen = new Set<string>();
  for (const c of facts.calls) {
    if (!EXEC.test(c.callee)) continue;
    const words = [...c.args, ...c.argStrings].filter((a): a is string => a !== null).flatMap((a) => a.split(/\s+/));
    for (const w of words) {
      if (!/\.(sh|bat|cmd|ps1)$/i.test(w)) continue;
      const rel = posix.normalize(posix.join(posix.dirname(from), w.replace(/\\/g, '/').replace(/^\.\//, '')));
      const file = byPath.get(rel) ?? byPath.get(w);
      if (file === undefined || seen.has(rel)) continue;
      seen.add(rel);
      const body = await readArtifactText(file);
      if (body === null) continue;
      body.split('\n').forEach((l, i) => {
        for (const s of commandSignals(l)) out.push(referenceFinding({ category: s.category, severity: s.severity, title: s.title, file: rel, line: i + 1, evidence: l }));
      });
    }
  }
  return out;
}

/**
 * Python files pip runs while building an sdist besides setup.py: an in-tree build backend
 * (`backend-path` + `build-backend`) and a hatch custom build hook (`hatch_build.py` by default).
 */
export function pythonBuildHooks(toml: string): string[] {
  const out: string[] = [];
  const backend = /^\s*build-backend\s*=\s*["']([\w.]+)(?::\w+)?["']/m.exec(toml)?.[1];
  const paths = /^\s*backend-path\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1];
  if (backend !== undefined && paths !== undefined) {
    for (const m of paths.matchAll(/["']([^"']+)["']/g)) {
      const dir = posix.normalize(m[1]!).replace(/^\.\/?/, '');
      const module = backend.split('.').join('/');
      out.push(dir === '' ? `${module}.py` : `${dir}/${module}.py`, dir === '' ? `${module}/__init__.py` : `${dir}/${module}/__init__.py`);
    }
  }
  const hatch = /^\s*\[tool\.hatch\.build(?:\.targets\.\w+)?\.hooks\.custom\]([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(toml);
  if (hatch !== null) out.push(/^\s*path\s*=\s*["']([^"']+)["']/m.exec(hatch[1] ?? '')?.[1] ?? 'hatch_build.py');
  return out;
}

/** setup.py: overridden setuptools commands and module-level work beyond calling setup(). */
function setupPyFindings(facts: CodeFacts): AgentFinding[] {
  const out: AgentFinding[] = [];
  for (const o of facts.commandOverrides) {
    out.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: `setup.py overrides the ${o.base} command (runs at install)`, file: 'setup.py', line: o.line, evidence: `class ${o.name}(${o.base})` }));
  }
  const risky = facts.calls.find((c) => c.topLevel && /^(os\.system|os\.popen|subprocess\.\w+|(builtins\.)?exec|(builtins\.)?eval|urllib\.request\.urlopen|requests\.\w+|socket\.socket)$/.test(c.callee));
  if (risky !== undefined) out.push(referenceFinding({ category: 'install_script', severity: 'HIGH', title: 'setup.py runs commands or network calls at module level (every install and build)', file: 'setup.py', line: risky.line, evidence: risky.callee }));
  return out;
}

/** Text checks for files too large to parse: signals that are unambiguous without a syntax tree. */
function cheapScan(text: string, file: string): AgentFinding[] {
  const out: AgentFinding[] = [];
  const checks: [RegExp, string, 'CRIT' | 'HIGH', string][] = [
    [/discord(?:app)?\.com\/api\/webhooks\/\d+\/[\w-]+|hooks\.slack\.com\/services\/T\w+\/B\w+\/\w+|api\.telegram\.org\/bot\d+:[\w-]+/i, 'exfiltration', 'HIGH', 'Hard-coded chat-service webhook (Discord, Slack, Telegram)'],
    [/\beval\s*\(\s*(atob|Buffer\.from)\s*\(/, 'obfuscation', 'HIGH', 'Executes decoded data (eval/exec of base64, hex or char codes)'],
  ];
  for (const [re, category, severity, title] of checks) {
    const m = re.exec(text);
    if (m !== null) out.push(referenceFinding({ category, severity, title, file, line: lineAt(text, m.index), evidence: m[0] }));
  }
  return out;
}

async function nativeKind(file: ArtifactFile): Promise<string | null> {
  if (file.size < 4) return null;
  const handle = await open(file.absPath, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    for (const [kind, magic] of NATIVE_MAGIC) if (head.subarray(0, magic.length).equals(magic)) return kind;
    return null;
  } finally {
    await handle.close();
  }
}

function nativeFindings(rel: string, kind: string): AgentFinding[] {
  if (/\.(node|so|dylib|pyd)$/i.test(rel) || /(^|\/)(prebuilds?|build\/Release|bin|vendor|binding)\//.test(rel)) return [];
  if (kind === 'PE' && /\.(dll|exe|scr|com|cpl)$/i.test(rel)) {
    return [referenceFinding({ category: 'metadata', severity: 'MED', title: 'Bundles a Windows executable or DLL', file: rel, evidence: kind })];
  }
  return [referenceFinding({ category: 'metadata', severity: 'LOW', title: 'Bundles a native executable', file: rel, evidence: kind })];
}
