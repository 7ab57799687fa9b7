import type { AgentFinding } from '@vigil/core';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { referenceFinding } from '../common/reference-finding.js';
import { buildDecodeRunFinding } from '../text/build-decode-run.js';
import { lineOfText } from './parse-jsonc.js';
import { gradleScriptFindings, isGradleScript } from './gradle-script-findings.js';
import { expandShellVariables, shellCommandFindings, shellScriptFindings } from './shell-command-findings.js';

/** Lifecycle scripts npm, pnpm and Yarn run in a checkout by themselves (`npm install` runs them for the root and every workspace). */
const LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'] as const;
/**
 * Scripts a checkout's user runs as the project's first step (`npm start`, `npm run dev`, `npm test`):
 * not by themselves, but a take-home assignment or a cloned demo is cloned to be run this way, and
 * the fake job-interview repositories put their loaders behind exactly these.
 */
const USER_RUN = ['start', 'prestart', 'poststart', 'dev', 'serve', 'test', 'pretest'] as const;
const GIT_HOOK_NAME = /^(pre-commit|prepare-commit-msg|commit-msg|post-commit|pre-rebase|post-checkout|post-merge|pre-push|post-rewrite|pre-auto-gc|post-update|pre-receive|update|reference-transaction)$/;

/** What kind of build or hook file a path is, or null. */
export type BuildFileKind = 'package-json' | 'git-hook' | 'makefile' | 'lefthook' | 'pre-commit' | 'shell-script' | 'ide-build-script' | 'configure-script' | 'msbuild';

export function buildFileKind(path: string): BuildFileKind | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'package.json') return 'package-json';
  if (/(^|\/)(\.husky|\.githooks|\.git-hooks|githooks|\.hooks|git-hooks)\/[^/_][^/]*$/.test(path) && GIT_HOOK_NAME.test(base)) return 'git-hook';
  if (/^(GNUmakefile|[Mm]akefile)$|\.mk$/.test(base)) return 'makefile';
  if (/^\.?lefthook(-local)?\.ya?ml$/.test(base)) return 'lefthook';
  if (base === '.pre-commit-config.yaml') return 'pre-commit';
  if (/\.(sh|bash|zsh|command)$/.test(base)) return 'shell-script';
  // Cargo build scripts and Gradle scripts run when an IDE opens the project (rust-analyzer builds
  // build.rs by default; IntelliJ and VS Code sync Gradle projects on import), not only on a build.
  if (base === 'build.rs' || isGradleScript(path)) return 'ide-build-script';
  // MSBuild project files and the Directory.Build.props/targets every project below imports: their build
  // events and Exec tasks run on every build, and Visual Studio and Rider build (design-time) when a solution opens.
  if (/\.(?:cs|vb|fs|vcx)proj$|\.(?:props|targets)$/i.test(base)) return 'msbuild';
  if (base === 'CMakeLists.txt' || /\.cmake$|^configure(\.(ac|in))?$|\.m4$|^meson\.build$/.test(base)) return 'configure-script';
  return null;
}

export interface BuildFileResult {
  findings: AgentFinding[];
  /** Repository files an automatic command runs (`node scripts/postinstall.js`), to analyze as code. */
  runs: string[];
  /** Repository files the project's start, dev, serve or test script runs (`node server/index.js`), to analyze as code. */
  userRuns: string[];
}

