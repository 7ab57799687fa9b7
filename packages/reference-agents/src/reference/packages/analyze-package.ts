import { agentSettingsFindings } from '../code/agent-settings-writes.js';
import { linkArtifactConstants } from '../common/linked-constants.js';
import { open } from 'node:fs/promises';
import { addressHijackFinding } from '../code/address-hijack.js';
import { indirectExecFinding } from '../code/indirect-exec.js';
import { keyFunctionWrapFinding } from '../code/key-function-wrap.js';
import { KEY_HANDOFF_TITLE, keyHandoffSend, keySenderOf, type ImportedKeyHandoff } from './key-handoff-send.js';
import { posix } from 'node:path';
import type { AgentFinding, AgentResult } from '@vigil/core';
import { CREDENTIAL_PATH, type CallFact, type CodeFacts } from '../code/code-facts.js';
import { javascriptFacts } from '../code/javascript/index.js';
import { pythonFacts } from '../code/python-facts.js';
import type { AnalyzeInput } from '../common/analyzer.js';
import { DEFAULT_FILE_WALK_LIMITS, listArtifactFiles, readArtifactText, type ArtifactFile } from '../common/artifact-files.js';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { resultFromFindings } from '../common/score-findings.js';
import { EVAL_CALLEE, PLANTED_CODE, TELEMETRY_OPT_OUT, codeFindings, isPlaceholderWebhook, networkCall, readsInstanceCredentials, sendsToFixedHost } from './code-findings.js';
import { GIT_INSTALL_HOOKS, INSTALL_HOOKS, parseScript, resolveModulePath } from './install-scripts.js';
import { metadataFindings } from './metadata-findings.js';
import { PYTHON_DEPENDENCY_FILE, pythonUrlDependencyFindings } from './python-url-dependencies.js';
import { indexConfigFindings } from '../repositories/index-config-findings.js';
import { metadataName, packageLayout } from './package-manifest.js';
import { expandShellVariables } from '../repositories/shell-command-findings.js';
import { commandSignals, shellPackagePatch } from './shell-command.js';
import { gypCommands } from '../code/self-run-surfaces.js';
import { ownHost, packageIdentity, registrableDomain, type PackageIdentity } from './package-identity.js';
import { hasLookalikeLetters, unicodeFindings } from './unicode-findings.js';
import { hiddenCodeFindings } from './hidden-code-findings.js';
import { ciTakeover } from './ci-takeover.js';
import { foreignRuntimeRun } from './foreign-runtime.js';
import { deadDrop } from './dead-drop.js';
import { nativeLibraryLoad } from './native-library-load.js';
import { modelFileFindings } from '../common/model-file-findings.js';
import { privilegedShimFinding } from '../text/privileged-shim.js';
import { shellSecretSendFinding } from '../text/shell-secret-send.js';
import { BUILD_SYSTEM_FILE, buildDecodeRunFinding } from '../text/build-decode-run.js';
import { installSpreadFindings } from './install-spread.js';
import { lowerUnreachedTestFindings, pthAtSitePackagesTop } from './test-fixtures.js';
import { CAPABILITY_COOCCURRENCE_TITLE, CAPABILITY_FLOW_TITLE, capabilityFindings, capabilityModule, type AutoRunEntry, type CapabilityModule } from './capability-findings.js';

const reparse = (code: string, language: CodeFacts['language']): CodeFacts => (language === 'javascript' ? javascriptFacts(code) : pythonFacts(code));

const JS_FILE = /\.(js|cjs|mjs|jsx|ts|cts|mts|tsx)$/i;
// Type declarations (`.d.ts`, `.d.mts`): nothing in them runs.
const DECLARATION_FILE = /\.d\.[cm]?ts$/i;
const TS_FILE = /\.[cm]?tsx?$/i;
const PY_FILE = /\.py$/i;
/** Files above this size are not parsed (generated bundles); they get a cheap text scan. */
const MAX_PARSE_BYTES = 512 * 1024;
/** Source parsed per package at most; the rest gets the cheap scan, so a huge tarball stays bounded in time. */
const MAX_PARSED_TOTAL = 3 * 1024 * 1024;
/** Code read for the cheap scan per package at most (files of any size, read in chunks); past it files are counted, not read. */
const MAX_SCANNED_TOTAL = 64 * 1024 * 1024;
/** Files read ahead of the one being analyzed: reads overlap with parsing on a busy disk. */
const READ_AHEAD = 8;
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
/** The title of the cross-module startup theft finding (read in one module, sent from another at load). */
export const STARTUP_SPLIT_TITLE = 'Reads credentials in one module and sends them from another when the package loads';

