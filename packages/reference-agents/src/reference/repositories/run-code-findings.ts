import { decodedTexts } from '../text/encoded-command.js';
import { privilegedShimFinding } from '../text/privileged-shim.js';
import { shellSecretSendFinding } from '../text/shell-secret-send.js';
import type { AgentFinding, Severity } from '@vigil/core';
import type { CodeFacts } from '../code/code-facts.js';
import { javascriptFacts } from '../code/javascript/index.js';
import { pythonFacts } from '../code/python-facts.js';
import { referenceFinding } from '../common/reference-finding.js';
import { codeFindings } from '../packages/code-findings.js';
import { PROCESS_MEMORY_DUMP, expandShellVariables, shellCommandFindings, shellScriptFindings } from './shell-command-findings.js';
import { powershellSecretSendFinding } from './powershell-secret-send.js';
import { decodedStages } from './decoded-stage.js';

const reparse = (code: string, language: CodeFacts['language']): CodeFacts => (language === 'javascript' ? javascriptFacts(code) : pythonFacts(code));

export const JS_CODE = /\.(js|cjs|mjs|jsx|ts|cts|mts|tsx)$/i;
export const PY_CODE = /\.py$/i;

/** The language of a file to analyze, when its name does not say (a program without an extension). */
export type CodeLanguage = 'shell' | 'javascript' | 'python' | 'powershell';

/** PowerShell scripts and modules (a hook's or a task's `pwsh -File x.ps1`). */
export const PS_CODE = /\.ps[dm]?1$/i;

