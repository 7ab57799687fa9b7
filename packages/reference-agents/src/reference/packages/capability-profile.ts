/**
 * What one code file can do, whatever the phrasing: a capability profile built from the file's
 * `CodeFacts` (JavaScript or Python). The judge (`capability-findings.ts`) combines the profiles of
 * the modules an automatically run entry reaches, so that a theft split into ordinary-looking steps
 * — a read here, a send there, each written in a new way — is judged by what the steps add up to.
 */
import { CLIPBOARD_READ, CREDENTIAL_PATH, SIGNING_SECRET_ENV_NAME, contractCallees, isChainSend, type CallFact, type CodeFacts, type DataLabel } from '../code/code-facts.js';
import { AUTOSTART, BROWSER_STORE, DESTRUCTIVE_CALLEE, EVAL_CALLEE, EXEC_CALLEE, WRITE_CALLEE, networkCall, networkCallee, readsInstanceCredentials } from './code-findings.js';
import { urlHosts } from './shell-command.js';
import { spelledPath } from '../code/spelled-path.js';
import { foreignProgramWrite } from './foreign-program-write.js';

export type CapabilityKind =
  /** Reads credentials: credential files, browser or wallet stores, keychains, cloud instance credentials, the whole environment. */
  | 'secret-read'
  /** Reads the user's own data: shell or AI-assistant history, the clipboard, a walk of the home directory. */
  | 'user-data'
  /** Sends data off the machine (a request, a socket, a channel's write). */
  | 'network-send'
  /** Runs a process or evaluates code whose text is not a constant. */
  | 'exec'
  /** Writes where the artifact does not live: startup and persistence locations, agent settings, another package. */
  | 'write-outside'
  /** Deletes recursively or outside the artifact. */
  | 'destructive';

export interface Capability {
  kind: CapabilityKind;
  line: number;
  /** The call runs when the module loads (top level, or a timer callback started there). */
  atLoad: boolean;
  /** What was matched, for evidence. */
  detail: string;
  /** network-send: the hosts the call names itself (literal or folded constants), if any. */
  hosts?: string[];
  /** network-send: sensitive labels of the data the call carries (a flow proven inside the file). */
  carries?: DataLabel[];
  /** write-outside: the write puts code into another installed program (foreign-program-write.ts). */
  foreignProgram?: boolean;
}

export interface CapabilityProfile {
  capabilities: Capability[];
  /** Hosts of every fixed URL the file names (where a request whose URL is a variable most likely goes). */
  fileHosts: string[];
  /** Names of functions the file defines, so a top-level call of one of them runs its body at load. */
  localFunctions: Set<string>;
}

/** The destination of a blockchain send, in evidence: the public chain, through whichever node relays it. */
export const CHAIN_DESTINATION = 'a public blockchain (transaction data)';

