import type { AgentFinding, Severity } from '@vigil/core';
import { CREDENTIAL_PATH, SENSITIVE_LABELS, type CallFact, type CodeFacts } from '../code/code-facts.js';
import { isNetworkCallee } from '../code/javascript-facts.js';
import { isPythonNetworkCallee } from '../code/python-facts.js';
import { referenceFinding } from '../common/reference-finding.js';
import { AI_BYPASS_FLAG, TRUSTED_DOWNLOAD_HOSTS, commandSignals, urlHosts } from './shell-command.js';

export interface CodeContext {
  /** `/`-separated path in the artifact. */
  file: string;
  /** The file runs when the package is installed (a lifecycle script's target, setup.py). */
  installTime: boolean;
  /**
   * Parses decoded strings that look like code and analyzes them too (one level deep), so
   * `eval(atob('…'))` is judged by what it runs. Default true.
   */
  decodeCode?: boolean;
  /** Re-parses decoded code (injected to keep this module free of the parsers). */
  reparse?: (code: string, language: CodeFacts['language']) => CodeFacts;
}

const EXEC_CALLEE = /^(child_process\.(exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)|execa(\.\w+)?|cross-spawn(\.sync)?|shelljs\.exec|os\.(system|popen|spawn\w*|exec\w*|startfile)|subprocess\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn)$/;
const EVAL_CALLEE = /^(eval|Function|vm\.(runInThisContext|runInNewContext|runInContext|compileFunction|Script)|module\._compile|exec|compile|execfile|builtins\.exec|builtins\.eval)$/;
const WRITE_CALLEE = /^(fs\.(writeFileSync|writeFile|createWriteStream|promises\.writeFile|copyFileSync|renameSync)|fs\.promises\.writeFile|open|urllib\.request\.urlretrieve|shutil\.copyfileobj|pathlib\.Path\.write_bytes|\?\.write_bytes)$/;
const CHMOD_CALLEE = /^(fs\.(chmodSync|chmod|promises\.chmod)|os\.chmod)$/;
const DESTRUCTIVE_CALLEE = /^(fs\.(rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink|promises\.rm)|rimraf(\.sync)?|shutil\.rmtree|os\.remove|os\.unlink)$/;
const CHAT_WEBHOOK = /discord(?:app)?\.com\/api\/webhooks\/\d+\/[\w-]+|hooks\.slack\.com\/services\/T\w+\/B\w+\/\w+|api\.telegram\.org\/bot\d+:[\w-]+/i;
const BROWSER_STORE = /((^|[\\/])(Login Data|Local State|Cookies|Web Data)$|Local Storage[\\/]leveldb|wallet\.dat|Exodus|\.electrum|Ethereum[\\/]keystore|\.config[\\/]solana[\\/]id\.json|nkbihfbeogaeaoehlefnkodbefgpgknn|bfnaelmomeimhlpmgjnjophhpkkoljpa|hnfanknocfeofbddgcijnmhnfnkdnaad|Atomic[\\/]Local Storage)/i;
 /** Where an npm or PyPI client legitimately sends its registry credentials. */