/** `node x.js`, `python x.py`, `sh x.sh`, `./x.sh`: the repository file a command runs, if any. */
export function scriptTarget(command: string): string | null {
  const m = /(?:^|&&|;|\|\|)\s*(?:node|python[0-9.]*|bash|sh|zsh|tsx|ts-node|bun|deno\s+run)\s+(?:-[-\w=]+\s+)*["']?([\w.@/-]+\.(?:m?[jt]s|c[jt]s|py|sh))\b|(?:^|&&|;)\s*\.\/([\w.@/-]+)/.exec(command);
  const target = (m?.[1] ?? m?.[2] ?? '').replace(/^\.\//, '');
  return target === '' || target.includes('..') ? null : target;
}

function shellLines(text: string): { line: string; number: number }[] {
  const out: { line: string; number: number }[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.length <= 4000 && !/^\s*#/.test(line) && line.trim() !== '') out.push({ line, number: i + 1 });
  });
  return out;
}

function yamlCommands(text: string, keys: readonly string[]): string[] {
  const out: string[] = [];
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: false });
  } catch {
    return out;
  }
  const visit = (node: Node | null | undefined, depth: number): void => {
    if (node == null || depth > 12) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key) && keys.includes(String(pair.key.value)) && isScalar(pair.value) && typeof pair.value.value === 'string') out.push(pair.value.value);
        else visit(pair.value as Node, depth + 1);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item as Node, depth + 1);
    }
  };
  visit(doc.contents as Node, 0);
  return out;
}

/**
 * Findings of a file that makes a checkout run commands: a package.json's lifecycle scripts and
 * git-hook managers (`simple-git-hooks`, Husky 4's `husky.hooks`), committed git hooks (`.husky/`,
 * `.githooks/`, …), Lefthook and pre-commit local hooks, Makefile recipes and shell scripts. Each
 * command gets the shell checks; automatic ones (lifecycle, hooks) one step more severe.
 */