const FILE_READ = /(^|\.)(readFileSync|readFile|createReadStream|read_text|read_bytes|open|load|copyFileSync|copyFile|copyfile|copy2?)$/;
const HISTORY = /(^|[\\/])\.(bash_history|zsh_history|python_history|node_repl_history|psql_history|mysql_history|sh_history|histfile)$|[\\/]fish[\\/]fish_history$|(^|[\\/])\.claude[\\/](projects|history\.jsonl)|(^|[\\/])\.claude\.json$|(^|[\\/])\.cursor[\\/]|ConsoleHost_history\.txt$/i;
const HOME_CALL = /^(os\.homedir|os\.path\.expanduser|pathlib\.Path\.home|Path\.home)$/;
const HOME_WALK = /(^|\.)(readdirSync|readdir|walk|glob|globSync|rglob|iglob|listdir|scandir|iterdir)$/;
const KEYCHAIN = /\bsecurity\s+(find-generic-password|find-internet-password|dump-keychain)\b|\bsecret-tool\s+lookup\b|\bcmdkey\s+\/list\b|\bkeyring\.get_password\b/;
const AGENT_SETTINGS = /(^|[\\/])\.(claude|cursor|codeium|continue|gemini|codex|windsurf|vscode)[\\/][^'"`]*(settings|config|mcp|hooks|rules)[^'"`]*$|(^|[\\/])(CLAUDE|AGENTS|GEMINI)\.md$|claude_desktop_config\.json$/i;
/** Names (or name fragments) of files that hold secrets, as a sweep lists them to match. */
const SECRET_FILE_NAME = /^(?:\.env(?:\.\w+)?|\.pem|\.key|\.p12|\.pfx|id_rsa|id_ed25519|id_ecdsa|credentials(?:\.json)?|\.npmrc|\.pypirc|\.netrc|\.git-credentials|secrets?(?:\.json|\.ya?ml)?|wallet\.dat|keystore|\.kube|kubeconfig)$/i;
/** Local stores of the user's messages and chats: iMessage, Slack, Discord, Signal, Telegram, WhatsApp desktop. */
const MESSAGE_STORE = /Library[\\/]Messages[\\/]chat\.db|(?:^|[\\/])(?:Slack|discord|Signal|Telegram Desktop|WhatsApp)[\\/](?:Local Storage|IndexedDB|sql[\\/]db\.sqlite|config\.json|tdata|storage)|(?:^|[\\/])tdata(?:[\\/]|$)|ChatStorage\.sqlite/i;
/** Commands that print the clipboard. */
const CLIPBOARD_COMMAND = /\b(?:pbpaste|wl-paste|Get-Clipboard)\b|\bxclip\b[^|;&]*\s-o(?:ut)?\b|\bxsel\b[^|;&]*\s(?:-[a-z]*o[a-z]*|--output)\b/;
/**
 * A cheap test of a code file's text for a secret or user-data source beyond credential files and the
 * environment — keychains, history files, the clipboard, message stores, browser stores: another
 * track's agent (an MCP server's) asks for the capability judge when a file has one.
 */
export const SECRET_OR_USER_DATA_SOURCE = new RegExp(
  [
    /\bsecurity\s+(?:find-generic-password|find-internet-password|dump-keychain)\b|\bsecret-tool\s+lookup\b|\bcmdkey\s+\/list\b|\bkeyring\.get_password\b/.source,
    /\.(?:bash|zsh|python|node_repl|psql|mysql|sh)_history\b|fish_history\b|ConsoleHost_history\.txt|\.claude[\\/](?:projects|history\.jsonl)/.source,
    /\b(?:pyperclip\.paste|clipboardy|read_clipboard|clipboard_get|GetClipboardData)\b|clipboard\.readText\b/.source,
    CLIPBOARD_COMMAND.source,
    MESSAGE_STORE.source,
    /Login Data|Local State|wallet\.dat|Local Storage[\\/]leveldb/.source,
    // A list of secret file names a walk matches against (two of them close together).
    /['"`](?:\.env|\.pem|\.key|id_rsa|id_ed25519|\.npmrc|\.pypirc|\.netrc|\.git-credentials|credentials)['"`]\s*,\s*['"`](?:\.env|\.pem|\.key|id_rsa|id_ed25519|\.npmrc|\.pypirc|\.netrc|\.git-credentials|credentials|secrets?)['"`]/.source,
  ].join('|'),
  'i',
);
/** Files that grant access or schedule commands: SSH authorized keys (the name is only ever SSH's), user crontabs. */
const ACCESS_FILE = /(^|[\\/])authorized_keys2?\b|[\\/]var[\\/]spool[\\/]cron(?:[\\/]|$)/;
/** Directories of credentials under the home directory. */
const CREDENTIAL_DIR = /^\.(aws|ssh|gnupg|kube|docker|azure|gcloud)$|^\.config[\\/]gcloud$/;
/** Commands that send data: curl/wget uploads, netcat, PowerShell web requests, scp. */
const NETWORK_COMMAND = /\b(?:curl|wget|nc|ncat|scp|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b[^|;&]*?(?:\s-(?:d|F|T|-data(?:-\w+)?|-upload-file|-form|-post-(?:file|data))\b|\s\d{2,5}\b|\s-Body\b|@)/i;
const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\]|0\.0\.0\.0)$/i;
const HOST_LIKE = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

