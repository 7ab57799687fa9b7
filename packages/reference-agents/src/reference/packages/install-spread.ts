/**
 * Issue 24, round s25-pkginstall: judgements over the module graph of what runs by itself that no
 * single file shows.
 *
 * - Self-propagation at install: code an install hook reaches runs a package publish (`npm publish`,
 *   `npm version`, `pnpm/yarn publish`, `twine upload`) or rewrites another manifest's install scripts
 *   (Shai-Hulud, Sept/Nov 2025). No installer publishes packages.
 * - Credentials read at install and uploaded to a repository or gist the code creates through a code
 *   host's API with a token (reputable host, stolen token): the destination does not lower the concern.
 * - Download → write → chmod → run of one path, step by step through helper functions of the package's
 *   own (in the same or another module), joined by the variable that holds the path and the one that
 *   holds the downloaded bytes; mining-pool arguments and CI/sandbox checks around it raise it.
 * - A `.pth`, `sitecustomize.py` or `usercustomize.py` written by Python code with an `import` line:
 *   code Python runs at every interpreter start.
 */
import type { AgentFinding, Severity } from '@vigil/core';
import type { CallFact, CodeFacts } from '../code/code-facts.js';
import { CLI_CREDENTIAL_COMMAND } from '../code/cli-credential-commands.js';
import { functionRanges, type FunctionRange } from '../code/function-ranges.js';
import { referenceFinding } from '../common/reference-finding.js';
import { isExecutableMode } from '../skills/written-file.js';
import type { AutoRunEntry, CapabilityModule } from './capability-findings.js';
import { EXEC_CALLEE, METADATA_SERVICE, WRITE_CALLEE, networkCall } from './code-findings.js';
import { ownHost, type PackageIdentity } from './package-identity.js';
import { TRUSTED_DOWNLOAD_HOSTS, urlHosts } from './shell-command.js';

type Resolve = (spec: string, from: string, language: CodeFacts['language']) => string | null;

export const INSTALL_PUBLISH_TITLE = 'Code that runs at install publishes packages (self-propagation)';
export const INSTALL_MANIFEST_REWRITE_TITLE = 'Code that runs at install adds an install script to another package’s manifest (self-propagation)';
export const INSTALL_REPO_UPLOAD_TITLE = 'Code that runs at install reads credentials and uploads to a repository or gist it creates with a token';
export const HELPER_DROPPER_TITLE = 'Downloads a file, writes it, makes it executable and runs it through helper functions';
export const MINER_TITLE = 'Runs a cryptocurrency miner (mining-pool arguments)';
export const PTH_WRITE_TITLE = 'Writes a .pth or sitecustomize start-up hook whose import line runs at every Python start';