export function buildFileFindings(path: string, text: string, kind: BuildFileKind): BuildFileResult {
  const findings: AgentFinding[] = [];
  const runs: string[] = [];
  const userRuns: string[] = [];
  const check = (command: string, where: string, automatic: boolean, line: number | undefined, buildStep = false, bareBuild = false) => {
    findings.push(...shellCommandFindings(command, { file: path, line, where, automatic, buildStep, bareBuild }));
    const target = automatic ? scriptTarget(command) : null;
    if (target !== null) runs.push(target);
  };
  if (kind === 'package-json') {
    let manifest: Record<string, unknown>;
    try {
      manifest = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { findings, runs, userRuns };
    }
    const scripts = typeof manifest.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
    for (const hook of LIFECYCLE) {
      const command = scripts[hook];
      if (typeof command === 'string') check(command, `npm ${hook} script`, true, lineOfText(text, `"${hook}"`));
    }
    for (const name of USER_RUN) {
      const command = scripts[name];
      const target = typeof command === 'string' ? scriptTarget(command) : null;
      if (target !== null) userRuns.push(target);
    }
    const hookSets = [manifest['simple-git-hooks'], (manifest.husky as { hooks?: unknown } | undefined)?.hooks];
    for (const hooks of hookSets) {
      if (typeof hooks !== 'object' || hooks === null) continue;
      for (const [name, command] of Object.entries(hooks)) if (typeof command === 'string') check(command, 'git hook', true, lineOfText(text, command, `"${name}"`));
    }
    return { findings, runs, userRuns };
  }
  if (kind === 'lefthook' || kind === 'pre-commit') {
    for (const command of yamlCommands(text, kind === 'lefthook' ? ['run'] : ['entry'])) check(command, 'git hook', true, lineOfText(text, command), true);
    return { findings, runs, userRuns };
  }
  if (kind === 'msbuild') {
    findings.push(...msbuildFindings(path, text, check));
    return { findings, runs, userRuns };
  }
  if (kind === 'ide-build-script' && /(?:^|\/)build\.rs$/.test(path)) findings.push(...buildRsNetworkFindings(path, text, 'build script'));
  if (kind === 'ide-build-script' && isGradleScript(path)) findings.push(...gradleScriptFindings(path, text));
  if (kind === 'configure-script' || kind === 'makefile') {
    const backdoor = buildDecodeRunFinding(path, text, kind === 'makefile' ? 'Makefile' : 'build macro or configure script');
    if (backdoor !== null) findings.push(backdoor);
  }
  if (kind === 'ide-build-script' || kind === 'configure-script') {
    // Commands sit in string literals (`Command::new("sh").args(["-c", "…"])`, `commandLine 'sh', '-c', '…'`,
    // `execute_process(COMMAND sh -c "…")`): each line naming a downloader or a shell gets the checks.
    const where = kind === 'ide-build-script' ? 'build script run on IDE import' : 'configure script';
    for (const { line, number } of shellLines(text)) {
      if (/^\s*(\/\/|\/\*|\*|dnl\b)/.test(line) || !/\b(curl|wget|iwr|irm|sh|bash|powershell|pwsh|nc|base64)\b|\/dev\/tcp/.test(line)) continue;
      // A build script or configure step fetching code and running it is CRIT from any but an official installer host.
      check(line, where, kind === 'ide-build-script', number, true);
    }
    return { findings, runs, userRuns };
  }
  const where = kind === 'git-hook' ? 'git hook' : kind === 'makefile' ? 'Makefile' : 'shell script';
  if (kind !== 'makefile') text = expandShellVariables(text);
  if (kind !== 'makefile') findings.push(...shellScriptFindings(text, { file: path, where, automatic: kind === 'git-hook' }));
  // A bare `make` runs the default goal and what it depends on, and `$(shell …)` runs as the Makefile is read.
  const bare = kind === 'makefile' ? makeDefaultRecipeLines(text) : new Set<number>();
  for (const { line, number } of shellLines(text)) {
    if (kind === 'makefile' && !/^\t/.test(line) && !/\$\(shell\b/.test(line)) continue;
    const onBareMake = bare.has(number) || (kind === 'makefile' && !/^\t/.test(line));
    check(line, onBareMake ? 'Makefile default goal (runs on a bare make)' : where, kind === 'git-hook', number, kind === 'git-hook', onBareMake);
  }
  return { findings, runs, userRuns };
}

/**
 * The recipe lines (1-based) a bare `make` runs: the default goal (`.DEFAULT_GOAL`, else the first
 * target that is not special or a pattern) and, transitively, the targets it depends on in this file.
 */
export function makeDefaultRecipeLines(text: string): Set<number> {
  const lines = text.split('\n');
  const rules = new Map<string, { prereqs: string[]; recipe: number[] }>();
  let goal = /^\.DEFAULT_GOAL\s*:?=\s*(\S+)/m.exec(text)?.[1] ?? null;
  let current: { prereqs: string[]; recipe: number[] }[] = [];
  lines.forEach((line, i) => {
    if (/^\t/.test(line)) {
      for (const rule of current) rule.recipe.push(i + 1);
      return;
    }
    if (line.trim() === '' || /^\s*#/.test(line)) return;
    const rule = /^([^\s:=#][^:=#]*?)\s*::?(?![=])\s*([^;#]*)/.exec(line);
    const assignment = /^\s*(?:export\s+|override\s+)?[\w.-]+\s*(?::{1,3}=|\?=|\+=|!=|=)/.test(line);
    if (rule === null || assignment || /^\s*(?:ifn?eq|ifn?def|else|endif|include|-include|define|endef)\b/.test(line)) {
      current = [];
      return;
    }
    const targets = rule[1]!.split(/\s+/).filter((t) => t !== '');
    const prereqs = rule[2]!.split('|').join(' ').split(/\s+/).filter((t) => t !== '' && !t.includes('$'));
    current = targets.map((t) => {
      const r = rules.get(t) ?? { prereqs: [], recipe: [] };
      r.prereqs.push(...prereqs);
      rules.set(t, r);
      return r;
    });
    if (goal === null) goal = targets.find((t) => !t.startsWith('.') && !t.includes('%') && !t.includes('$')) ?? null;
  });
  const out = new Set<number>();
  const seen = new Set<string>();
  const stack = goal === null ? [] : [goal];
  while (stack.length > 0 && seen.size < 200) {
    const t = stack.pop()!;
    if (seen.has(t)) continue;
    seen.add(t);
    const r = rules.get(t);
    if (r === undefined) continue;
    for (const n of r.recipe) out.add(n);
    stack.push(...r.prereqs);
  }
  return out;
}

const XML_ENTITY: Record<string, string> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' };
function xmlText(value: string): string {
  return value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(quot|apos|amp|lt|gt));/gi, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => (hex !== undefined ? String.fromCodePoint(parseInt(hex, 16)) : dec !== undefined ? String.fromCodePoint(Number(dec)) : XML_ENTITY[name!.toLowerCase()]!));
}

// What an inline task's C# does: downloads, runs processes, loads assemblies from bytes, decodes.
const CS_NETWORK = /\b(?:WebClient|HttpClient|WebRequest|HttpWebRequest|TcpClient|Socket)\b|\.Download(?:String|File|Data)\b|\.GetAsync\s*\(|\.PostAsync\s*\(/;
const CS_RUNS = /\bProcess\.Start\b|\bnew\s+ProcessStartInfo\b|\bAssembly\.Load(?:From|File)?\s*\(|\bMarshal\.GetDelegateForFunctionPointer\b|\bVirtualAlloc\b/;
const CS_DECODES = /\bConvert\.FromBase64String\b|\bGZipStream\b|\bDeflateStream\b/;

/**
 * An MSBuild project's build steps: `<Exec Command="…">`, `<PreBuildEvent>` and `<PostBuildEvent>`
 * get the shell checks as automatic commands (XML entities decoded: `&quot;`, `&#xA;`); an inline
 * task's C# (`UsingTask` with a code task factory) is judged by what it does.
 */
function msbuildFindings(path: string, text: string, check: (command: string, where: string, automatic: boolean, line: number | undefined, buildStep?: boolean) => void): AgentFinding[] {
  const out: AgentFinding[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const where = 'MSBuild build step (runs on every build; IDEs build when the project opens)';
  for (const m of text.matchAll(/<Exec\b[^>]*?\bCommand\s*=\s*(["'])([\s\S]*?)\1/gi)) {
    for (const command of xmlText(m[2]!).split(/\r?\n/)) if (command.trim() !== '') check(command.trim(), where, true, lineAt(m.index!), true);
  }
  for (const m of text.matchAll(/<(PreBuildEvent|PostBuildEvent|PreLinkEvent)>([\s\S]*?)<\/\1>/gi)) {
    for (const command of xmlText(m[2]!.replace(/<\/?Command>/gi, '')).split(/\r?\n/)) if (command.trim() !== '') check(command.trim(), where, true, lineAt(m.index!), true);
  }
  for (const m of text.matchAll(/<UsingTask\b[^>]*TaskFactory\s*=\s*["'](?:Roslyn)?CodeTaskFactory["'][\s\S]*?<\/UsingTask>/gi)) {
    const code = xmlText(m[0].replace(/<!\[CDATA\[|\]\]>/g, ''));
    const net = CS_NETWORK.exec(code);
    const runs = CS_RUNS.exec(code);
    const decodes = CS_DECODES.exec(code);
    const line = lineAt(m.index!);
    if (runs !== null && (net !== null || decodes !== null)) out.push(referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: `MSBuild inline task ${net !== null ? 'downloads' : 'decodes'} code and runs it on build`, file: path, line, evidence: `${(net ?? decodes)![0]} … ${runs[0]}` }));
    else if (runs !== null || net !== null) out.push(referenceFinding({ category: runs !== null ? 'install_script' : 'network_access', severity: 'MED', title: runs !== null ? 'MSBuild inline task starts processes on build' : 'MSBuild inline task opens network connections on build', file: path, line, evidence: (runs ?? net)![0] }));
  }
  return out;
}

// A Cargo build script's own network I/O: std::net sockets and the HTTP client crates.
const RUST_NETWORK = /\b(?:TcpStream|UdpSocket)::(?:connect|bind)\b|\b(?:reqwest|ureq|attohttpc|minreq|isahc|surf)::|\bcurl::easy\b|\bhyper::Client\b|\bToSocketAddrs\b|\bCommand::new\(\s*"(?:curl|wget|iwr|Invoke-WebRequest)"/;
// A program run after the download: a shell or script host (a compiler named by a variable, `Command::new(&cc)`, is not).
const RUST_RUNS = /\bCommand::new\(\s*"(?:[\w/.-]*\/)?(?:sh|bash|zsh|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh|python3?|perl|chmod)"/;
// What a build script could send: the whole build environment (CI secrets, tokens) or files of the user's home.
const RUST_SECRET_SOURCE = /\benv::vars(?:_os)?\s*\(|\benv::var(?:_os)?\(\s*"[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|CREDENTIALS?|API_KEY|ACCESS_KEY)[A-Z0-9_]*"|\bdirs(?:_next)?::home_dir\b|\benv::var\(\s*"(?:HOME|USERPROFILE)"|\.ssh\b|\.aws\b|\.cargo\/credentials|\.npmrc|\.git-credentials|\bgit-credentials\b/;

// The user's home directory or a credential store in it as a place to read from.
const RUST_HOME = /\bdirs(?:_next)?::home_dir\b|\bhome::home_dir\b|\benv::var(?:_os)?\(\s*"(?:HOME|USERPROFILE)"|\.ssh\b|\.aws\b|\.cargo\/credentials|\.npmrc|\.git-credentials/;
// The home directory itself (not a credential path in it).
const RUST_HOME_DIR = /\bdirs(?:_next)?::home_dir\b|\bhome::home_dir\b|\benv::var(?:_os)?\(\s*"(?:HOME|USERPROFILE)"/;
// Files read or a directory walked (a download cache only writes; a key stealer reads and walks).
const RUST_READS_FILES = /\bfs::read(?:_to_string)?\s*\(|\bread_dir\s*\(|\bFile::open\s*\(|\bWalkDir::new\b|\bglob\s*\(/;
// A request that carries a body: POST, JSON, form or raw bytes (a download is a GET with none).
const RUST_SENDS_BODY = /\bureq::post\b|\.post\s*\(|\.send_(?:json|string|bytes|form)\s*\(|\.body\s*\(|\.json\s*\(\s*&|\.multipart\s*\(/;

/**
 * A file the Rust code writes (`fs::write(&p, …)`, `File::create(&p)`) and then starts as a program
 * (`Command::new(&p)`): what a dropper does with bytes it downloaded or carried. A compiler or tool
 * found on PATH or named by an environment variable is never written by the script first.
 */
function writtenFileRun(text: string): { index: number; evidence: string } | null {
  const written = new Set([...text.matchAll(/\b(?:fs::write|File::create|OpenOptions::new\(\)[^;]{0,80}?\.open)\s*\(\s*&?(\w+)/g)].map((m) => m[1]!));
  if (written.size === 0) return null;
  for (const m of text.matchAll(/\bCommand::new\(\s*&?(\w+)\s*\)/g)) if (written.has(m[1]!)) return { index: m.index, evidence: m[0] };
  return null;
}

/**
 * A build.rs that talks to the network itself: cargo (and rust-analyzer, on opening the project)
 * runs it with the user's environment, and a build needs nothing from the network that Cargo does
 * not fetch. With the whole environment or home-directory files in reach it is exfiltration.
 */
function buildRsNetworkFindings(path: string, text: string, subject: 'build script' | 'proc macro'): AgentFinding[] {
  const net = RUST_NETWORK.exec(text);
  const written = writtenFileRun(text);
  // An embedded blob (`include_bytes!`) written out and started: a dropper, whatever the file is named.
  const embedded = /\binclude_bytes!\s*\(/.exec(text);
  if (!net && written !== null && embedded !== null) return [referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: `${subject} writes an embedded program to disk and runs it`, file: path, line: text.slice(0, written.index).split('\n').length, evidence: `${embedded[0]} … ${written.evidence}` })];
  if (!net) return [];
  const line = text.slice(0, net.index).split('\n').length;
  const source = RUST_SECRET_SOURCE.exec(text);
  const runs = RUST_RUNS.exec(text) ?? (written === null ? null : Object.assign([written.evidence], { index: written.index }));
  // Fetched, then run: the build executes a program it did not ship.
  if (runs !== null) return [referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: `${subject} downloads a program and runs it`, file: path, line: text.slice(0, runs.index).split('\n').length, evidence: `${net[0]} … ${runs[0]}` })];
  // Files of the home directory read and a request body sent: what the faster_log / async_println
  // crates did (Socket, Sep 2025: key-shaped strings collected from files and POSTed). A build needs neither.
  const home = RUST_HOME.exec(text);
  const reads = RUST_READS_FILES.exec(text);
  const sends = RUST_SENDS_BODY.exec(text);
  if (home !== null && reads !== null && sends !== null) {
    return [referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: `${subject} reads files of the home directory and sends them over the network`, file: path, line: text.slice(0, sends.index).split('\n').length, evidence: `${home[0]} … ${reads[0]} … ${sends[0]}` })];
  }
  // The home directory as a place to write (a download cache under ~/.cache) with no request body and
  // no raw socket: nothing of the user's leaves; it is a build that downloads.
  const homeOnly = source !== null && sends === null && !/\b(?:TcpStream|UdpSocket)::/.test(text) && !RUST_SECRET_SOURCE.test(text.replace(new RegExp(RUST_HOME_DIR.source, 'g'), ''));
  return [
    referenceFinding({
      category: source && !homeOnly ? 'exfiltration' : 'network_access',
      severity: source && !homeOnly ? 'HIGH' : 'MED',
      title: source && !homeOnly ? `${subject} sends the build environment or home files over the network` : `${subject} opens network connections`,
      file: path,
      line,
      evidence: source && !homeOnly ? `${source[0]} … ${net[0]}` : net[0],
    }),
  ];
}

/**
 * The library file of a Cargo proc-macro crate (`[lib] proc-macro = true`; `path`, else `src/lib.rs`),
 * relative to the Cargo.toml's directory, or null. The compiler runs a proc macro while building every
 * crate that uses it, and rust-analyzer expands proc macros when a project is opened.
 */
export function procMacroLibrary(cargoToml: string): string | null {
  const lib = /^\s*\[lib\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(cargoToml)?.[1];
  if (lib === undefined || !/^\s*proc[-_]macro\s*=\s*true\b/m.test(lib)) return null;
  const path = /^\s*path\s*=\s*["']([^"']+)["']/m.exec(lib)?.[1] ?? 'src/lib.rs';
  return path.includes('..') || path.startsWith('/') ? null : path.replace(/^\.\//, '');
}

/** A proc macro's source read as a build script run on IDE import: its own network I/O and the command lines it holds. */
export function procMacroFindings(path: string, text: string): AgentFinding[] {
  const findings = [referenceFinding({ category: 'install_script', severity: 'LOW', title: 'proc macro runs when the project is built or opened in an IDE', file: path, line: 1, evidence: path }), ...buildRsNetworkFindings(path, text, 'proc macro')];
  for (const { line, number } of shellLines(text)) {
    if (/^\s*(\/\/|\/\*|\*)/.test(line) || !/\b(curl|wget|iwr|irm|sh|bash|powershell|pwsh|nc|base64)\b|\/dev\/tcp/.test(line)) continue;
    findings.push(...shellCommandFindings(line, { file: path, line: number, where: 'proc macro run on IDE import', automatic: true }));
  }
  return findings;
}