function hostsOfCall(c: CallFact): string[] {
  const out = new Set<string>();
  for (const v of [...c.args, ...c.argStrings]) {
    if (v === null) continue;
    if (/^(https?|wss?|ftp):\/\//i.test(v.trim())) for (const h of urlHosts(v).slice(0, 1)) out.add(h.toLowerCase());
  }
  for (const h of [c.options.hostname, c.options.host]) if (h !== undefined && HOST_LIKE.test(h)) out.add(h.toLowerCase());
  return [...out].filter((h) => !LOCAL_HOST.test(h));
}

/** Names of functions a file defines (declarations, arrow functions and function expressions bound to a name, Python `def`). */
export function definedFunctions(text: string, language: CodeFacts['language']): Set<string> {
  const out = new Set<string>();
  const re = language === 'python' ? /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/gm : /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/g;
  for (const m of text.matchAll(re)) out.add(m[1] ?? m[2]!);
  return out;
}

/** The capability profile of one code file. `atLoadLines` are lines of calls a timer started at load runs. */
export function capabilityProfile(facts: CodeFacts, text: string, ownName = ''): CapabilityProfile {
  const caps: Capability[] = [];
  const timerLines = new Set(facts.calls.filter((c) => c.topLevel && /^(setTimeout|setImmediate|setInterval|queueMicrotask|process\.nextTick|threading\.Timer|threading\.Thread)$/.test(c.callee)).map((c) => c.line));
  const atLoad = (c: CallFact) => c.topLevel || timerLines.has(c.line);
  const add = (kind: CapabilityKind, c: CallFact, detail: string, extra: Partial<Capability> = {}) => caps.push({ kind, line: c.line, atLoad: atLoad(c), detail, ...extra });
  const specifiers = new Set(facts.imports.map((i) => i.module));
  const pathStrings = facts.strings.filter((s) => !specifiers.has(s.value) && !/^@[\w.-]+\/[\w./-]+$/.test(s.value));
  const namesHome = facts.calls.some((c) => HOME_CALL.test(c.callee)) || pathStrings.some((s) => /^~[\\/]?$|^\$HOME$/.test(s.value));

  const localFunctions = definedFunctions(text, facts.language);
  // Calls of a contract instance the file binds are chain sends too (code-facts.ts, contractCallees).
  const contractCall = contractCallees(text);
  const fileReads = facts.calls.filter((c) => FILE_READ.test(c.callee) && !/^(json|yaml|pickle|toml)\.load$/.test(c.callee));
  // A directory of credentials named beside the home directory (`join(expanduser('~'), '.aws', name)`): what is read there is a credential.
  const credentialDir = namesHome && fileReads.length > 0 ? facts.calls.find((c) => c.argStrings.some((a) => CREDENTIAL_DIR.test(a))) : undefined;
  if (credentialDir !== undefined) {
    const read = fileReads.find((c) => c.line >= credentialDir.line) ?? fileReads[0]!;
    caps.push({ kind: 'secret-read', line: read.line, atLoad: atLoad(read) || atLoad(credentialDir), detail: `${read.callee}(~/${credentialDir.argStrings.find((a) => CREDENTIAL_DIR.test(a))}/…)` });
  }
  const sameLineHome = (c: CallFact) => facts.calls.some((h) => h.line === c.line && HOME_CALL.test(h.callee));
  for (const c of facts.calls) {
    const joined = [...c.args.filter((a): a is string => a !== null), ...c.argStrings].join('/');
    // A read, or a function of the file's own that wraps one (`read(join(home, '.npmrc'))`).
    const reads = (FILE_READ.test(c.callee) && !/^(json|yaml|pickle|toml)\.load$/.test(c.callee)) || (localFunctions.has(c.callee) && fileReads.length > 0);
    if (reads) {
      // Each argument string alone and all of them joined (parts given separately: `join(home, '.ssh', 'id_rsa')`).
      const parts = [...c.args.filter((a): a is string => a !== null), ...c.argStrings, joined];
      const hit = (re: RegExp) => parts.map((p) => re.exec(p)?.[0]).find((m) => m !== undefined);
      const credential = hit(CREDENTIAL_PATH);
      const store = hit(BROWSER_STORE);
      const history = hit(HISTORY);
      if (c.argLabels.includes('credpath') || credential !== undefined) add('secret-read', c, `${c.callee}(${credential ?? 'a credential path'})`);
      else if (store !== undefined) add('secret-read', c, `${c.callee}(${store})`);
      else if (history !== undefined) add('user-data', c, `${c.callee}(${history})`);
    }
    // A message or chat store opened as a database or read as a file (`sqlite3.connect('~/Library/Messages/chat.db')`).
    const message = (reads || /(^|\.)(connect|Database|open_database)$/.test(c.callee)) ? MESSAGE_STORE.exec(joined)?.[0] : undefined;
    if (message !== undefined) add('user-data', c, `${c.callee}(${message}) (message store)`);
    if (/(^|\.)keyring\.get_password$/.test(c.callee)) add('secret-read', c, `${c.callee}() (keychain)`);
    if (CLIPBOARD_READ.test(c.callee)) add('user-data', c, `${c.callee}() (clipboard)`);
    if (HOME_WALK.test(c.callee) && sameLineHome(c)) add('user-data', c, `${c.callee}(home directory)`);
    const network = networkCall(facts, c) || contractCall(c.callee);
    if (network) {
      const carries = c.argLabels.filter((l) => l === 'env' || l === 'secret' || l === 'keymaterial' || l === 'clipboard');
      // What a transaction carries is published to everyone who reads the chain, whichever node relays it:
      // the destination is the chain, never a host that could be the package's own.
      const chain = (isChainSend(c) || contractCall(c.callee)) && !networkCallee(facts, c.callee);
      add('network-send', c, c.callee, { hosts: chain ? [CHAIN_DESTINATION] : hostsOfCall(c), carries });
    }
    // A command that uploads (`curl -d @…`, `wget --post-file`, `nc host port`) is a network send like a request.
    const command = [...c.args.filter((a): a is string => a !== null), ...c.argStrings].join(' ');
    if (EXEC_CALLEE.test(c.callee) && NETWORK_COMMAND.test(command)) {
      const hosts = [...new Set([...command.matchAll(/\b(?:https?|ftp):\/\/[^\s'"]+/gi)].flatMap((m) => urlHosts(m[0]).slice(0, 1)).map((h) => h.toLowerCase()))].filter((h) => !LOCAL_HOST.test(h));
      add('network-send', c, `${c.callee} ${NETWORK_COMMAND.exec(command)![0].trim().slice(0, 80)}`, { hosts, carries: c.argLabels.filter((l) => l === 'env' || l === 'secret' || l === 'keymaterial') });
    }
    const spaced = command;
    if (EXEC_CALLEE.test(c.callee) && KEYCHAIN.test(spaced)) add('secret-read', c, `${c.callee}(${KEYCHAIN.exec(spaced)![0]})`);
    else if (EXEC_CALLEE.test(c.callee) && CLIPBOARD_COMMAND.test(spaced)) add('user-data', c, `${c.callee}(${CLIPBOARD_COMMAND.exec(spaced)![0]}) (clipboard)`);
    else if (EXEC_CALLEE.test(c.callee) && c.args[0] === null) add('exec', c, `${c.callee}(…)`);
    else if (EVAL_CALLEE.test(c.callee) && c.args[0] === null && !(facts.language === 'javascript' && /^(exec|compile|execfile)$/.test(c.callee))) add('exec', c, `${c.callee}(…)`);
    // Python's `open` writes only with a mode that says so (`"a"`, `"w"`, `"x"`, `"r+"`).
    const opensToRead = c.callee === 'open' && !c.args.slice(1).some((m) => m !== null && /^[rwaxbt+]{1,3}$/.test(m) && /[wax+]/.test(m));
    if ((WRITE_CALLEE.test(c.callee) && !opensToRead) || /(^|\.)(appendFileSync|appendFile|write_text|symlinkSync)$/.test(c.callee)) {
      if (AUTOSTART.test(joined) || AGENT_SETTINGS.test(joined) || ACCESS_FILE.test(joined)) add('write-outside', c, `${c.callee}(${(AUTOSTART.exec(joined) ?? AGENT_SETTINGS.exec(joined) ?? ACCESS_FILE.exec(joined))![0]})`);
      else if (c.argLabels.includes('pkgpath')) add('write-outside', c, `${c.callee}(another package's file)`);
    }
    // A crontab installed by a command (`(crontab -l; echo "…") | crontab -`, `crontab file`) schedules commands like a cron file.
    if (EXEC_CALLEE.test(c.callee) && /\|\s*crontab\s+-\s*$|\|\s*crontab\s+-[^lre]|\bcrontab\s+(?!-[lre])[\w./~-]+/.test(command)) add('write-outside', c, `${c.callee}(crontab)`);
    if (DESTRUCTIVE_CALLEE.test(c.callee) && sameLineHome(c)) add('destructive', c, `${c.callee}(home directory)`);
  }
  if (credentialDir === undefined && namesHome && fileReads.length > 0 && !caps.some((k) => k.kind === 'secret-read' || k.kind === 'user-data')) {
    // Names of credential or history files listed apart from the read (`for name in (".bash_history", ".zsh_history"): open(join(home, name))`).
    const named = pathStrings.find((x) => CREDENTIAL_PATH.test(x.value) || HISTORY.test(x.value));
    if (named !== undefined) {
      const read = fileReads.find((c) => c.line >= named.line) ?? fileReads[0]!;
      caps.push({ kind: CREDENTIAL_PATH.test(named.value) ? 'secret-read' : 'user-data', line: read.line, atLoad: atLoad(read), detail: `${read.callee}(~/${named.value})` });
    }
  }
  if (credentialDir === undefined && namesHome && fileReads.length > 0 && !caps.some((k) => k.kind === 'secret-read')) {
    // A credential path spelled in pieces the reader cannot fold: a template (`${homedir()}/.config/solana/id.json`),
    // path operators (`Path.home() / ".config" / "solana" / "id.json"`), joined arguments.
    const flat = spelledPath(text);
    const named = CREDENTIAL_PATH.exec(flat)?.[0];
    if (named !== undefined) {
      const read = fileReads[0]!;
      caps.push({ kind: 'secret-read', line: read.line, atLoad: atLoad(read), detail: `${read.callee}(${named})` });
    }
  }
  // A walk that keeps files named like secrets (`for c in d.iterdir(): if any(s in c.name for s in (".env",
  // ".pem", "id_rsa", "credentials"))`) and reads them: a stealer's sweep, wherever it starts.
  if (!caps.some((k) => k.kind === 'secret-read') && fileReads.length > 0 && facts.calls.some((c) => HOME_WALK.test(c.callee))) {
    const names = new Set(pathStrings.map((x) => x.value.trim()).filter((v) => SECRET_FILE_NAME.test(v)));
    if (names.size >= 2) {
      const read = fileReads[0]!;
      caps.push({ kind: 'secret-read', line: read.line, atLoad: atLoad(read), detail: `${read.callee}(files a walk picks by secret names: ${[...names].slice(0, 4).join(', ')})` });
    }
  }
  // A wallet's signing key or seed phrase taken from the environment: no library sends its user's
  // signing key anywhere (it signs locally), so the key reaching a send is theft like a keystore read.
  for (const e of facts.secretEnvNames) {
    if (!SIGNING_SECRET_ENV_NAME.test(e.name) || caps.some((k) => k.kind === 'secret-read' && k.line === e.line)) continue;
    caps.push({ kind: 'secret-read', line: e.line, atLoad: facts.calls.some((c) => c.line === e.line && atLoad(c)), detail: `signing secret from the environment (${e.name})` });
  }
  // Code written into another installed program (an app bundle, an editor's extensions, global packages).
  const foreign = foreignProgramWrite(facts, text, ownName);
  if (foreign !== null) {
    const call = facts.calls.find((c) => c.line === foreign.line);
    caps.push({ kind: 'write-outside', line: foreign.line, atLoad: call !== undefined && atLoad(call), detail: foreign.detail, foreignProgram: true });
  }
  for (const d of facts.envDumps) caps.push({ kind: 'secret-read', line: d.line, atLoad: facts.calls.some((c) => c.line === d.line && atLoad(c)), detail: `the whole environment (${d.expression.slice(0, 60)})` });
  if (readsInstanceCredentials(facts)) {
    const s = facts.strings.find((x) => /security-credentials|service-accounts|oauth2\/token|api\/token/.test(x.value));
    const line = s?.line ?? 1;
    caps.push({ kind: 'secret-read', line, atLoad: facts.calls.some((c) => c.line === line && atLoad(c)), detail: 'cloud instance credentials' });
  }
  const fileHosts = [...new Set(facts.strings.filter((s) => /^(https?|wss?):\/\//i.test(s.value.trim())).flatMap((s) => urlHosts(s.value).slice(0, 1)).map((h) => h.toLowerCase()))].filter((h) => !LOCAL_HOST.test(h));
  return { capabilities: caps, fileHosts, localFunctions };
}