// An assignment that opens a group or follows another statement on its line: `( payload=$(env | base64)`,
// `{ body=$(printenv); curl … }`, `[ -n "$X" ] && data=$(cat ~/.npmrc)`.
const EMBEDDED_ASSIGNMENT = /(?:^|[;&|({]|\b(?:then|do|else))[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+)?(?=([A-Za-z_]\w*=[^\n]*))/g;

/**
 * The script with every assignment that is not at the start of its line (in a `( … )` or `{ … }` group, after
 * `;`, `&&` or `then`) copied onto a line of its own at the end: the secret-send reading follows assignments
 * that start a line, and the copies (after the script's own lines) leave its line numbers as they are.
 */
export function withEmbeddedAssignments(text: string): string {
  if (text.length > 1_000_000) return text;
  const extra: string[] = [];
  // (round s30 review) At most 200 copies in all, not per line.
  lines: for (const line of text.split('\n')) {
    if (line.length > 4000 || /^\s*#/.test(line) || !line.includes('=')) continue;
    for (const m of line.matchAll(EMBEDDED_ASSIGNMENT)) {
      if (m.index === 0 && /^\s*(?:export\s+|local\s+|readonly\s+)?[A-Za-z_]\w*=/.test(line)) continue;
      extra.push(m[1]!);
      if (extra.length >= 200) break lines;
    }
  }
  return extra.length === 0 ? text : `${text}\n${extra.join('\n')}`;
}

/** Why a file's code runs without anyone reading it first. */
export type RunReason = 'action' | 'automatic' | 'config' | 'plugin' | 'test' | 'script' | 'present' | 'notebook';

const WHY: Readonly<Record<RunReason, string>> = {
  action: 'code of a GitHub Action this repository publishes (runs in CI with the caller’s secrets)',
  automatic: 'code run automatically (install script, git hook, agent hook, folder-open task, MCP server)',
  config: 'build tool configuration (runs whenever the project is built)',
  plugin: 'a Yarn plugin .yarnrc.yml loads (runs in every yarn command)',
  test: 'test setup code (runs whenever the tests run: conftest.py, Jest/Vitest setup files)',
  script: 'code the project tells its user to run (its start, dev, serve or test script, or a command its README gives)',
  present: 'code in the checkout that nothing runs by itself yet, with a loader\'s shape',
  notebook: 'code cells of a notebook (run cell by cell or with Run All)',
};

// What a packages-agent finding is in a repository: the same evidence, judged as code that runs on a
// developer's machine or a CI runner. Obfuscator-style names and decoded strings alone are the shape of
// any bundler's output, so in an action's bundle they only count as LOW.
const BUNDLE_NOISE = /^(Long encoded blob that decodes to code|Obfuscator-style _0x identifiers|Sensitive name hidden by string building|Calls a sensitive API through a computed name or reflection|Calls a method or loads a module whose name is decoded at run time|Serializes the whole environment|Reads credential files|Starts a detached, hidden background process|Replaces the browser’s fetch\/XMLHttpRequest)/;

// Test setup code isolates and mocks: it copies and restores the environment, replaces fetch with a
// recorder, patches library functions. In a conftest.py or a Jest/Vitest setup file those shapes are
// the test harness, so they count as LOW there; flows of secrets to the network and downloads do not.
const TEST_HARNESS = /^(Serializes the whole environment|Replaces the browser’s fetch\/XMLHttpRequest|Replaces a library function at run time \(monkey-patching\))/;

/**
 * The packages agent's code findings for one file a repository runs by itself — an action's
 * `dist/index.js`, an install script's target, a hook's script, a build tool's configuration —
 * with the file's role appended to the evidence. Shell scripts get the shell checks line by line.
 */
export function runCodeFindings(path: string, text: string, reason: RunReason, language?: CodeLanguage, agentHook = false, ownHosts: readonly string[] = [], included = ''): AgentFinding[] {
  const out: AgentFinding[] = [];
  if (language === 'shell' || (language === undefined && /\.(sh|bash|zsh)$/.test(path))) {
    text = expandShellVariables(text);
    // One command written over several lines (`curl … \` newline `-d "$(env)"`) is read as one line, at its first line.
    text.split('\n').forEach((line, i, lines) => {
      if (i > 0 && /\\$/.test(lines[i - 1] ?? '')) return;
      let j = i;
      while (/\\$/.test(line) && j + 1 < lines.length && line.length <= 4000) line = `${line.slice(0, -1)} ${lines[++j] ?? ''}`;
      if (line.length <= 4000 && !/^\s*#/.test(line)) out.push(...shellCommandFindings(line, { file: path, line: i + 1, where: 'script run automatically', automatic: reason === 'automatic' }));
    });
    out.push(...shellScriptFindings(text, { file: path, where: 'script run automatically', automatic: reason === 'automatic' }));
    const send = shellSecretSendFinding(path, withEmbeddedAssignments(text), 'script run automatically', reason === 'automatic');
    if (send !== null) out.push(send);
    return out;
  }
  if (language === 'powershell' || (language === undefined && PS_CODE.test(path))) {
    // (round s31) With the text of what it dot-sources or imports (`included`), read for assignments and sending functions.
    const send = powershellSecretSendFinding(path, text, 'script run automatically', reason === 'automatic', ownHosts, included);
    return send === null ? out : [send];
  }
  const js = language === undefined ? JS_CODE.test(path) : language === 'javascript';
  if (!js && language !== 'python' && !PY_CODE.test(path)) return out;
  const shim = privilegedShimFinding(path, text, 'script run automatically');
  if (shim !== null) out.push(shim);
  const install = reason === 'automatic';
  const big = js && text.length > WHOLE_PARSE_BYTES;
  const pieces = big ? suspiciousChunks(text) : [{ code: text, firstLine: 1 }];
  if (big) out.push(...bundleStringFindings(path, text, install));
  for (const { code, firstLine } of pieces) {
    const facts = js ? javascriptFacts(code, { typescript: !big && /\.[cm]?tsx?$/i.test(path) }) : pythonFacts(code);
    const shift = (line: number | undefined) => (line === undefined ? undefined : line + firstLine - 1);
    for (const f of codeFindings(facts, { file: path, installTime: install, agentHook: install && agentHook, reparse })) {
      const noise = ((reason === 'action' || reason === 'plugin') && BUNDLE_NOISE.test(f.title)) || (reason === 'test' && TEST_HARNESS.test(f.title));
      out.push({ ...f, line: shift(f.line), severity: noise ? ('LOW' as Severity) : f.severity, evidence: `${f.evidence ?? ''} [${WHY[reason]}]`.trim() });
    }
    if (!big) {
      // A stage decoded and run whose decoded text reaches the network, runs commands or reads secrets (round s30).
      for (const stage of decodedStages(code, js ? 'javascript' : 'python').slice(0, 1)) {
        out.push(referenceFinding({ category: 'malware', severity: 'CRIT', title: `runs a decoded stage that ${stage.does.join(', ')}`, file: path, line: shift(stage.line), evidence: `${stage.encoding}: ${stage.decoded.replace(/\s+/g, ' ').slice(0, 220)} [${WHY[reason]}]` }));
      }
    }
    const dump = facts.strings.find((s) => PROCESS_MEMORY_DUMP.test(s.value));
    if (dump !== undefined) {
      out.push(referenceFinding({ category: 'credential_access', severity: 'CRIT', title: 'reads another process’s memory for secrets', file: path, line: shift(dump.line), evidence: dump.value.slice(0, 240) }));
    } else {
      // The same stage shipped encoded (the tj-actions payload was a base64 blob decoded and run): what it decodes to.
      for (const s of facts.strings) {
        if (s.value.length < 40 || /\s/.test(s.value.trim())) continue;
        const decoded = decodedTexts(s.value.trim()).find((t) => PROCESS_MEMORY_DUMP.test(t));
        if (decoded === undefined) continue;
        out.push(referenceFinding({ category: 'credential_access', severity: 'CRIT', title: 'reads another process’s memory for secrets', file: path, line: shift(s.line), evidence: `encoded: ${decoded.slice(0, 200)}` }));
        break;
      }
    }
  }
  return out;
}

// A bundle above this size is not parsed whole (a 3 MB action bundle takes seconds): it is cut into
// chunks, and only the chunks that combine several payload traits (process execution, decoding,
// evaluation, credential paths, the environment, downloads) are parsed, most traits first, up to
// SUSPICIOUS_BYTES. Every string literal of the whole bundle still gets the shell checks.
const WHOLE_PARSE_BYTES = 768 * 1024;
const CHUNK_BYTES = 32 * 1024;
const SUSPICIOUS_BYTES = 256 * 1024;
const TRAITS: readonly RegExp[] = [
  /child_process|\bexecSync\b|\bspawnSync\b/,
  /\beval\s*\(|new\s+Function\b|\bFunction\s*\(\s*["'`]/,
  /Buffer\.from\([^)]{0,400}?["'](?:base64|hex)["']|\batob\s*\(|fromCharCode/,
  /\/proc\/|isSecret|Runner\.Worker/,
  /JSON\.stringify\(\s*process\.env|Object\.(?:entries|keys|values)\(\s*process\.env|\.\.\.process\.env/,
  /\.npmrc|\.ssh\/|\.aws\/credentials|\.git-credentials/,
  /\bcurl\b|\bwget\b|https?:\/\/\d{1,3}(?:\.\d{1,3}){3}/,
];
const STRING_LITERAL = /(["'`])((?:(?!\1)[^\\\n]|\\.){12,2000})\1/g;

function cutPoints(text: string): number[] {
  const starts: number[] = [0];
  // Module and statement starts; in minified code (few lines), any `;` or `,` after the budget.
  const boundary = /\n(?=\/\*{3}\/ |(?:var|let|const|function|class|async function|module\.exports|exports\.|\(function|!function|\(\(\)|import |export )\b)|[;,](?=[A-Za-z_$!(])/g;
  let last = 0;
  for (let m = boundary.exec(text); m !== null; m = boundary.exec(text)) {
    const newline = m[0] === '\n';
    if (m.index - last >= (newline ? CHUNK_BYTES : CHUNK_BYTES * 2)) {
      starts.push(m.index + 1);
      last = m.index;
    }
  }
  starts.push(text.length);
  return starts;
}

function suspiciousChunks(text: string): { code: string; firstLine: number }[] {
  const starts = cutPoints(text);
  const scored: { from: number; to: number; score: number }[] = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const code = text.slice(starts[i], starts[i + 1]);
    const score = TRAITS.filter((t) => t.test(code)).length;
    if (score >= 2) scored.push({ from: starts[i]!, to: starts[i + 1]!, score });
  }
  scored.sort((a, b) => b.score - a.score || a.from - b.from);
  const out: { code: string; firstLine: number }[] = [];
  let kept = 0;
  for (const c of scored) {
    if (kept + (c.to - c.from) > SUSPICIOUS_BYTES) continue;
    kept += c.to - c.from;
    let line = 1;
    for (let k = text.indexOf('\n'); k !== -1 && k < c.from; k = text.indexOf('\n', k + 1)) line++;
    out.push({ code: text.slice(c.from, c.to), firstLine: line });
  }
  return out;
}

/** Shell checks on every string literal of a bundle too large to parse whole. */
function bundleStringFindings(path: string, text: string, automatic: boolean): AgentFinding[] {
  const out: AgentFinding[] = [];
  let line = 1;
  let counted = 0;
  for (const m of text.matchAll(STRING_LITERAL)) {
    const value = m[2]!;
    if (!/\b(curl|wget|iwr|irm|nc|bash|sh)\b|\/dev\/tcp|\/proc\/|isSecret/.test(value)) continue;
    for (let k = text.indexOf('\n', counted); k !== -1 && k < m.index; k = text.indexOf('\n', k + 1)) line++;
    counted = m.index;
    out.push(...shellCommandFindings(value, { file: path, line, where: 'bundled code', automatic }));
    if (out.length >= 20) break;
  }
  return out;
}

const PY_FROM_IMPORT = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w, \t]+)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)/gm;
const JS_RELATIVE = /\b(?:require|import)\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]|\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/** `rel` resolved against the repository folder `dir` (`..` allowed while it stays inside); null when it leaves. */
export function joinPath(dir: string, rel: string): string | null {
  const parts = dir === '' ? [] : dir.split('/');
  for (const p of rel.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(p);
  }
  return parts.join('/');
}

// A shell script runs another file of the checkout in its own shell (`source x`, `. x`) or a child one
// (`bash x`, `sh x`), named from the script's folder (`$(dirname "$0")/x`, `${BASH_SOURCE%/*}/x`, a variable
// set from dirname) or from where it runs (the repository root, for hooks and lifecycle commands).
const SHELL_RUNS_FILE = /(?:^|[;&|({]\s*|\b(?:then|do|else)\s+|&&\s*|\|\|\s*)(?:source|\.|(?:ba|z|da)?sh)\s+(?:-\w+\s+)*["']?((?:\$\(\s*dirname\s+["']?\$(?:0|\{?BASH_SOURCE(?:\[0\])?\}?)["']?\s*\)|\$\{BASH_SOURCE(?:\[0\])?%\/\*\}|\$\{?\w+\}?)\/)?([\w.@/-]+)["']?/gm;
const DIRNAME_VARIABLE = /^\s*(?:export\s+|local\s+|readonly\s+)?(\w+)=["']?\$\(\s*(?:cd\s+["']?)?\$?\(?\s*dirname\s/gm;

/** Files of the checkout a shell script sources or runs, read as shell whatever their names (`.ruff-cache-sync`). */
export function shellRunFiles(path: string, text: string, exists: (path: string) => boolean): string[] {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const dirVariables = new Set([...text.matchAll(DIRNAME_VARIABLE)].map((m) => m[1] as string));
  const out = new Set<string>();
  for (const m of text.matchAll(SHELL_RUNS_FILE)) {
    const prefix = m[1] ?? '';
    const rel = m[2] as string;
    if (rel.startsWith('/') || rel.startsWith('-')) continue;
    const variable = /^\$\{?(\w+)\}?\/$/.exec(prefix)?.[1];
    // A variable that is neither the script's folder nor the project's names a place the reader cannot know.
    if (variable !== undefined && !dirVariables.has(variable) && !/^(?:CLAUDE_PROJECT_DIR|PWD|GIT_ROOT|REPO_ROOT|ROOT)$/.test(variable)) continue;
    const bases = prefix === '' ? [dir, ''] : variable !== undefined && !dirVariables.has(variable) ? [''] : [dir];
    for (const base of bases) {
      const joined = joinPath(base, rel);
      if (joined !== null && joined !== path && exists(joined)) {
        out.add(joined);
        break;
      }
    }
  }
  return [...out];
}

/**
 * The repository's own files a file imports: Python modules (`from tests.support import x`,
 * `from .helpers import y`, `import pkg.mod`, looked up from the repository root, the file's
 * directory and its parents) and relative JavaScript/TypeScript imports. A conftest.py or a setup
 * file runs everything it imports, so a payload one import away runs just the same.
 */
export function localImports(path: string, text: string, exists: (path: string) => boolean): string[] {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const out = new Set<string>();
  const firstOf = (candidates: Array<string | null>) => {
    const hit = candidates.find((c): c is string => c !== null && exists(c));
    if (hit !== undefined && hit !== path) out.add(hit);
  };
  if (PY_CODE.test(path)) {
    // Roots a module name is looked up from: the repository root, `src/`, and the directories above the file.
    const roots = new Set<string>(['', 'src']);
    for (let d = dir; d !== ''; d = d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '') roots.add(d);
    const module = (base: string, name: string) => {
      const p = [base, name.replace(/\./g, '/')].filter((x) => x !== '').join('/');
      return [`${p}.py`, `${p}/__init__.py`];
    };
    for (const m of text.matchAll(PY_FROM_IMPORT)) {
      const dots = (m[1] as string).length;
      const name = m[2] as string;
      const names = (m[3] as string).split(',').map((n) => n.trim().split(/\s+/)[0] as string).filter((n) => /^\w+$/.test(n));
      let bases: string[];
      if (dots > 0) {
        let base: string | null = dir;
        for (let i = 1; i < dots && base !== null; i++) base = base === '' ? null : base.includes('/') ? base.slice(0, base.lastIndexOf('/')) : '';
        bases = base === null ? [] : [base];
      } else bases = [...roots];
      for (const base of bases) {
        if (name !== '') firstOf(module(base, name));
        // `from pkg import mod`: mod may be a module of the package.
        for (const n of names.slice(0, 10)) firstOf(module(base, name === '' ? n : `${name}.${n}`));
      }
    }
    for (const m of text.matchAll(PY_IMPORT)) for (const name of (m[1] as string).split(',').map((n) => n.trim())) for (const base of roots) firstOf(module(base, name));
  } else if (JS_CODE.test(path)) {
    for (const m of text.matchAll(JS_RELATIVE)) {
      const joined = joinPath(dir, (m[1] ?? m[2] ?? m[3]) as string);
      if (joined === null) continue;
      const ts = joined.replace(/\.([cm]?)js$/, '.$1ts');
      firstOf([joined, `${joined}.js`, `${joined}.ts`, `${joined}.mjs`, `${joined}.cjs`, ts, `${joined}/index.js`, `${joined}/index.ts`]);
    }
  }
  return [...out];
}