export async function analyzePackage(input: AnalyzeInput, options: { installTimeOnly?: boolean; startupSplitOnly?: boolean } = {}): Promise<AgentResult> {
  const { files } = await listArtifactFiles(input.dir);
  // Constants one module takes from another read as written in place, in every reader.
  await linkArtifactConstants(files);
  const layout = packageLayout(files);
  const byPath = new Map(files.map((f) => [f.path.slice(layout.prefix.length), f] as const));
  // Pickles and model checkpoints run code when the package loads them: their imports are read without unpickling.
  const findings: AgentFinding[] = await modelFileFindings(files);
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
  } else if (layout.kind === 'sdist') {
    if (byPath.has('setup.py')) installTime.add('setup.py');
    const pyproject = byPath.get('pyproject.toml');
    const toml = pyproject === undefined ? null : await readArtifactText(pyproject);
    if (toml !== null) for (const path of pythonBuildHooks(toml)) if (byPath.has(path)) installTime.add(path);
  }

  // Who the package says it is: install scripts downloading from the vendor's own site are judged by it.
  let metadataText: string | null = null;
  if (layout.ecosystem === 'pypi') {
    const meta = byPath.get('PKG-INFO') ?? [...byPath].find(([p]) => /^[^/]+\.dist-info\/METADATA$/.test(p))?.[1];
    metadataText = meta === undefined ? null : await readArtifactText(meta);
  }
  const identity = packageIdentity(
    typeof manifest?.name === 'string' ? manifest.name : metadataText === null ? null : metadataName(metadataText),
    [...manifestUrls(manifest), ...(metadataText === null ? [] : [...metadataText.matchAll(/^(?:Home-page|Download-URL|Project-URL):\s*(?:[^,\n]*,\s*)?(\S+)/gim)].map((m) => m[1]!))],
  );
  if (manifest !== null && manifestText !== null) findings.push(...(await installScriptFindings(manifest, manifestText, byPath, installTime, identity)));
  // Files the ecosystem runs by itself besides install scripts: node-gyp's binding.gyp commands
  // (npm builds a package that ships one at install) and Python's sitecustomize/usercustomize modules.
  if (layout.kind === 'npm') findings.push(...(await gypInstallFindings(byPath, installTime, identity)));
  if (layout.ecosystem === 'pypi') {
    for (const rel of byPath.keys()) {
      if (!STARTUP_MODULE.test(rel)) continue;
      installTime.add(rel);
      findings.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: 'Installs a module Python runs at every start (sitecustomize/usercustomize)', file: rel, line: 1, evidence: rel }));
    }
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
    const facts = javascriptFacts(text, { typescript: TS_FILE.test(rel) });
    parsedBytes += file.size;
    factsCache.set(rel, facts);
    // The walk below skips what it finds parsed here: the text-level checks (invisible-character
    // payloads, escape-coded names, code after a run of whitespace) must run on install-time code too,
    // where they matter most. They were skipped for every install script and what it requires.
    findings.push(...unicodeFindings(text, rel, 'javascript'), ...hiddenCodeFindings(text, rel));
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
  // Code files are read ahead (READ_AHEAD at a time); files too big to read whole are scanned in chunks.
  const codeOrder = order.filter(([rel]) => (JS_FILE.test(rel) && !DECLARATION_FILE.test(rel)) || PY_FILE.test(rel));
  const pending = new Map<string, Promise<string | null>>();
  let nextRead = 0;
  const textOf = (rel: string, file: ArtifactFile): Promise<string | null> => {
    while (nextRead < codeOrder.length && pending.size < READ_AHEAD) {
      const [r, f] = codeOrder[nextRead++]!;
      if (!pending.has(r) && f.size <= MAX_PARSE_BYTES * 4 && !factsCache.has(r)) pending.set(r, readArtifactText(f).catch(() => null));
    }
    const p = pending.get(rel) ?? readArtifactText(file);
    pending.delete(rel);
    return p;
  };
  let scannedBytes = 0;
  let unread = 0;
  /** JavaScript files that read an image file and cut bytes out of it after a marker. */
  const imageCarvers = new Set<string>();
  const evaluators: { rel: string; line: number; callee: string; local: string[] }[] = [];
  /** Files that replace a library function, with the package's modules they import. */
  const patchers: { rel: string; line: number; target: string; local: string[] }[] = [];
  /** Files that send data to a host fixed in their code. */
  const fixedSenders = new Set<string>();
  const anySenders = new Set<string>();
  /** (round s31b) Key material a key constructor hands to a function of another module of the package. */
  const keyHandoffsOut: ({ rel: string } & ImportedKeyHandoff)[] = [];
  /** Files that read instance credentials from a cloud metadata service, with the package's modules they import. */
  const metadataReaders: { rel: string; line: number; local: string[] }[] = [];
  /** Files that read credential files or gather the environment (or secret-named variables) as they run. */
  const secretCollectors = new Set<string>();
  // Hosts the README documents (API base URLs) are where the package's own requests go: a send there is not to a fixed outside host.
  const readmeHosts = await documentedHosts(byPath);
  const documented: PackageIdentity = { ...identity, domains: new Set([...identity.domains, ...[...readmeHosts].map(registrableDomain)]) };
  /** Every code file parsed whole, for the capability judge's module graph. */
  const parsedModules = new Map<string, { file: ArtifactFile; facts: CodeFacts; isPy: boolean }>();
  /** Files that call a function of another module of the package when they load, with the modules they import. */
  const loaders: { rel: string; file: ArtifactFile; isPy: boolean; calls: CallFact[]; imports: Map<string, string> }[] = [];
  for (const [rel, file] of order) {
    // Another track's agent asks only what runs at install (an MCP server's package scripts).
    if (options.installTimeOnly === true && !installTime.has(rel)) continue;
    const isJs = JS_FILE.test(rel) && !DECLARATION_FILE.test(rel);
    const isPy = PY_FILE.test(rel);
    if (rel.endsWith('.pth') && layout.ecosystem === 'pypi') {
      // Lines of a .pth starting with `import` run at every interpreter start (setuptools' own
      // distutils shim does it): reported low, and the code on them analyzed as install-time code.
      const text = await readArtifactText(file);
      const m = text === null ? null : /^\s*import\s.*$/m.exec(text);
      // (round s31b) Only a .pth at the top of site-packages is read at start: one in a subfolder is text, its code read as such.
      if (m !== null && text !== null && !(await pthAtSitePackagesTop(rel, layout.kind, byPath))) {
        const code = text.split('\n').filter((l) => /^\s*import\s/.test(l)).join('\n');
        findings.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: 'A .pth file sits in a subfolder, where Python never reads it at start', file: rel, line: lineAt(text, m.index), evidence: m[0] }));
        findings.push(...codeFindings(pythonFacts(code), { file: rel, installTime: false, reparse, identity }));
      } else if (m !== null && text !== null) {
        const code = text.split('\n').filter((l) => /^\s*import\s/.test(l)).join('\n');
        const risky = /\b(exec|eval|b64decode|subprocess|system|urlopen|socket|popen)\b/.test(code);
        findings.push(referenceFinding({ category: 'install_script', severity: risky ? 'HIGH' : 'LOW', title: risky ? 'A .pth file runs decoded or external code every time Python starts' : 'A .pth file runs an import every time Python starts', file: rel, line: lineAt(text, m.index), evidence: m[0] }));
        findings.push(...codeFindings(pythonFacts(code), { file: rel, installTime: true, reparse, identity }));
      }
      continue;
    }
    if ((rel === 'PKG-INFO' || /^[^/]+\.dist-info\/METADATA$/.test(rel)) && packageName === null) {
      const text = metadataText ?? (await readArtifactText(file));
      if (text !== null) packageName = metadataName(text);
    }
    if (!isJs && !isPy) {
      // Build files an install runs (`./configure && make`, node-gyp): decoding data and running it is a build-time backdoor.
      if (BUILD_SYSTEM_FILE.test(rel) && file.size <= 2_000_000) {
        const text = await readArtifactText(file);
        const backdoor = text === null ? null : buildDecodeRunFinding(rel, text, 'build file');
        if (backdoor !== null) findings.push(backdoor);
        continue;
      }
      if (!TEXTUAL.test(rel)) {
        const kind = await nativeKind(file);
        if (kind !== null) findings.push(...nativeFindings(rel, kind));
      }
      continue;
    }
    const isInstall = installTime.has(rel);
    let facts = factsCache.get(rel);
    if (facts === undefined) {
      const deepCandidate = isInstall || (file.size <= MAX_PARSE_BYTES * 4 && parsedBytes <= MAX_PARSED_TOTAL);
      if (!deepCandidate) {
        // Bundles and overflow: a scan for sinks only, in chunks, so a huge file is never a blind spot.
        if (scannedBytes + file.size > MAX_SCANNED_TOTAL) {
          unread++;
          continue;
        }
        scannedBytes += file.size;
        const whole = file.size <= DEFAULT_FILE_WALK_LIMITS.maxTextBytes ? await readArtifactText(file) : null;
        const bundled = whole !== null && isJs ? addressHijackFinding(rel, whole) : null;
        if (bundled !== null) findings.push(bundled);
        findings.push(...(whole !== null ? cheapScan(whole, rel) : file.size > DEFAULT_FILE_WALK_LIMITS.maxTextBytes ? await scanInChunks(file, rel) : []));
        continue;
      }
      const text = await textOf(rel, file);
      if (text === null) {
        if (file.size > DEFAULT_FILE_WALK_LIMITS.maxTextBytes) findings.push(...(await scanInChunks(file, rel)));
        continue;
      }
      // Page and wallet request hooks that swap crypto addresses (chalk/debug 2025), bundles and one-liners too.
      const hijack = isJs ? addressHijackFinding(rel, text) : null;
      if (hijack !== null) findings.push(hijack);
      // Size is judged without whitespace, so padding a payload with spaces does not hide it.
      const big = file.size > MAX_PARSE_BYTES && nonSpaceLength(text) > MAX_PARSE_BYTES;
      // A bundle of many modules (webpack, esbuild, rollup chunks) that no entry point or install
      // script names: file-level co-occurrence means nothing there, so it gets the sink scan.
      if (!isInstall && !entries.has(rel) && (big || parsedBytes > MAX_PARSED_TOTAL || isVendorBundle(text, file.size))) {
        scannedBytes += file.size;
        findings.push(...cheapScan(text, rel));
        continue;
      }
      findings.push(...unicodeFindings(text, rel, isJs ? 'javascript' : 'python'), ...hiddenCodeFindings(text, rel));
      // exec/eval looked up through __builtins__ and run on decoded data (s17): never written as exec(…).
      const indirect = isPy ? indirectExecFinding(rel, text) : null;
      if (indirect !== null) findings.push(indirect);
      // Another library's key constructors wrapped to send the keys they make (set-utils, s17).
      const keyWrap = keyFunctionWrapFinding(rel, text, isJs ? 'javascript' : 'python');
      if (keyWrap !== null) findings.push(keyWrap);
      // The package's own key constructor handing the key to a local sender or a queue a flush sends (@solana/web3.js 2024, s29).
      const keyHandoff = isJs ? keyHandoffSend(rel, text) : null;
      if (keyHandoff?.finding) findings.push(keyHandoff.finding);
      // (round s31b) …or to a function of another module of the package, judged on that module after the walk.
      for (const h of keyHandoff?.imported ?? []) keyHandoffsOut.push({ rel, ...h });
      if (isJs && IMAGE_NAME.test(text) && MARKER_CUT.test(text)) imageCarvers.add(rel);
      facts = isJs ? javascriptFacts(text, { typescript: TS_FILE.test(rel) }) : pythonFacts(isPy && hasLookalikeLetters(text) ? text.normalize('NFKC') : text);
      parsedBytes += file.size;
    }
    if (isInstall) findings.push(...(await scriptsRunBy(facts, rel, byPath)));
    // Install-time code that turns a coding agent's approvals off or points an LLM API base URL at a relay (in-sample: r14).
    if (isInstall) {
      const text = await readArtifactText(file);
      if (text !== null) findings.push(...agentSettingsFindings(rel, text, 'automatic'));
    }
    analyzed.add(rel);
    parsedModules.set(rel, { file, facts, isPy });
    // A file named like sudo written ahead of the real one on PATH (read only where the code names such a program).
    if (facts.strings.some((x) => /(?:^|[\\/])(?:sudo|su|doas|pkexec)$|\balias\s+(?:sudo|su|doas|pkexec)\s*=|\b(?:sudo|doas)\s*\(\s*\)\s*\{/.test(x.value))) {
      const text = await readArtifactText(file);
      const shim = text === null ? null : privilegedShimFinding(rel, text, isInstall ? 'install-time code' : 'package code');
      if (shim !== null) findings.push(shim);
    }
    // A self-hosted runner registered, or a workflow written and pushed (Shai-Hulud 2.0, r16): read only where the code names either.
    if (facts.strings.some((x) => /config\.(?:sh|cmd)|actions\/runners|workflows/.test(x.value))) {
      const text = await readArtifactText(file);
      const ci = text === null ? null : ciTakeover(facts, text);
      if (ci !== null) findings.push(referenceFinding({ category: 'malware', severity: isInstall ? 'CRIT' : 'HIGH', title: ci.title, file: rel, line: ci.line, evidence: ci.evidence }));
    }
    // A next stage read from a chain transaction, a calendar event or a paste, and code evaluated (GlassWorm, r16).
    const drop = isJs ? deadDrop(facts) : null;
    if (drop !== null) findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: 'Reads a dead drop (chain transaction, calendar event, paste) and evaluates code built at run time', file: rel, line: drop.line, evidence: `${drop.source} read; ${drop.sink}(…) of a run-time value` }));
    // Install-time Python loading a native library the package ships (Scavenger through ctypes, r16).
    if (isPy && (isInstall || (layout.kind === 'sdist' && rel === 'setup.py'))) {
      const shipped = new Set([...byPath.keys()].filter((p) => /\.(?:dll|so|dylib|pyd)$/i.test(p)).map((p) => posix.basename(p).toLowerCase()));
      const load = shipped.size > 0 ? nativeLibraryLoad(facts, shipped) : null;
      if (load !== null) findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: 'Install-time code loads a native library shipped in the package', file: rel, line: load.line, evidence: `${load.callee}(…${load.library})` }));
    }
    if (isPy && rel === 'setup.py' && packageName === null) {
      const setup = facts.calls.find((c) => /(^|\.)setup$/.test(c.callee) && c.options.name !== undefined);
      if (setup !== undefined && /^[\w.-]+$/.test(setup.options.name!)) packageName = setup.options.name!;
    }
    findings.push(...codeFindings(facts, { file: rel, installTime: isInstall || (layout.kind === 'sdist' && rel === 'setup.py'), reparse, identity, telemetrySwitch: await namesTelemetrySwitch(facts, file) }));
    if (isJs) {
      // Code evaluated from a value that is not a constant, in a file that requires other files of the package.
      const evaluates = facts.calls.find((c) => EVAL_CALLEE.test(c.callee) && c.args[0] === null);
      if (evaluates !== undefined) {
        const local = facts.imports.filter((i) => i.module.startsWith('.')).map((i) => resolveModulePath(i.module, posix.dirname(rel), (p) => byPath.has(p))).filter((p): p is string => p !== null);
        if (local.length > 0) evaluators.push({ rel, line: evaluates.line, callee: evaluates.callee, local });
      }
    }
    if (isPy && rel === 'setup.py') findings.push(...setupPyFindings(facts));
    if (sendsToFixedHost(facts, documented)) fixedSenders.add(rel);
    // Instance credentials have no business going to any fixed host, the package's own included.
    if (sendsToFixedHost(facts, undefined)) anySenders.add(rel);
    const hook = facts.hooks.find((h) => !/^(fetch|XMLHttpRequest\.|ethereum|solana)/.test(h.target) && h.sends !== true);
    if (hook !== undefined) patchers.push({ rel, line: hook.line, target: hook.target, local: localModules(facts, rel, isPy, (p) => byPath.has(p)) });
    if (collectsSecrets(facts)) secretCollectors.add(rel);
    // Calls into another module of the package when the file loads, and the file's own sends at load (`req.end(t)` with `t` imported).
    // A call in a callback a timer started at load runs at start too (`setTimeout(() => report(collect()), 5000)`,
    // `threading.Timer(5, lambda: ship(SNAPSHOT)).start()`): the timer call on the same line is at the top level.
    const timerLines = new Set(facts.calls.filter((c) => c.topLevel && /^(setTimeout|setImmediate|setInterval|queueMicrotask|process\.nextTick|threading\.Timer|threading\.Thread)$/.test(c.callee)).map((c) => c.line));
    const loadCalls = facts.calls.filter((c) => (c.topLevel || timerLines.has(c.line)) && (c.callee.startsWith('.') || networkCall(facts, c)));
    if (loadCalls.length > 0) {
      const imports = new Map<string, string>();
      for (const i of facts.imports) {
        const target = i.module.startsWith('.') ? resolveLocal(i.module, rel, isPy, (p) => byPath.has(p)) : null;
        if (target !== null) imports.set(i.module, target);
      }
      loaders.push({ rel, file, isPy, calls: loadCalls, imports });
    }
    if (readsInstanceCredentials(facts) && !anySenders.has(rel)) metadataReaders.push({ rel, line: facts.strings.find((x) => /169\.254|metadata\.|100\.100\.100\.200|fd00:ec2/.test(x.value))?.line ?? 1, local: localModules(facts, rel, isPy, (p) => byPath.has(p)) });
  }

  // An install step that fetches Bun or Deno and runs the package's own file with it (Shai-Hulud 2.0, r16).
  if (manifest !== null) {
    const scripts = typeof manifest.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
    const commands = INSTALL_HOOKS.map((h) => scripts[h]).filter((c): c is string => typeof c === 'string');
    const files = [...installTime].filter((rel) => /\.[cm]?[jt]s$/.test(rel) && parsedModules.has(rel)).map((rel) => ({ file: rel, facts: parsedModules.get(rel)!.facts }));
    const own = new Set([...byPath.keys()].filter((p) => /\.[cm]?[jt]s$/.test(p)).map((p) => posix.basename(p)));
    const run = foreignRuntimeRun(commands, files, own);
    if (run !== null) findings.push(referenceFinding({ category: 'install_script', severity: 'HIGH', title: 'Install step fetches another JavaScript runtime (Bun, Deno) and runs a package file with it', file: run.file, line: run.file === 'package.json' ? lineAt(manifestText ?? '', Math.max(0, (manifestText ?? '').indexOf(run.evidence.slice(0, 40)))) : run.line, evidence: run.evidence }));
  }

  // Instance credentials read in one module and a module it imports sending to a fixed host.
  for (const r of metadataReaders) {
    const sender = r.local.find((m) => anySenders.has(m));
    if (sender !== undefined) findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'Reads cloud instance credentials and imports a module that sends data to a fixed host', file: r.rel, line: r.line, evidence: `metadata service read here; ${sender} sends` }));
  }

  // A library function replaced in one module while another module it imports sends to a fixed host:
  // the patch and the channel split across files (an import-time hook shipping a client's API key).
  for (const p of patchers) {
    const sender = fixedSenders.has(p.rel) ? undefined : p.local.find((m) => fixedSenders.has(m));
    if (sender !== undefined) findings.push(referenceFinding({ category: 'exfiltration', severity: installTime.has(p.rel) ? 'CRIT' : 'HIGH', title: 'Replaces a library function in a module that imports a module sending data to a fixed host', file: p.rel, line: p.line, evidence: `${p.target} replaced; ${sender} sends` }));
  }

  // Credentials gathered by one module and handed, when the package loads, to a function of another
  // module that sends to a fixed host: `report(collect())`, `ship(SNAPSHOT)` (startup theft split so
  // that no file both reads and sends).
  for (const l of loaders) {
    let text: string | null | undefined;
    for (const c of l.calls) {
      const spec = [...l.imports.keys()].filter((m) => c.callee === m || c.callee.startsWith(`${m}.`)).sort((a, b) => b.length - a.length)[0];
      // The sender is the module whose function is called, or this file when the call is its own request.
      const sender = spec === undefined ? (c.callee.startsWith('.') ? undefined : l.rel) : l.imports.get(spec);
      if (sender === undefined || !fixedSenders.has(sender) || (sender === l.rel && spec !== undefined)) continue;
      text ??= await readArtifactText(l.file);
      if (text === null) break;
      const line = text.split('\n')[c.line - 1] ?? '';
      // What is sent comes from a module that collects secrets (a name it exports, or a call of it, on the line), or from this file itself.
      const source = secretCollectors.has(l.rel) && sender !== l.rel ? l.rel : [...l.imports].find(([m, target]) => target !== sender && secretCollectors.has(target) && importedNames(text!, m, l.isPy).some((n) => new RegExp(`(?<![\\w.$])${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(line.replace(/^[^(]*\(/, ''))))?.[1];
      const sameLine = source === undefined ? l.calls.find((o) => o !== c && o.line === c.line && [...l.imports].some(([m, target]) => target !== sender && secretCollectors.has(target) && (o.callee === m || o.callee.startsWith(`${m}.`)))) : undefined;
      const from = source ?? (sameLine === undefined ? undefined : l.imports.get([...l.imports.keys()].find((m) => sameLine.callee === m || sameLine.callee.startsWith(`${m}.`))!));
      if (from === undefined) continue;
      findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: STARTUP_SPLIT_TITLE, file: l.rel, line: c.line, evidence: `${line.trim().slice(0, 120)} — ${from} reads, ${sender} sends to a fixed host` }));
      break;
    }
  }

  // (round s31b) A key constructor handing the key to a function of another module of the package that sends it
  // (directly, or stored where a flush of that module sends it): the @solana/web3.js backdoor split across files.
  // A barrel module passing the name on (`export * from './queue'`) is followed, two modules deep.
  keyHandoffs: for (const h of keyHandoffsOut) {
    let hops: { from: string; module: string; name: string }[] = [{ from: h.rel, module: h.module, name: h.name }];
    for (let depth = 0; depth < 3 && hops.length > 0; depth++) {
      const next: typeof hops = [];
      for (const hop of hops.slice(0, 5)) {
        const target = resolveModulePath(hop.module, posix.dirname(hop.from), (p) => byPath.has(p));
        const file = target === null ? undefined : byPath.get(target);
        if (target === null || file === undefined || !JS_FILE.test(target) || DECLARATION_FILE.test(target) || file.size > MAX_PARSE_BYTES) continue;
        const text = await readArtifactText(file);
        const send = text === null ? null : keySenderOf(target, text, hop.name, h.index);
        if (send === null) continue;
        if ('reexports' in send) {
          next.push(...send.reexports.map((r) => ({ from: target, ...r })));
          continue;
        }
        findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: KEY_HANDOFF_TITLE, file: h.rel, line: h.line, evidence: `${h.evidence} … ${target} line ${send.line}: ${send.evidence}` }));
        break keyHandoffs;
      }
      hops = next;
    }
  }

  // A payload cut out of an image in one module and evaluated in the module that requires it.
  for (const e of evaluators) {
    const carver = e.local.find((p) => imageCarvers.has(p));
    if (carver !== undefined) findings.push(referenceFinding({ category: 'obfuscation', severity: 'CRIT', title: 'Executes code cut out of an image by a module it requires', file: e.rel, line: e.line, evidence: `${e.callee}(…) of what ${carver} cuts out of an image` }));
  }
  // What the modules that run by themselves can do together (capability profiles over the module graph).
  const autoRun: AutoRunEntry[] = [...installTime].map((rel) => ({ rel, when: 'install' as const }));
  if (layout.kind === 'sdist' && byPath.has('setup.py')) autoRun.push({ rel: 'setup.py', when: 'install' });
  for (const rel of entryPoints(manifest, (p) => byPath.has(p), options.startupSplitOnly === true)) autoRun.push({ rel, when: options.startupSplitOnly === true ? 'start' : 'load' });
  if (layout.ecosystem === 'pypi') for (const rel of byPath.keys()) if (/^(?:src\/)?[A-Za-z_]\w*\/__init__\.py$/.test(rel)) autoRun.push({ rel, when: 'load' });
  // A Python server starts from its package's `__main__.py` (`python -m pkg`, `uvx pkg`).
  if (options.startupSplitOnly === true) for (const rel of byPath.keys()) if (/^(?:src\/)?(?:[A-Za-z_]\w*\/)?__main__\.py$/.test(rel)) autoRun.push({ rel, when: 'start' });
  // …or from the console script its pyproject names (`[project.scripts] srv = "pkg.server:main"`: pkg/server.py runs).
  if (options.startupSplitOnly === true) for (const rel of await consoleScriptModules(byPath)) autoRun.push({ rel, when: 'start' });
  findings.push(...(await capabilityJudgement(parsedModules, autoRun, identity, readmeHosts, byPath)));
  if (unread > 0) findings.push(referenceFinding({ category: 'metadata', severity: 'LOW', title: 'Package too large to read in full', file: layout.kind === 'npm' ? 'package.json' : (codeOrder[0]?.[0] ?? '.'), evidence: `${unread} code files past ${MAX_SCANNED_TOTAL / 1024 / 1024} MiB not read` }));
  if (options.installTimeOnly !== true) findings.push(...metadataFindings({ layout, manifest, manifestText, packageName, paths: [...byPath.keys()] }));
  // A Python package's dependencies taken from a URL, or from an index, on a host that is not the registry's.
  if (layout.ecosystem === 'pypi' && options.startupSplitOnly !== true) findings.push(...(await pythonDependencySourceFindings(byPath, metadataText)));
  // (round s31b) Findings in test folders that nothing in the package runs or imports (fixtures, specimens) count LOW.
  const judged = await lowerUnreachedTestFindings(findings, { byPath, reached: new Set([...installTime, ...entries]), manifest });
  // Another track's agent asks only for the startup theft split across modules (an MCP server's code).
  if (options.startupSplitOnly === true) return resultFromFindings(judged.filter((f) => CROSS_MODULE_TITLES.has(f.title)));
  return resultFromFindings(judged);
}

/** The cross-module findings another track's agent asks the packages agent for (an MCP server's code). */
export const CROSS_MODULE_TITLES: ReadonlySet<string> = new Set([STARTUP_SPLIT_TITLE, CAPABILITY_FLOW_TITLE, CAPABILITY_COOCCURRENCE_TITLE]);

/** Hosts of the URLs a package's README names (API base URLs it documents). */
async function documentedHosts(byPath: Map<string, ArtifactFile>): Promise<Set<string>> {
  const readme = [...byPath].find(([p]) => /^readme(\.(md|markdown|rst|txt))?$/i.test(p))?.[1];
  const text = readme === undefined || readme.size > 1_000_000 ? null : await readArtifactText(readme);
  const out = new Set<string>();
  if (text !== null) for (const m of text.matchAll(/\bhttps?:\/\/([a-z0-9.-]+\.[a-z]{2,})/gi)) out.add(m[1]!.toLowerCase());
  return out;
}

/** Runs the capability judge over the parsed modules the automatically run entries reach. */
async function capabilityJudgement(parsed: Map<string, { file: ArtifactFile; facts: CodeFacts; isPy: boolean }>, entries: AutoRunEntry[], identity: PackageIdentity, readmeHosts: ReadonlySet<string>, byPath: Map<string, ArtifactFile>): Promise<AgentFinding[]> {
  const exists = (p: string) => byPath.has(p);
  // Python's absolute imports of the package's own modules (`from mypkg._probe import probe`) resolve from the top or `src/`.
  const resolve = (spec: string, from: string, language: CodeFacts['language']) =>
    language === 'python' && !spec.startsWith('.') ? (/^[A-Za-z_][\w.]*$/.test(spec) ? ['', 'src/'].flatMap((root) => [`${root}${spec.replace(/\./g, '/')}.py`, `${root}${spec.replace(/\./g, '/')}/__init__.py`]).find(exists) ?? null : null) : resolveLocal(spec, from, language === 'python', exists);
  const modules = new Map<string, CapabilityModule>();
  const queue = entries.map((e) => e.rel).filter((r) => parsed.has(r));
  while (queue.length > 0) {
    const rel = queue.shift()!;
    const p = parsed.get(rel);
    if (p === undefined || modules.has(rel)) continue;
    const text = await readArtifactText(p.file);
    if (text === null) continue;
    const mod = capabilityModule(rel, p.facts, text, resolve, identity.fullName);
    modules.set(rel, mod);
    for (const target of mod.imports.values()) if (!modules.has(target)) queue.push(target);
  }
  if (modules.size === 0) return [];
  return [...capabilityFindings(modules, entries, { identity, documentedHosts: readmeHosts }, resolve), ...installSpreadFindings(modules, entries, identity, resolve, [...byPath.keys()])];
}

/** An image file named in code. */
const IMAGE_NAME = /\.(png|jpe?g|gif|bmp|ico|webp|tiff?)['"`]/i;
/** Bytes cut out after a marker the code searches for: `buf.subarray(buf.lastIndexOf('IEND') + 8)`. */
const MARKER_CUT = /\.(?:slice|subarray)\(\s*[\w$.]+\.(?:lastIndexOf|indexOf)\(/;

/** Generated code of many modules: bundler markers, or minified lines, in a file over 100 KiB. */
export function isVendorBundle(text: string, size: number): boolean {
  if (size < 100 * 1024) return false;
  let markers = 0;
  const re = /__webpack_require__|__commonJS\(|__esm\(|\/\/ (node_modules|\.\.\/node_modules)\/|\/\*{3}\/|System\.register\(|define\(\[/g;
  for (let m = re.exec(text); m !== null && markers < 3; m = re.exec(text)) markers++;
  if (markers >= 3) return true;
  const lines = text.length / Math.max(1, countLines(text));
  return lines > 400;
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
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
function entryPoints(manifest: Record<string, unknown> | null, exists: (path: string) => boolean, withBin = true): Set<string> {
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
  if (withBin) add(manifest.bin);
  add(manifest.exports);
  return out;
}

/**
 * Where a Python package's dependencies come from, read from the files that declare them at the package's
 * top (setup.py, setup.cfg, pyproject.toml, requirements files) and a built package's `Requires-Dist`.
 */
async function pythonDependencySourceFindings(byPath: Map<string, ArtifactFile>, metadataText: string | null): Promise<AgentFinding[]> {
  const out: AgentFinding[] = [];
  if (metadataText !== null) out.push(...pythonUrlDependencyFindings('PKG-INFO', metadataText.split('\n').filter((l) => /^Requires-Dist:/i.test(l)).join('\n')));
  for (const [rel, file] of byPath) {
    if (rel.includes('/') || !PYTHON_DEPENDENCY_FILE.test(rel) || file.size > 256 * 1024) continue;
    const text = await readArtifactText(file);
    if (text === null) continue;
    out.push(...pythonUrlDependencyFindings(rel, text));
    out.push(...indexConfigFindings(rel, text).map((f) => ({ ...f, title: f.title.replace(/^repository /, 'package ') })));
  }
  return out;
}

/** The modules a Python project's console scripts run (`[project.scripts]`, Poetry's `[tool.poetry.scripts]`, setup.cfg `console_scripts`). */
async function consoleScriptModules(byPath: Map<string, ArtifactFile>): Promise<string[]> {
  const out: string[] = [];
  for (const name of ['pyproject.toml', 'setup.cfg']) {
    const file = byPath.get(name);
    const text = file === undefined ? null : await readArtifactText(file);
    if (text === null) continue;
    for (const m of text.matchAll(/^\s*["']?[\w.-]+["']?\s*=\s*["']?([A-Za-z_][\w.]*)\s*:\s*[A-Za-z_][\w.]*["']?\s*$/gm)) {
      const stem = m[1]!.replace(/\./g, '/');
      const rel = [`${stem}.py`, `src/${stem}.py`, `${stem}/__init__.py`, `src/${stem}/__init__.py`].find((p) => byPath.has(p));
      if (rel !== undefined && !out.includes(rel)) out.push(rel);
    }
  }
  return out.slice(0, 8);
}

/** URLs package.json gives for the package itself: homepage, repository, bugs, author and funding. */
function manifestUrls(manifest: Record<string, unknown> | null): string[] {
  if (manifest === null) return [];
  const out: string[] = [];
  const add = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'object' && v !== null) for (const k of ['url', 'web']) add((v as Record<string, unknown>)[k]);
  };
  for (const key of ['homepage', 'repository', 'bugs', 'author', 'funding']) add(manifest[key]);
  return out;
}

/** A lifecycle command writing into another installed package: CRIT when what it writes is code or a check turned off (code-findings.ts' PLANTED_CODE). */
function packagePatchFinding(command: string, file: string, line: number, evidence: string): AgentFinding {
  const planted = PLANTED_CODE.test(command);
  return referenceFinding({ category: 'malware', severity: planted ? 'CRIT' : 'HIGH', title: planted ? 'Install-time code plants code in another installed package' : 'Install-time code modifies another installed package', file, line, evidence: evidence.slice(0, 300) });
}

async function installScriptFindings(manifest: Record<string, unknown>, text: string, byPath: Map<string, ArtifactFile>, installTime: Set<string>, identity: PackageIdentity): Promise<AgentFinding[]> {
  const own = (h: string): boolean => ownHost(h, identity);
  const out: AgentFinding[] = [];
  const scripts = typeof manifest.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
  for (const hook of [...INSTALL_HOOKS, ...GIT_INSTALL_HOOKS]) {
    const command = scripts[hook];
    if (typeof command !== 'string' || command.trim() === '') continue;
    const line = lineAt(text, Math.max(0, text.indexOf(`"${hook}"`)));
    const atInstall = (INSTALL_HOOKS as readonly string[]).includes(hook);
    if (atInstall) out.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: `Runs ${hook === 'install' ? 'an' : 'a'} ${hook} script at install`, file: 'package.json', line, evidence: command }));
    for (const s of commandSignals(command, own)) out.push(referenceFinding({ category: s.category, severity: s.severity, title: s.title, file: 'package.json', line, evidence: `${hook}: ${command}` }));
    const patched = atInstall ? shellPackagePatch(command, identity.fullName) : null;
    if (patched !== null) out.push(packagePatchFinding(command, 'package.json', line, `${hook}: ${command}`));
    if (!atInstall) continue;
    // A lifecycle command that sends a credential (`curl -d "$(gh auth token)" …`): toptal/picasso, r16.
    const send = shellSecretSendFinding('package.json', command, `${hook} script`, true);
    if (send !== null) out.push({ ...send, line });
    const parsed = parseScript(command);
    for (const code of parsed.inlineJavaScript) {
      for (const f of codeFindings(javascriptFacts(code), { file: 'package.json', installTime: true, reparse, identity })) out.push({ ...f, line, evidence: f.evidence ?? code.slice(0, 300) });
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
        const shim = privilegedShimFinding(resolved, body, 'install script');
        if (shim !== null) out.push(shim);
        const bodySend = shellSecretSendFinding(resolved, body, 'install script', true);
        if (bodySend !== null) out.push(bodySend);
        // Constant shell variables expanded (`d=/dev; p=tcp; … "$d/$p/$h/$n"`): a command reads as what it runs.
        expandShellVariables(body).split('\n').forEach((l, i) => {
          for (const s of commandSignals(l, own)) out.push(referenceFinding({ category: s.category, severity: s.severity, title: s.title, file: resolved, line: i + 1, evidence: l }));
          if (atInstall && shellPackagePatch(l, identity.fullName) !== null) out.push(packagePatchFinding(l, resolved, i + 1, l));
        });
      }
    }
  }
  return out;
}

// A top-level sitecustomize.py or usercustomize.py (of a wheel, its purelib/platlib data, or an sdist's
// top or src/ layout): the site module imports it at every interpreter start once installed.
// .gyp/.gypi files read per package, at most.
const MAX_GYP_FILES = 20;
const STARTUP_MODULE = /^(?:src\/|[^/]+\.data\/(?:purelib|platlib)\/)?(?:site|user)customize\.py$/;

/**
 * node-gyp's binding.gyp at the package root: npm runs `node-gyp rebuild` at install when a package
 * ships one (its default `install` script), which runs the file's command expansions (`<!(…)`) and
 * build actions. Each command gets the install-script command checks; a program one runs from the
 * package (`node tools/gen.js`) is install-time code.
 */
async function gypInstallFindings(byPath: Map<string, ArtifactFile>, installTime: Set<string>, identity: PackageIdentity): Promise<AgentFinding[]> {
  if (!byPath.has('binding.gyp')) return [];
  // binding.gyp and the .gyp/.gypi files it can include or depend on (`deps/sqlite3.gyp`), root first.
  const gypFiles = [...byPath.keys()].filter((p) => /\.gypi?$/.test(p) && !/(^|\/)node_modules\//.test(p)).sort((a, b) => (a === 'binding.gyp' ? -1 : b === 'binding.gyp' ? 1 : a.length - b.length)).slice(0, MAX_GYP_FILES);
  const own = (h: string): boolean => ownHost(h, identity);
  const out: AgentFinding[] = [];
  const seen = new Set<string>();
  for (const rel of gypFiles) {
    const file = byPath.get(rel)!;
    const text = file.size > 1_000_000 ? null : await readArtifactText(file);
    if (text === null) continue;
    const commands = gypCommands(text);
    if (commands.length === 0) continue;
    // gyp runs actions and expansions in the directory of the file that holds them.
    const dir = posix.dirname(rel) === '.' ? '' : `${posix.dirname(rel)}/`;
    out.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: 'binding.gyp runs commands when npm builds the addon at install', file: rel, line: commands[0]!.line, evidence: commands[0]!.command.slice(0, 200) }));
    for (const { command, line } of commands) {
      for (const s of commandSignals(command, own)) if (!seen.has(`${s.title}\u0000${rel}:${line}`) && seen.add(`${s.title}\u0000${rel}:${line}`)) out.push(referenceFinding({ category: s.category, severity: s.severity, title: s.title, file: rel, line, evidence: `${rel}: ${command}`.slice(0, 300) }));
      const parsed = parseScript(command);
      // The whole quoted argument of `node -e "…"` (a script's `;` inside the quotes is not a command separator).
      const whole = /^\s*node(?:\.exe)?\s+(?:--?[\w-]+\s+)*?(?:-e|--eval|-p|--print)\s+(["'])([\s\S]*)\1\s*$/.exec(command)?.[2];
      const inline = whole === undefined ? parsed.inlineJavaScript : [whole];
      for (const code of inline) {
        if (/\b(require|import)\s*\(\s*['"](https?|child_process|node:child_process|node:https?)['"]/.test(code) && /\beval\s*\(|\bnew\s+Function\b|\b(exec|execSync|spawn)\s*\(/.test(code)) out.push(referenceFinding({ category: 'install_script', severity: 'HIGH', title: 'Install script runs inline code that spawns processes or evaluates code', file: rel, line, evidence: code.slice(0, 300) }));
        for (const f of codeFindings(javascriptFacts(code), { file: rel, installTime: true, reparse, identity })) out.push({ ...f, line, evidence: f.evidence ?? code.slice(0, 300) });
      }
      for (const target of parsed.targets) {
        const path = posix.normalize(`${dir}${target.path}`);
        const resolved = target.interpreter === 'node' ? resolveModulePath(`./${path}`, '', (p) => byPath.has(p)) : byPath.has(path) ? path : null;
        if (resolved !== null) installTime.add(resolved);
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
      expandShellVariables(body).split('\n').forEach((l, i) => {
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
  const moduleLevel = facts.calls.filter((c) => c.topLevel && /^(os\.system|os\.popen|subprocess\.\w+|check_output|check_call|popen|(builtins\.)?exec|(builtins\.)?eval|urllib\.request\.urlopen|requests\.\w+|socket\.socket)$/.test(c.callee));
  // Build tools (git describe, cmake --version, pandoc, python -m …) and `exec(open('pkg/version.py').read())` are how
  // setup.py files find their version and flags; anything else, or a command with a download in it, is not.
  const benignBuildStep = (c: CallFact): boolean => {
    if (c.argLabels.length > 0) return false;
    const command = [...c.args.filter((a): a is string => a !== null), ...c.argStrings].join(' ');
    if (commandSignals(command).length > 0) return false;
    if (/^(builtins\.)?(exec|eval)$/.test(c.callee)) return c.argStrings.length > 0 && c.argStrings.every((a) => /\.py$|^(r|rb|utf-?8)$/i.test(a));
    if (/^(requests\.|urllib|socket)/.test(c.callee)) return false;
    const first = (c.args[0] ?? c.argStrings[0] ?? '').trim().split(/\s+/)[0] ?? '';
    return /^(-m|git|cmake|make|pkg-config|pandoc|coverage|gcc|g\+\+|cc|clang|nvcc|which|uname|swig|cython|go|cargo|rustc|protoc|llvm-config|xcrun|sw_vers)$/.test(first) || (/^(python3?(\.\d+)?|pip3?)$/.test(first) && /^(-m\s|freeze|--version|list)/.test(command.trim().split(/\s+/).slice(1).join(' ')));
  };
  const risky = moduleLevel.find((c) => !benignBuildStep(c));
  if (risky !== undefined) out.push(referenceFinding({ category: 'install_script', severity: 'HIGH', title: 'setup.py runs commands or network calls at module level (every install and build)', file: 'setup.py', line: risky.line, evidence: risky.callee }));
  else if (moduleLevel[0] !== undefined) out.push(referenceFinding({ category: 'install_script', severity: 'LOW', title: 'setup.py runs a build tool or reads its own files at module level', file: 'setup.py', line: moduleLevel[0].line, evidence: moduleLevel[0].callee }));
  return out;
}

/** Text checks for files too large to parse: signals that are unambiguous without a syntax tree. */
function cheapScan(text: string, file: string, lineOffset = 0): AgentFinding[] {
  const out: AgentFinding[] = [];
  const checks: [RegExp, string, 'CRIT' | 'HIGH', string, string[]][] = [
    [/discord(?:app)?\.com\/api\/webhooks\/\d+\/[\w-]+|hooks\.slack\.com\/services\/T\w+\/B\w+\/\w+|api\.telegram\.org\/bot\d+:[\w-]+/i, 'exfiltration', 'HIGH', 'Hard-coded chat-service webhook (Discord, Slack, Telegram)', ['/api/webhooks/', 'hooks.slack', 'api.telegram']],
    [/\beval\s*\(\s*(atob|Buffer\.from)\s*\(/, 'obfuscation', 'HIGH', 'Executes decoded data (eval/exec of base64, hex or char codes)', ['eval']],
    [/\beval\s*\(\s*function\s*\(\s*p\s*,\s*a\s*,\s*c\s*,\s*k\s*,\s*e\s*,\s*[dr]\s*\)/, 'obfuscation', 'HIGH', 'Executes decoded data (eval/exec of base64, hex or char codes)', ['eval']],
    [/\b(exec|execSync|spawn|spawnSync)\s*\(\s*["'`][^"'`\n]{0,200}\b(curl|wget)\b[^"'`\n]{0,200}https?:\/\/\d{1,3}(\.\d{1,3}){3}/, 'remote_code_execution', 'HIGH', 'Downloads from a host that is not a package registry', ['curl', 'wget']],
  ];
  const shift = (f: AgentFinding): AgentFinding => (lineOffset > 0 && f.line !== undefined ? { ...f, line: f.line + lineOffset } : f);
  for (const [re, category, severity, title, needle] of checks) {
    // A substring test first: indexOf is far cheaper than a regex over megabytes.
    if (!needle.some((n) => text.includes(n))) continue;
    // (round s31b) A placeholder webhook (`T00000000/B00000000/XXXX…`) is not a hook: the first real one is reported.
    const m = title.startsWith('Hard-coded chat-service webhook') ? ([...text.matchAll(new RegExp(re.source, 'gi'))].slice(0, 50).find((x) => !isPlaceholderWebhook(x[0])) ?? null) : re.exec(text);
    if (m !== null && m !== undefined) out.push(shift(referenceFinding({ category, severity, title, file, line: lineAt(text, m.index ?? 0), evidence: m[0].slice(0, 200) })));
  }
  const mangled = new Set<string>();
  const re = /\b_0x[0-9a-f]{4,6}\b/g;
  for (let m = text.includes('_0x') ? re.exec(text) : null; m !== null && mangled.size < 50; m = re.exec(text)) mangled.add(m[0]);
  if (mangled.size >= 50) out.push(shift(referenceFinding({ category: 'obfuscation', severity: 'HIGH', title: 'Obfuscator-style _0x identifiers', file, line: lineAt(text, text.indexOf([...mangled][0]!)), evidence: '50+ distinct _0x… identifiers' })));
  out.push(...unicodeFindings(text, file, 'javascript').map(shift), ...hiddenCodeFindings(text, file).map(shift));
  return out;
}

const CHUNK = 2 * 1024 * 1024;
const OVERLAP = 4096;

/** The cheap scan over a file of any size, read in overlapping chunks (nothing held whole). */
async function scanInChunks(file: ArtifactFile, rel: string): Promise<AgentFinding[]> {
  const out: AgentFinding[] = [];
  const handle = await open(file.absPath, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, file.size));
    let carry = '';
    let lines = 0;
    for (let pos = 0; pos < file.size; pos += CHUNK) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      if (pos === 0 && buf.subarray(0, Math.min(bytesRead, 8192)).includes(0)) return [];
      const text = carry + buf.toString('utf8', 0, bytesRead);
      for (const f of cheapScan(text, rel, lines)) if (!out.some((o) => o.title === f.title)) out.push(f);
      const cut = Math.max(0, text.length - OVERLAP);
      for (let i = 0; i < cut; i++) if (text.charCodeAt(i) === 10) lines++;
      carry = text.slice(cut);
    }
  } finally {
    await handle.close();
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

/** The package's own modules a file imports (`./x`, `../y` in JavaScript; `.x`, `..y.z` in Python). */
/**
 * The file reads credentials as it runs: a credential path (`.npmrc`, `.ssh/…`, `.git-credentials`…)
 * named beside a file read, the whole environment gathered, or a signing secret read from it.
 */
function collectsSecrets(facts: CodeFacts): boolean {
  const reads = facts.calls.some((c) => /(^|\.)(readFileSync|readFile|createReadStream|read_text|read_bytes|open|load)$/.test(c.callee));
  if (reads && facts.strings.some((s) => CREDENTIAL_PATH.test(s.value))) return true;
  // Parts joined into the path (`join(homedir(), '.aws', 'credentials')`).
  if (facts.calls.some((c) => /(^|\.)(readFileSync|readFile|createReadStream|read_text|read_bytes|open)$/.test(c.callee) && CREDENTIAL_PATH.test(c.argStrings.join('/')))) return true;
  if (facts.envDumps.length > 0 || facts.calls.some((c) => /^(os\.environ\.(items|copy|keys|values)|Object\.(entries|keys|values)|JSON\.stringify)$/.test(c.callee) && (c.callee.startsWith('os.') || c.argLabels.includes('env')))) return true;
  return facts.calls.some((c) => c.argLabels.includes('keymaterial') || c.argLabels.includes('secret'));
}

/** The names a file binds from a relative module: `const x = require(m)`, `const { a, b } = require(m)`, `import x, { a } from m`, `from m import a, b`. */
function importedNames(text: string, spec: string, isPy: boolean): string[] {
  const q = spec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const out: string[] = [];
  const patterns = isPy
    ? [new RegExp(`^\\s*from\\s+${q}\\s+import\\s+\\(?([\\w\\s,]+)`, 'gm')]
    : [new RegExp(`(?:const|let|var)\\s+(\\{[^}]*\\}|[\\w$]+)\\s*=\\s*require\\(\\s*['"\`]${q}['"\`]\\s*\\)`, 'g'), new RegExp(`import\\s+([^;]*?)\\s+from\\s+['"]${q}['"]`, 'g')];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(...m[1]!.replace(/[{}]/g, ' ').split(/[\s,]+/).map((n) => n.split(/\s*:\s*/).pop()!).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'as'));
  return out;
}

/** The file of the package a relative import names (JavaScript `./x` resolution, Python `.x` / `..x`), or null. */
function resolveLocal(spec: string, rel: string, isPy: boolean, exists: (path: string) => boolean): string | null {
  const dir = posix.dirname(rel);
  if (!isPy) return resolveModulePath(spec, dir, exists);
  const dots = /^\.+/.exec(spec)![0].length;
  let base = dir === '.' ? '' : dir;
  for (let k = 1; k < dots; k++) base = posix.dirname(base) === '.' ? '' : posix.dirname(base);
  const stem = [base, spec.slice(dots).replace(/\./g, '/')].filter((x) => x !== '').join('/');
  return [`${stem}.py`, `${stem}/__init__.py`].find(exists) ?? null;
}

function localModules(facts: CodeFacts, rel: string, isPy: boolean, exists: (path: string) => boolean): string[] {
  const dir = posix.dirname(rel);
  const out: string[] = [];
  for (const i of facts.imports) {
    if (!i.module.startsWith('.')) continue;
    if (!isPy) {
      const p = resolveModulePath(i.module, dir, exists);
      if (p !== null) out.push(p);
      continue;
    }
    const dots = /^\.+/.exec(i.module)![0].length;
    let base = dir === '.' ? '' : dir;
    for (let k = 1; k < dots; k++) base = posix.dirname(base) === '.' ? '' : posix.dirname(base);
    const rest = i.module.slice(dots).replace(/\./g, '/');
    const stem = [base, rest].filter((x) => x !== '').join('/');
    const found = [`${stem}.py`, `${stem}/__init__.py`].find(exists);
    if (found !== undefined) out.push(found);
  }
  return out;
}

/** A file that sends host identity names a telemetry opt-out in its text (read only for such files). */
async function namesTelemetrySwitch(facts: CodeFacts, file: Parameters<typeof readArtifactText>[0]): Promise<boolean> {
  if (!facts.calls.some((c) => c.argLabels.includes('hostinfo'))) return false;
  const text = await readArtifactText(file);
  return text !== null && TELEMETRY_OPT_OUT.test(text);
}