const CREDENTIAL_DESTINATIONS = /^(registry\.npmjs\.org|registry\.yarnpkg\.com|npm\.pkg\.github\.com|upload\.pypi\.org|pypi\.org|test\.pypi\.org|localhost|127\.0\.0\.1)$/i;
const GEO_IP = /(ipgeolocation|ip-api\.|ipinfo\.|ipapi\.|geoip|freegeoip|ip2location)/i;
const ETH_ADDRESS = /^0x[a-fA-F0-9]{40}$/;
const BTC_ADDRESS = /^(bc1[a-z0-9]{25,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$/;
const SUSPICIOUS_DECODED = /(child_process|require\s*\(|\beval\b|\bexec\b|https?:\/\/|powershell|\/bin\/(ba)?sh|\bcurl\b|\bwget\b|process\.env|os\.environ|subprocess|socket|__import__|\.npmrc|\.ssh)/i;

/** Raises a finding's severity one step for code that runs at install time. */
function atInstall(severity: Severity, installTime: boolean): Severity {
  if (!installTime) return severity;
  return severity === 'LOW' ? 'MED' : severity === 'MED' ? 'HIGH' : 'CRIT';
}

function networkCallee(facts: CodeFacts, callee: string): boolean {
  return facts.language === 'javascript' ? isNetworkCallee(callee) : isPythonNetworkCallee(callee);
}

function commandText(call: CallFact): string {
  // A literal argument is also among the argument strings: each once, so evidence never repeats.
  return [...new Set([...call.args.filter((a): a is string => a !== null), ...call.argStrings])].join(' ');
}

/** Findings from the facts of one code file of a package. */
export function codeFindings(facts: CodeFacts, ctx: CodeContext): AgentFinding[] {
  const out: AgentFinding[] = [];
  const push = (category: string, severity: Severity, title: string, line: number | undefined, evidence?: string) =>
    out.push(referenceFinding({ category, severity, title, file: ctx.file, line, evidence }));
  const install = ctx.installTime;

  const sendsData = facts.calls.filter((c) => networkCallee(facts, c.callee) || c.onChannel);
  const hasNetwork = sendsData.length > 0 || facts.imports.some((i) => networkCallee(facts, i.module));
  const allStrings = facts.strings.map((s) => s.value);
  const urlStrings = allStrings.filter((s) => /^(https?|wss?|ftp):\/\//i.test(s.trim()));

  // Sensitive data reaching the network (data flow through variables, JSON, templates, request
  // bodies). Where it goes matters: an npm client sends the .npmrc token to the registry.
  const destinations = [...urlStrings.flatMap(urlHosts), ...facts.calls.flatMap((c) => [c.options.hostname, c.options.host].filter((h): h is string => h !== undefined && /^[\w.-]+$/.test(h)))];
  const onlyRegistries = destinations.length > 0 && destinations.every((h) => CREDENTIAL_DESTINATIONS.test(h));
  for (const c of sendsData) {
    const sensitive = c.argLabels.filter((l) => SENSITIVE_LABELS.includes(l));
    if (sensitive.length === 0) continue;
    const credentials = sensitive.some((l) => l !== 'hostinfo');
    if (onlyRegistries) {
      push('exfiltration', 'LOW', 'Sends credentials to a package registry', c.line, `${c.callee}(…) sends ${sensitive.join(', ')} data`);
      continue;
    }
    const known = destinations.length > 0 || install;
    push(
      'exfiltration',
      credentials ? (known ? 'CRIT' : 'HIGH') : atInstall(known ? 'HIGH' : 'MED', install),
      credentials ? 'Credentials or the environment flow to a network call' : 'Host identity (host name, user) flows to a network call',
      c.line,
      `${c.callee}(…) sends ${sensitive.join(', ')} data`,
    );
  }
  for (const s of facts.strings) {
    if (CHAT_WEBHOOK.test(s.value)) push('exfiltration', 'HIGH', 'Hard-coded chat-service webhook (Discord, Slack, Telegram)', s.line, s.value.slice(0, 200));
  }

  // Credential and wallet stores.
  const reads = facts.calls.some((c) => /readFile|readdir|createReadStream|^open$|read_text|glob|walk|listdir|scandir|copyFile|copyfile/.test(c.callee));
  // Path parts given separately (`path.join(appData, 'Local Storage', 'leveldb')`) name a browser store too.
  const parts = new Set(allStrings);
  const browserParts = parts.has('Local Storage') && parts.has('leveldb') ? facts.strings.filter((s) => s.value === 'Local Storage') : [];
  const stores = [...facts.strings.filter((s) => CREDENTIAL_PATH.test(s.value) || BROWSER_STORE.test(s.value)), ...browserParts];
  if (stores.length > 0 && reads) {
    const browser = stores.filter((s) => BROWSER_STORE.test(s.value) || s.value === 'Local Storage');
    if (browser.length >= 2 || (browser.length >= 1 && hasNetwork)) {
      push('credential_access', 'HIGH', 'Reads browser profiles or crypto-wallet stores', browser[0]!.line, browser.map((s) => s.value).slice(0, 5).join(', '));
    } else if (hasNetwork) {
      push('credential_access', atInstall('MED', install), 'Reads credential files in code that uses the network', stores[0]!.line, stores.map((s) => s.value).slice(0, 5).join(', '));
    } else {
      push('credential_access', 'LOW', 'Reads credential files', stores[0]!.line, stores[0]!.value.slice(0, 200));
    }
  }
  for (const d of facts.envDumps.slice(0, 1)) push('credential_access', hasNetwork ? atInstall('MED', install) : 'LOW', 'Serializes the whole environment', d.line, d.expression);

  // Dynamic code execution.
  for (const c of facts.calls) {
    if (!EVAL_CALLEE.test(c.callee)) continue;
    if (facts.language === 'javascript' && (c.callee === 'exec' || c.callee === 'compile' || c.callee === 'execfile')) continue;
    if (c.argLabels.includes('remote')) push('remote_code_execution', 'CRIT', 'Executes code received from the network', c.line, `${c.callee}(…)`);
    else if (c.directDecode) {
      push('obfuscation', atInstall('HIGH', install), 'Executes decoded data (eval/exec of base64, hex or char codes)', c.line, `${c.callee}(${(c.args[0] ?? '…').slice(0, 160)})`);
    } else if (c.argLabels.includes('decoded')) {
      push('obfuscation', atInstall('MED', install), 'Executes data decoded at run time', c.line, `${c.callee}(…)`);
    }
  }

  // Commands that arrive over the network (RATs, reverse shells written in code).
  for (const c of facts.calls) {
    if (EXEC_CALLEE.test(c.callee) && c.argLabels.includes('remote')) push('remote_code_execution', 'CRIT', 'Runs commands received from the network', c.line, c.callee);
  }

  // Names hidden by string building, decoded strings, mangling.
  for (const h of facts.hiddenNames.slice(0, 3)) push('obfuscation', atInstall('HIGH', install), 'Sensitive name hidden by string building', h.line, `${h.expression} → ${h.name}`);
  for (const s of facts.strings) {
    if (!s.decoded || s.value.length < 6) continue;
    if (SUSPICIOUS_DECODED.test(s.value)) {
      push('obfuscation', atInstall('HIGH', install), 'Decoded string reveals code, a command or a URL', s.line, s.value.slice(0, 300));
      break;
    }
  }
  if (ctx.decodeCode !== false && ctx.reparse !== undefined) {
    const seen = new Set<string>();
    for (const s of [...facts.strings.filter((x) => x.decoded), ...facts.strings.filter((x) => !x.decoded && x.value.length >= 200).map((x) => ({ ...x, value: decodeBlob(x.value) ?? '' }))]) {
      if (s.value.length < 12 || s.value.length > 200_000 || seen.has(s.value) || !SUSPICIOUS_DECODED.test(s.value) || !/[();=]/.test(s.value)) continue;
      seen.add(s.value);
      const inner = codeFindings(ctx.reparse(s.value, facts.language), { ...ctx, decodeCode: false });
      for (const f of inner) out.push({ ...f, title: `${f.title} (in decoded code)`, line: s.line });
      if (seen.size >= 8) break;
    }
  }
  const mangledLine = facts.mangledFirstLine ?? undefined;
  if (facts.mangledIdentifiers >= 20) push('obfuscation', atInstall('HIGH', install), 'Obfuscator-style _0x identifiers', mangledLine, `${facts.mangledIdentifiers} distinct _0x… identifiers`);
  else if (facts.mangledIdentifiers >= 5) push('obfuscation', atInstall('MED', install), 'Obfuscator-style _0x identifiers', mangledLine, `${facts.mangledIdentifiers} distinct _0x… identifiers`);
  for (const s of facts.strings) {
    if (s.decoded || s.value.length < 400) continue;
    const decoded = decodeBlob(s.value);
    if (decoded !== null && SUSPICIOUS_DECODED.test(decoded) && /[;(){}=]/.test(decoded)) {
      push('obfuscation', atInstall('HIGH', install), 'Long encoded blob that decodes to code', s.line, decoded.slice(0, 200));
      break;
    }
  }

  // Process execution.
  const execCalls = facts.calls.filter((c) => EXEC_CALLEE.test(c.callee));
  for (const c of execCalls) {
    const command = commandText(c);
    for (const signal of commandSignals(command)) push(signal.category, signal.severity, signal.title, c.line, command.slice(0, 300));
    const detached = c.options.detached === 'true' || c.options.start_new_session === 'True' || /DETACHED_PROCESS|CREATE_NO_WINDOW|CREATE_NEW_PROCESS_GROUP/.test(c.options.creationflags ?? '');
    const silent = c.options.stdio === 'ignore' || c.unref || /DEVNULL/.test(`${c.options.stdout ?? ''}${c.options.stderr ?? ''}`) || c.options.windowsHide === 'true';
    if (detached && silent) push('malware', install ? 'CRIT' : 'MED', 'Starts a detached, hidden background process', c.line, `${c.callee}(${command.slice(0, 200)})`);
  }
  if (execCalls.length > 0) {
    const flag = facts.strings.find((s) => AI_BYPASS_FLAG.test(s.value));
    if (flag !== undefined && !out.some((f) => f.category === 'excessive_permissions')) push('excessive_permissions', 'CRIT', 'Runs an AI coding CLI with its permission checks bypassed', flag.line, flag.value.slice(0, 300));
  }

  // Self-propagation: republishing with a harvested token (Shai-Hulud).
  const publish = facts.strings.find((s) => /\bnpm\s+publish\b|^publish$/.test(s.value));
  if (publish !== undefined && !out.some((f) => f.category === 'malware')) {
    const token = allStrings.some((s) => /_authToken|NPM_TOKEN|\/-\/whoami|npm whoami|maintainer:|\/-\/v1\/search/.test(s));
    const rewrites = allStrings.some((s) => /^(postinstall|preinstall)$|"postinstall"|scripts\.postinstall/.test(s)) || facts.calls.some((c) => /writeFile/.test(c.callee) && c.argStrings.some((a) => /package\.json/.test(a)));
    if (token && rewrites) push('malware', 'CRIT', 'Republishes packages with the npm token it finds', publish.line, publish.value);
  }

  // Download and execute.
  const untrustedUrl = urlStrings.find((u) => urlHosts(u).some((h) => !TRUSTED_DOWNLOAD_HOSTS.test(h))) ?? allStrings.find((s) => /^https?:\/\/\d{1,3}(\.\d{1,3}){3}/.test(s));
  const writes = facts.calls.filter((c) => WRITE_CALLEE.test(c.callee));
  const chmods = facts.calls.filter((c) => CHMOD_CALLEE.test(c.callee) || c.argStrings.some((a) => /chmod\s+\+?[0-7]*x|\b755\b|0o755/.test(a)));
  if (hasNetwork && untrustedUrl !== undefined && writes.length > 0 && (execCalls.length > 0 || chmods.length > 0)) {
    push('remote_code_execution', atInstall('HIGH', install), 'Downloads a file from a non-registry host, writes it and runs it', (execCalls[0] ?? chmods[0])?.line, untrustedUrl.slice(0, 200));
  }

  // Browser-side hooking (chalk/debug Sept 2025, lottie-player 2024).
  for (const h of facts.hooks) {
    if (/^(ethereum|solana)/.test(h.target)) push('malware', 'CRIT', 'Replaces the browser wallet provider’s methods', h.line, h.target);
    else push('malware', 'MED', 'Replaces the browser’s fetch/XMLHttpRequest', h.line, h.target);
  }
  const addresses = new Set(facts.strings.filter((s) => ETH_ADDRESS.test(s.value) || BTC_ADDRESS.test(s.value)).map((s) => s.value));
  if (addresses.size >= 5 && (facts.hooks.length > 0 || allStrings.some((s) => /ethereum|eth_sendTransaction|solana/.test(s)))) {
    push('malware', 'HIGH', 'Many hard-coded crypto addresses next to wallet or request hooks', facts.strings.find((s) => addresses.has(s.value))?.line, `${addresses.size} addresses`);
  }
  const walletRequests = allStrings.filter((s) => /^(eth_requestAccounts|eth_sendTransaction|eth_signTypedData_v4|personal_sign|wallet_switchEthereumChain)$/.test(s));
  const remoteScript = facts.calls.some((c) => c.callee === 'document.createElement' && c.args[0] === 'script') && urlStrings.some((u) => urlHosts(u).some((h) => !TRUSTED_DOWNLOAD_HOSTS.test(h)));
  if (walletRequests.some((s) => s === 'eth_sendTransaction' || s === 'eth_signTypedData_v4') && walletRequests.includes('eth_requestAccounts') && (remoteScript || facts.hooks.length > 0)) {
    push('malware', 'HIGH', 'Injects a remote script that asks the wallet to connect and send transactions', facts.strings.find((s) => s.value === 'eth_sendTransaction' || s.value === 'eth_signTypedData_v4')?.line, walletRequests.join(', '));
  }

  // A module compiled at run time from decoded text (flatmap-stream 2018: `new module.constructor`, `_compile`).
  const compiles = facts.calls.find((c) => (c.callee === 'module.constructor' && c.isNew) || c.callee === 'module._compile');
  if (compiles !== undefined && facts.dynamicRequires.length > 0 && facts.calls.some((c) => c.callee === 'Buffer.from' && (c.args[1] === 'hex' || c.args[1] === 'base64'))) {
    push('obfuscation', atInstall('HIGH', install), 'Compiles a module at run time from decoded text, loading modules by computed names', compiles.line, `${compiles.callee}; require() of computed names at line ${facts.dynamicRequires[0]}`);
  }

  // Persistence: commands appended to shell startup files (Nx s1ngularity 2025 appended `sudo shutdown -h 0`).
  const rc = facts.strings.find((s) => /(^|[\\/])\.(bashrc|zshrc|bash_profile|profile)$/.test(s.value) || /Start Menu[\\/]Programs[\\/]Startup/i.test(s.value));
  if (rc !== undefined && facts.calls.some((c) => /appendFile|writeFile|^open$/.test(c.callee))) push('malware', atInstall('HIGH', install), 'Writes to shell startup files or the Startup folder', rc.line, rc.value);

  // Sabotage: module-level endless loops (colors 2022), geo-targeted destruction (node-ipc 2022).
  // Benchmarks and examples loop forever on purpose; only code a consumer loads counts.
  const sideFile = /(^|\/)(node_modules|tests?|__tests__|bench|benchmarks?|examples?|docs?|scripts)\//.test(ctx.file);
  for (const line of facts.endlessTopLevelLoops.slice(0, 1)) push('malware', sideFile ? 'LOW' : 'HIGH', 'Endless loop at module load (hangs every program that imports it)', line);
  const destroys = facts.calls.filter((c) => DESTRUCTIVE_CALLEE.test(c.callee) || (WRITE_CALLEE.test(c.callee) && c.argStrings.some((a) => /❤|\u2764/.test(a))));
  const geo = facts.strings.find((s) => GEO_IP.test(s.value));
  if (geo !== undefined && (destroys.length > 0 || writes.length > 0)) push('malware', 'HIGH', 'Overwrites or deletes files depending on the machine’s geolocation', geo.line, geo.value.slice(0, 200));
  for (const c of destroys) {
    if (c.argLabels.length === 0 && c.argStrings.some((a) => a === '/' || a === '~' || /^(C:\\\\?)$/i.test(a))) push('malware', 'CRIT', 'Deletes the home or root directory', c.line, c.callee);
  }
  return out;
}

/** Text of a long base64 or hex literal when it decodes to mostly printable text, else null. */
export function decodeBlob(value: string): string | null {
  const compact = value.replace(/\s+/g, '');
  let bytes: Buffer | null = null;
  if (/^[0-9a-fA-F]+$/.test(compact) && compact.length % 2 === 0) bytes = Buffer.from(compact, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) bytes = Buffer.from(compact, 'base64');
  if (bytes === null || bytes.length === 0) return null;
  const sample = bytes.subarray(0, 4096);
  let printable = 0;
  for (const b of sample) if ((b >= 32 && b < 127) || b === 9 || b === 10 || b === 13) printable++;
  return printable / sample.length > 0.95 ? bytes.toString('utf8') : null;
}