/** A publish from a command line or an argument list (`execFile('npm', ['publish'])`). */
const PUBLISH_COMMAND = /\b(?:npm|pnpm|yarn)\s+(?:npm\s+)?publish\b|\bnpm\s+version\s+(?:patch|minor|major|prerelease|pre\w+|\d)|\btwine\s+upload\b|\bpoetry\s+publish\b/;
/** An install script set on a manifest object (`m.scripts.postinstall =`, `scripts: { postinstall: … }`, `scripts['preinstall'] =`). */
const INSTALL_SCRIPT_SET = /\bscripts\s*(?:\.\s*(?:pre|post)?install\b|\[\s*['"`](?:pre|post)?install['"`]\s*\])\s*=[^=]|\bscripts\s*[:=]\s*\{[^;\n]*?\b['"]?(?:pre|post)?install['"]?\s*:/;
/** Code-host API endpoints that create a repository or gist, or upload a file into one. */
const REPO_CREATE = /(?:^|[/'"`])(?:user\/repos|orgs\/[^/\s'"`]+\/repos|gists)(?:[?'"`]|$)|\/repos\/[^\s'"`]*\/contents\/|\/contents\/|\bcreateRepository\b|\/api\/v4\/projects(?:[?'"`]|$)/;
const CODE_HOST_API = /^(?:api\.github\.com|github\.com|gitlab\.com|api\.bitbucket\.org)$/i;
/** Mining-pool protocol addresses and miner arguments (XMRig and its forks). */
const MINER_STRING = /\bstratum\+(?:tcp|ssl|tls):\/\/|--donate-level\b|--cpu-max-threads-hint\b|\b(?:--algo|-a)[= ](?:rx\/0|cn\/r|randomx|kawpow|ethash)\b/i;
/** A Monero address (the wallet a miner's `-u`/`--user` names). */
const MONERO_WALLET = /(?:^|[=\s])[48][0-9AB][1-9A-HJ-NP-Za-km-z]{93}(?:$|\s)/;
/** Environment checks that skip CI or build sandboxes. */
const CI_CHECK = /\b(?:process\.env|os\.environ|environ)\b[^\n]{0,40}\b(?:CI|GITHUB_ACTIONS|GITLAB_CI|TRAVIS|CIRCLECI|JENKINS_URL|BUILD_NUMBER|RUNNER_OS|BUILDKITE|TF_BUILD|CODEBUILD_BUILD_ID)\b/;
const CHMOD = /^(fs\.(chmodSync|chmod|promises\.chmod)|os\.chmod|\?\.chmod|pathlib\.Path\.chmod)$/;
const WRITE_METHOD = /(^|\.)(write|write_bytes|write_text)$/;
/** A site-packages or Python prefix path source. */
const SITE_DIR = /\bsite\.(?:getsitepackages|getusersitepackages)\b|\bsysconfig\.get_path(?:s)?\b|\bget_python_lib\b|\bpurelib\b|\bplatlib\b|site-packages|\bself\.install_(?:lib|purelib|platlib)\b|\bUSER_SITE\b/;
/** What an import line of a start-up hook may do that makes it a stage: download, decode, run. */
const STAGE = /\burlopen\b|\burllib\b|\brequests\.|\bhttp\.client\b|\bsocket\b|\bb64decode\b|\bb85decode\b|\bdecompress\b|\bexec\s*\(|\beval\s*\(|\bsubprocess\b|\bos\.system\b|\bos\.popen\b|\bcodecs\.decode\b|\bmarshal\b/;

interface Reached {
  rel: string;
  when: AutoRunEntry['when'];
}

/** Modules each entry reaches through relative imports (the install ones and the load ones). */
function reach(modules: ReadonlyMap<string, CapabilityModule>, entries: readonly AutoRunEntry[]): Reached[] {
  const out = new Map<string, AutoRunEntry['when']>();
  for (const e of [...entries].sort((a, b) => (a.when === 'install' ? 0 : 1) - (b.when === 'install' ? 0 : 1))) {
    const queue = [e.rel];
    while (queue.length > 0) {
      const rel = queue.shift()!;
      const mod = modules.get(rel);
      if (mod === undefined || out.has(rel)) continue;
      out.set(rel, e.when);
      for (const t of mod.imports.values()) queue.push(t);
    }
  }
  return [...out].map(([rel, when]) => ({ rel, when }));
}

// The guard compares an argument with a release word (`sys.argv[-1] == 'publish'`, `'upload' in sys.argv`):
// `if len(sys.argv) > 0` or a negated test guards nothing. Python only: pip runs setup.py with its own
// arguments (`egg_info`, `bdist_wheel`), never `publish`, while an npm install script can be given any flag.
const ARGV_WORD_TEST = /\bsys\.argv\b[^\n]*?==\s*['"](?:--)?(?:publish|release|upload|deploy|register)['"]|['"](?:--)?(?:publish|release|upload|deploy|register)['"]\s+in\s+sys\.argv\b/;
const ARGV_LOOSE = /!=|\bnot\b|\bor\b/;

/**
 * Whether a Python line sits inside an `if` that compares the command line with a release word
 * (`if sys.argv[-1] == 'publish':`, the maintainer's release shortcut old setup.py files carry): it runs
 * when the maintainer asks, not at a user's install.
 */
function argvGuarded(mod: CapabilityModule, line: number): boolean {
  if (mod.language !== 'python') return false;
  const lines = mod.lines;
  let indent = /^\s*/.exec(lines[line - 1] ?? '')![0].length;
  for (let i = line - 2; i >= 0 && indent > 0; i--) {
    const l = lines[i]!;
    if (l.trim() === '') continue;
    const ind = /^\s*/.exec(l)![0].length;
    if (ind >= indent) continue;
    indent = ind;
    if (/^\s*(?:el)?if\b/.test(l) && ARGV_WORD_TEST.test(l) && !ARGV_LOOSE.test(l)) return true;
  }
  return false;
}

function commandOf(c: CallFact): string {
  return [...new Set([...c.args.filter((a): a is string => a !== null), ...c.argStrings])].join(' ');
}

type Step = 'fetch' | 'write' | 'chmod' | 'exec';

/** What stepsOf looks up in a module, built once per module (a per-call scan is quadratic on big generated files). */
interface ModuleIndex {
  text: string;
  /** Identifier → the module of the first import whose lines name it (`from .h import get`, `const { get } = require('./h')`). */
  bound: Map<string, string>;
  /** Import specifier, and the same without leading dots (`h` of `.h`) → the first import's order and module. */
  specs: Map<string, { order: number; rel: string }>;
  /** Local name of a whole module (`h = require('./h')`, `import * as h from './h'`) → the module. */
  alias: Map<string, string>;
  /** Function name → the steps its body takes (null: no such function here). */
  body: Map<string, Step[] | null>;
  /** The module's named functions and their lines. */
  functions: Map<string, FunctionRange>;
}
const INDEX = new WeakMap<CapabilityModule, ModuleIndex>();

function indexOf(mod: CapabilityModule): ModuleIndex {
  const cached = INDEX.get(mod);
  if (cached !== undefined) return cached;
  const text = mod.lines.join('\n');
  const specs = new Map<string, { order: number; rel: string }>();
  const exact = new Map<string, number>();
  const rels = [...mod.imports.values()];
  [...mod.imports.keys()].forEach((spec, order) => {
    if (!exact.has(spec)) exact.set(spec, order);
    for (const key of [spec, spec.replace(/^\.+/, '')]) if (!specs.has(key)) specs.set(key, { order, rel: rels[order]! });
  });
  // A name bound by an import is a whole word on a line naming its specifier (`from .h import get`,
  // `const { get } = require('./h')`); the first import in order wins.
  const boundOrder = new Map<string, number>();
  for (const l of mod.lines) {
    let order = Infinity;
    for (const t of l.split(/[\s'"`(),;{}=*]+/)) order = Math.min(order, exact.get(t) ?? Infinity);
    if (order === Infinity) continue;
    for (const w of l.match(/[\w$]+/g) ?? []) for (const part of new Set([w, ...w.split('$')])) if (part !== '' && (boundOrder.get(part) ?? Infinity) > order) boundOrder.set(part, order);
  }
  const bound = new Map([...boundOrder].map(([w, order]) => [w, rels[order]!] as const));
  const alias = new Map<string, string>();
  for (const m of text.matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"`]([^'"`\n]+)['"`]|\bimport\s+\*\s+as\s+([A-Za-z_$][\w$]*)\s+from\s+['"]([^'"\n]+)['"]/g)) {
    const name = m[1] ?? m[3]!;
    const rel = mod.imports.get(m[2] ?? m[4]!);
    if (rel !== undefined && !alias.has(name)) alias.set(name, rel);
  }
  const index: ModuleIndex = { text, bound, specs, alias, body: new Map(), functions: functionRanges(mod.lines, mod.language === 'python') };
  INDEX.set(mod, index);
  return index;
}

function directSteps(facts: CodeFacts, c: CallFact): Step[] {
  const out: Step[] = [];
  if (networkCall(facts, c) && !c.onChannel) out.push('fetch');
  if ((WRITE_CALLEE.test(c.callee) && !(c.callee === 'open' && !c.args.slice(1).some((m) => m !== null && /[wax]/.test(m)))) || /(^|\.)(write_bytes|writeFileSync|writeFile)$/.test(c.callee)) out.push('write');
  if (CHMOD.test(c.callee) && (c.modeText === undefined || isExecutableMode(c.modeText, 'decimal'))) out.push('chmod');
  if (EXEC_CALLEE.test(c.callee)) out.push('exec');
  return out;
}

/** What a call does, directly or through the body of a helper function of the package's own (same module or an imported one). */
function stepsOf(modules: ReadonlyMap<string, CapabilityModule>, mod: CapabilityModule, c: CallFact, _resolve: Resolve): Step[] {
  const direct = directSteps(mod.facts, c);
  if (direct.length > 0) return direct;
  const name = c.callee.split('.').pop() ?? '';
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return [];
  let target: CapabilityModule | undefined;
  if (mod.profile.localFunctions.has(c.callee)) target = mod;
  else {
    const index = indexOf(mod);
    if (c.callee === name) {
      const rel = index.bound.get(name);
      target = rel === undefined ? undefined : modules.get(rel);
    } else {
      // The first import whose specifier (or the same without leading dots) the callee starts with (`h.get` of `from . import h`).
      let best: { order: number; rel: string } | undefined;
      for (let i = c.callee.indexOf('.'); i >= 0; i = c.callee.indexOf('.', i + 1)) {
        const hit = index.specs.get(c.callee.slice(0, i));
        if (hit !== undefined && (best === undefined || hit.order < best.order)) best = hit;
      }
      target = best === undefined ? undefined : modules.get(best.rel);
    }
    // `h.download()` where `h = require('./helpers')`: the callee keeps the local alias.
    const alias = c.callee.split('.')[0]!;
    if (target === undefined && alias !== c.callee) {
      const rel = index.alias.get(alias);
      if (rel !== undefined) target = modules.get(rel);
    }
  }
  if (target === undefined) return [];
  const body = indexOf(target).body;
  let steps = body.get(name);
  if (steps === undefined) {
    const range = indexOf(target).functions.get(name);
    const found = new Set<Step>();
    if (range !== undefined) for (const inner of target.facts.calls) if (inner.line >= range.from && inner.line <= range.to) for (const s of directSteps(target.facts, inner)) found.add(s);
    steps = range === undefined ? null : [...found];
    body.set(name, steps);
  }
  return steps ?? [];
}

/** The identifiers in a call's argument text (first argument first). */
function argNames(line: string, callee: string): string[] {
  const last = (callee.split('.').pop() ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A helper the facts already resolved to what it wraps (\`h.store\` read as \`fs.writeFileSync\`) is found by its first call on the line.
  const m = new RegExp(`\\b${last}\\s*\\(`).exec(line) ?? /[\w$]\s*\(/.exec(line);
  const args = m === null ? '' : line.slice(m.index + m[0].length);
  return [...args.matchAll(/(?<![\w$.'"])([A-Za-z_$][\w$]*)(?![\w$]*\s*\()/g)].map((x) => x[1]!).filter((n) => !/^(await|new|list|str|bytes|Buffer|true|false|True|False|None|null|undefined)$/.test(n));
}

/** Hosts of every URL a module names: its URL strings and URLs inside its other strings (folded templates and concatenations too). */
function namedHosts(mod: CapabilityModule): string[] {
  return [...new Set([...mod.profile.fileHosts, ...mod.facts.strings.flatMap((s) => urlHosts(s.value))])];
}

/**
 * `shipped`: the package's file paths, whose top-level names and `.py` base names are its own modules to a
 * start-up hook; without it, the reached modules and the `.py` files beside them.
 */
export function installSpreadFindings(modules: ReadonlyMap<string, CapabilityModule>, entries: readonly AutoRunEntry[], identity: PackageIdentity | undefined, resolve: Resolve, shipped?: readonly string[]): AgentFinding[] {
  const out: AgentFinding[] = [];
  const reached = reach(modules, entries);
  const install = reached.filter((r) => r.when === 'install').map((r) => modules.get(r.rel)!);
  const push = (category: string, severity: Severity, title: string, file: string, line: number | undefined, evidence: string) => {
    if (!out.some((f) => f.title === title && f.file === file)) out.push(referenceFinding({ category, severity, title, file, line, evidence }));
  };

  // Self-propagation: a publish run by install-time code; install scripts set on a manifest it writes.
  for (const mod of install) {
    const publish = mod.facts.calls.find((c) => EXEC_CALLEE.test(c.callee) && (PUBLISH_COMMAND.test(commandOf(c)) || (/^(npm|pnpm|yarn)$/.test(c.args[0] ?? '') && c.argStrings.includes('publish'))) && !argvGuarded(mod, c.line));
    if (publish !== undefined) push('malware', 'CRIT', INSTALL_PUBLISH_TITLE, mod.rel, publish.line, `${publish.callee}(${commandOf(publish).slice(0, 160)})`);
    const text = indexOf(mod).text;
    const set = INSTALL_SCRIPT_SET.exec(text);
    const writesManifest = /package\.json/.test(text) && mod.facts.calls.some((c) => /(^|\.)(writeFileSync|writeFile|write_text|dump)$/.test(c.callee) || (c.callee === 'open' && c.args.slice(1).some((m) => m !== null && /w/.test(m))));
    if (set !== null && writesManifest) push('malware', 'CRIT', INSTALL_MANIFEST_REWRITE_TITLE, mod.rel, text.slice(0, set.index).split('\n').length, set[0].trim().slice(0, 120));
  }

  // Credentials read at install, and a repository or gist created (or written) through a code host's API.
  const credentialRead = install.map((m) => ({ m, k: m.profile.capabilities.find((k) => k.kind === 'secret-read') })).find((x) => x.k !== undefined)
    ?? install.map((m) => ({ m, c: m.facts.calls.find((c) => (EXEC_CALLEE.test(c.callee) && CLI_CREDENTIAL_COMMAND.test(commandOf(c))) || (networkCall(m.facts, c) && [...c.args, ...c.argStrings, c.options.host ?? '', c.options.hostname ?? ''].some((a) => a !== null && METADATA_SERVICE.test(a)))) })).filter((x) => x.c !== undefined).map((x) => ({ m: x.m, k: { line: x.c!.line, detail: `${x.c!.callee}(${commandOf(x.c!).slice(0, 60)})` } }))[0];
  if (credentialRead !== undefined) {
    for (const mod of install) {
      const sends = mod.facts.calls.filter((c) => networkCall(mod.facts, c));
      if (sends.length === 0) continue;
      const hosts = [...mod.profile.fileHosts, ...sends.flatMap((c) => [c.options.host, c.options.hostname].filter((h): h is string => h !== undefined))];
      const endpoint = mod.facts.strings.find((s) => REPO_CREATE.test(s.value));
      if (endpoint === undefined || !hosts.some((h) => CODE_HOST_API.test(h))) continue;
      push('exfiltration', 'CRIT', INSTALL_REPO_UPLOAD_TITLE, mod.rel, endpoint.line, `${credentialRead.m.rel}:${credentialRead.k!.line} reads ${credentialRead.k!.detail}; ${mod.rel} sends to ${hosts.find((h) => CODE_HOST_API.test(h))} ${endpoint.value.slice(0, 80)}`);
    }
  }

  // Download → write → chmod → run of one path through helpers, in any module that runs by itself or a function of it.
  const whenOf = new Map(reached.map((r) => [r.rel, r.when] as const));
  for (const mod of modules.values()) {
    const steps = mod.facts.calls.map((c) => ({ c, s: stepsOf(modules, mod, c, resolve) })).filter((x) => x.s.length > 0);
    // A call that does everything by itself is judged per file already.
    if (steps.length < 3) continue;
    const fetches = steps.filter((x) => x.s.includes('fetch') && !x.s.includes('write'));
    const argMemo = new Map<CallFact, string[]>();
    const argsOf = (c: CallFact) => argMemo.get(c) ?? argMemo.set(c, argNames(mod.lines[c.line - 1] ?? '', c.callee)).get(c)!;
    for (const f of fetches) {
      const line = mod.lines[f.c.line - 1] ?? '';
      const data = /(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s*=[^=]/.exec(line)?.[1];
      if (data === undefined) continue;
      const write = steps.find((x) => x.c.line >= f.c.line && x.s.includes('write') && argsOf(x.c).includes(data));
      if (write === undefined) continue;
      const path = argsOf(write.c).find((n) => n !== data);
      if (path === undefined) continue;
      const chmod = steps.find((x) => x.c.line > write.c.line && x.s.includes('chmod') && argsOf(x.c)[0] === path);
      const run = steps.find((x) => x.c.line > write.c.line && x.s.includes('exec') && argsOf(x.c).includes(path));
      if (chmod === undefined || run === undefined) continue;
      // A download named only on a registry, code or vendor host is an installer's (judged per file by its host).
      // A URL the call does not spell (a template, a constant, a helper's return) is judged by every URL the module names.
      const urls = [...f.c.args, ...f.c.argStrings].filter((a): a is string => a !== null && /^https?:\/\//i.test(a)).flatMap((u) => urlHosts(u).slice(0, 1));
      const hosts = urls.length > 0 ? urls : namedHosts(mod);
      if (hosts.length > 0 && hosts.every((h) => TRUSTED_DOWNLOAD_HOSTS.test(h) || ownHost(h, identity))) continue;
      const text = indexOf(mod).text;
      const runLine = mod.lines[run.c.line - 1] ?? '';
      const miner = MINER_STRING.test(runLine) || MONERO_WALLET.test(runLine) || mod.facts.strings.some((s) => MINER_STRING.test(s.value) || MONERO_WALLET.test(s.value));
      const evasion = CI_CHECK.test(text);
      const auto = whenOf.get(mod.rel);
      const severity: Severity = auto !== undefined || miner || evasion ? 'CRIT' : 'HIGH';
      const notes = [auto === undefined ? '' : auto === 'install' ? 'at install' : 'when the package loads', miner ? 'with mining-pool arguments' : '', evasion ? 'skipped under CI' : ''].filter(Boolean).join(', ');
      push('remote_code_execution', severity, HELPER_DROPPER_TITLE, mod.rel, run.c.line, `${f.c.callee}() → ${data}; ${write.c.callee}(${path}, ${data}); ${chmod.c.callee}(${path}); ${run.c.callee}(${path})${notes ? ` (${notes})` : ''}`);
      break;
    }
  }

  // Mining-pool arguments handed to a process the package starts.
  if (!out.some((f) => f.title === HELPER_DROPPER_TITLE)) {
    for (const mod of modules.values()) {
      // The pool address or miner flags among the arguments of the call that starts the process (not a pool URL a client connects to).
      const minerArg = (c: CallFact) => [mod.lines[c.line - 1] ?? '', ...c.argStrings].map((v) => MINER_STRING.exec(v)?.[0] ?? (MONERO_WALLET.test(v) ? 'a Monero wallet address' : undefined)).find((v) => v !== undefined);
      const run = mod.facts.calls.find((c) => minerArg(c) !== undefined && stepsOf(modules, mod, c, resolve).includes('exec'));
      if (run === undefined) continue;
      push('malware', whenOf.has(mod.rel) ? 'CRIT' : 'HIGH', MINER_TITLE, mod.rel, run.line, `${run.callee}(…) with ${minerArg(run)!.slice(0, 80)}`);
    }
  }

  // Python start-up hooks written by code: a .pth (or sitecustomize/usercustomize.py) whose content imports.
  for (const mod of modules.values()) {
    if (mod.language !== 'python') continue;
    const text = indexOf(mod).text;
    const hook = mod.facts.strings.find((s) => /\.pth$|(?:^|[\\/])(?:site|user)customize\.py$/.test(s.value.trim()));
    if (hook === undefined || !SITE_DIR.test(text)) continue;
    if (!mod.facts.calls.some((c) => WRITE_METHOD.test(c.callee) || (c.callee === 'open' && c.args.slice(1).some((m) => m !== null && /[wa]/.test(m))) || /(^|\.)(copyfile|copy2?|copyfileobj)$/.test(c.callee))) continue;
    const importLine = mod.facts.strings.find((s) => /(?:^|\n)[ \t]*import[ \t]+[A-Za-z_]/.test(s.value) && !/^[\w.]+$/.test(s.value.trim()));
    if (importLine === undefined) continue;
    const content = mod.facts.strings.filter((s) => s.line === importLine.line || s.decoded).map((s) => s.value).join('\n');
    const stage = STAGE.test(importLine.value) || STAGE.test(content);
    // An import of the package's own modules only (setuptools' distutils shim, virtualenv's `_virtualenv`
    // shipped deep in its tree and copied beside the .pth) is its start-up hook, reported low.
    const files = shipped ?? [...modules.keys()];
    const own = new Set([
      ...files.map((k) => k.replace(/^src\//, '').split('/')[0]!.replace(/\.py$/, '')),
      ...files.filter((k) => k.endsWith('.py')).map((k) => k.slice(k.lastIndexOf('/') + 1, -3)),
    ]);
    const named = [...importLine.value.matchAll(/\bimport[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)|__import__\(\s*['"]([\w.]+)/g)].flatMap((m) => (m[1] ?? m[2] ?? '').split(/\s*,\s*/)).map((n) => n.split('.')[0]!);
    // Without the file list, a .py file beside a reached module (or in a folder above one) is found by resolving it there.
    const dirs = shipped !== undefined ? [] : [...new Set([...modules.keys()].flatMap((k) => k.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))))];
    const besideReached = (n: string) => dirs.some((d) => resolve(`.${n}`, `${d}/__init__.py`, 'python') === `${d}/${n}.py`);
    const ownOnly = !stage && named.length > 0 && named.every((n) => own.has(n) || /^(os|sys|site)$/.test(n) || besideReached(n));
    push('persistence', stage ? 'CRIT' : ownOnly ? 'LOW' : 'HIGH', PTH_WRITE_TITLE, mod.rel, importLine.line, `${hook.value.trim()} ← ${importLine.value.trim().slice(0, 160)}`);
  }
  return out;
}
