/**
 * What the static analysis of one source file yields, whatever its language: the reusable part of
 * the reference agents (packages today; skills, MCP servers and repositories can read the same
 * facts). Names are resolved through imports, aliases and constant folding, so
 * `const c = require('child_' + 'process'); c['ex' + 'ec'](x)` is a call to `child_process.exec`.
 */

/** Kinds of data a value may carry, followed through assignments within a file. */
export type DataLabel =
  /** The whole process environment (`process.env`, `os.environ`), not one variable of it. */
  | 'env'
  /** A credential: the content of a credential file (`.npmrc`, SSH keys, wallet and browser stores). */
  | 'secret'
  /** One token-named environment variable (`process.env.NPM_TOKEN`): SDKs legitimately send these to their API. */
  | 'envtoken'
  /** Host identity: host name, user name, network interfaces. */
  | 'hostinfo'
  /** Private key material (`secretKey`, `privateKey`, mnemonics). */
  | 'keymaterial'
  /** Data received from the network (a response, a socket's data). */
  | 'remote'
  /** A network request or socket object: writing to it sends data. */
  | 'channel'
  /** Text decoded at run time (base64, hex, char codes). */
  | 'decoded'
  /** A path into a credential, browser-profile or wallet store (reading it yields a secret). */
  | 'credpath'
  /** Bytes read from an image file or revealed from one (where steganography hides payloads). */
  | 'imagedata'
  /** The content of a file read at run time (`fs.readFileSync(p)`): where a payload shipped as data comes from. */
  | 'filedata'
  /** An offset found by searching data for a constant marker (`buf.lastIndexOf('IEND')`): where a carried payload starts. */
  | 'markeroffset'
  /** A path inside another installed package (`require.resolve('x')`, `find_spec('x').origin`, site-packages). */
  | 'pkgpath'
  /** The content of the system clipboard. */
  | 'clipboard'
  /**
   * Host identity inside a `User-Agent` header (`node-20 linux (x64) my-laptop`): how a client names
   * itself to the server it calls, not a report of the host in the request's content.
   */
  | 'uahost'
  /** A path into a dot-folder of the user's home directory (`path.join(os.homedir(), '.node-cache')`): out of sight of `ls ~`. */
  | 'hiddenhome';

export interface CallFact {
  /** Resolved callee: `child_process.exec`, `eval`, `fetch`, `requests.post`, `os.system`; `?` parts are unknown. */
  callee: string;
  line: number;
  /** Each argument folded to a constant string when it can be (null when it cannot). */
  args: (string | null)[];
  /** Labels of the data any argument (or the receiver, for a method of a channel) carries. */
  argLabels: DataLabel[];
  /**
   * Constant strings found anywhere inside the arguments (paths joined by `path.join`, URLs in options). A
   * template literal or f-string that starts with constant text gives that text with `?` for each computed
   * part (`rm -rf ?`, `moto_server -p ?`), followed by the constants inside the parts; one that starts with a
   * computed part gives only those constants, so the first word of a string here is never a computed one.
   */
  argStrings: string[];
  /** Keyword arguments / option-object properties folded to constants: `detached`, `stdio`, `shell`, `windowsHide`. */
  options: Record<string, string>;
  /** The call's result is `.unref()`ed (directly or through the variable it was stored in). */
  unref: boolean;
  /** The call is `new X(...)`. */
  isNew: boolean;
  /** The call runs when the module loads (not inside a function or class body). */
  topLevel: boolean;
  /** A `write`/`send`/`end`… method of a request or socket object: its arguments go out on the network. */
  onChannel: boolean;
  /**
   * For file-writing and -removing calls: the first argument as a path relative to the file's own
   * directory when it is built from `__dirname`/`__filename` (`$DIR/../../other/index.js`,
   * `$FILE` for the file itself), followed through variables and `path.join`/`path.resolve`.
   */
  argPath?: string;
  /**
   * For process calls: the computed parts of the command, in source order (an argument, an element of an
   * argument vector, a part of a template literal or f-string, an operand of `+`, a value `%`/`.format`
   * fills in), each as a path built from the file's location or the working directory the way `argPath`
   * is (`$DIR/..`, `$CWD`), or `?` when it is not one: for a command given as one template literal or
   * f-string, the k-th `?` of its text in `argStrings` is its k-th part. Present only when some part is such
   * a path: `exec(`rm -rf ${__dirname}`)` gives `['$DIR']`, `['rm', '-rf', ROOT]` gives ROOT's path.
   */
  commandPaths?: string[];
  /**
   * The call runs only when a condition reads the calendar against a constant (`getMonth() === 11`,
   * `Date.now() > 1767225600000`, `datetime.now() > datetime(2026, 1, 1)`) — `date` — or draws a
   * random number (`Math.random() < 0.05`, `random.randint(1, 20) == 7`) — `chance`.
   */
  gate?: 'date' | 'chance';
  /** The first argument is itself a decoding call (`eval(atob(x))`, `exec(base64.b64decode(x))`). */
  directDecode: boolean;
  /** For process calls: the argument vector element by element (see `CommandShape`, packages/received-command.ts). */
  argv?: (string | null)[];
  /** For process calls: the command line quotes each computed part for the shell (see `CommandShape`). */
  shellQuoted?: boolean;
  /**
   * For `chmod` calls: the mode argument's source text when it is a literal (`0o755`, `432`, `'755'`),
   * so that a number (decimal in code: `432` is 0o660) is not read as the octal digits of a string.
   */
  modeText?: string;
}

export interface StringFact {
  value: string;
  line: number;
  /** The value exists only after decoding (char codes, base64, hex, reversed or joined pieces). */
  decoded: boolean;
}

export interface HiddenNameFact {
  /** The name a computed expression (concatenation, template, char codes) folds to. */
  name: string;
  line: number;
  /** The source text of the expression, clipped. */
  expression: string;
}

export interface ReflectiveCallFact {
  /** The resolved API the call reaches: `child_process.spawn`, `os.hostname`, `os.startfile`. */
  callee: string;
  line: number;
  /** How the name was reached: `computed member`, `Reflect.get`, `property descriptor`, `key search`, `getattr`, `__dict__`, `__import__`… */
  via: string;
  /** The source text of the call's callee, clipped. */
  expression: string;
}

export interface AssignmentHookFact {
  /** Resolved target replaced by the code: `fetch`, `XMLHttpRequest.prototype.send`, `ethereum.request`. */
  target: string;
  line: number;
  /**
   * Python: the replacement is a function of the file that sends data over the network itself, from
   * a thread it starts or through another function of the file (the arguments the patched method
   * receives, secrets passed to a client's constructor, leave with it).
   */
  sends?: boolean;
  /**
   * The replaced function takes keys or secrets (its name or the replacement's parameters say so:
   * `Account.from_key`, `mnemonicToSeedSync`, `fromSecretKey`, `(private_key, …)`) and the replacement
   * sends: what it forwards is a key, a wallet or a token.
   */
  secretArgs?: boolean;
}

/** Words of a function or parameter name that say it receives a key or a secret. */
export const SECRET_ARGUMENT_NAME = /(?:key|secret|mnemonic|seed|phrase|password|passwd|token|wallet|credential|private)/i;

/** Calls of a blockchain client that put data on the chain (the chain is then a channel anyone can read). */
export const CHAIN_SEND = /(?:^|\.)(?:sendTransaction|sendRawTransaction|sendAndConfirmTransaction|sendAndConfirmRawTransaction|broadcastTransaction|_rpcRequest|send_transaction|send_raw_transaction|submit_and_wait|submitAndWait)$/;
/** Contract calls that sign and submit (web3.py `.transact()`, viem `writeContract`; an ethers contract instance's methods: `contractCallees`). */
const CONTRACT_SUBMIT = /(?:^|\.)(?:transact|writeContract|sendCalls|signAndSendTransaction|signAndExecuteTransaction|signAndExecuteTransactionBlock|sendTx|broadcastTx|broadcastTxSync|sign_and_submit|signAndBroadcast)$/;
/** A JSON-RPC method name a node executes for the caller: its params leave the machine for whoever runs the node. */
const JSON_RPC_METHOD = /^(?:eth|net|personal|wallet|debug|trace|parity|starknet|zks|sui|suix|near|tron)_[A-Za-z]+$|^(?:sendTransaction|sendRawTransaction|simulateTransaction|requestAirdrop|broadcast_tx_(?:sync|async|commit))$/;
/** Methods that hand a JSON-RPC request to a transport (`provider.send('eth_call', …)`, `request({ method, params })`, web3.py `make_request`). */
const RPC_TRANSPORT = /(?:^|\.)(?:send|request|sendAsync|_send|make_request|call|rpcRequest|_rpcRequest|_rpc_request)$/;

// Names bound to a contract instance: `const c = new ethers.Contract(addr, abi, wallet)`, `c2 = c.connect(signer)`,
// `await ethers.getContractAt(…)`, viem `getContract(…)`, web3.py `w3.eth.contract(…)`.
const CONTRACT_BINDING = /\b(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?(?:new\s+(?:[\w$]+\.)*Contract\s*\(|(?:[\w$]+\.)*(?:getContractAt|getContract|contract)\s*\(|[\w$]+\.connect\s*\(\s*(?:signer|wallet|account)\b)/g;
// Members of a contract instance that do not call the contract.
const CONTRACT_PLUMBING = /^(?:connect|attach|interface|getAddress|target|address|on|once|off|filters|queryFilter|removeAllListeners|runner|waitForDeployment|deploymentTransaction|getFunction|getEvent|functions|methods|read|estimateGas|simulate|events|abi)$/;

/**
 * Callees that call a method of a contract instance the file binds (`token.store(secret)`,
 * `c.write.store([secret])`): a contract call goes to the chain node, and a state-changing one onto
 * the chain, with its arguments.
 */
export function contractCallees(text: string): (callee: string) => boolean {
  if (!/Contract|contract\s*\(/.test(text)) return () => false;
  const names = new Set<string>();
  for (const m of text.matchAll(CONTRACT_BINDING)) names.add(m[1]!);
  if (names.size === 0) return () => false;
  return (callee) => {
    const parts = callee.split('.');
    if (!names.has(parts[0]!) || parts.length < 2) return false;
    const member = parts[1] === 'write' && parts.length > 2 ? parts[2]! : parts[1]!;
    return parts.length <= 3 && !CONTRACT_PLUMBING.test(member);
  };
}

/**
 * A call that puts data on a blockchain or hands it to a chain node: a transaction sent or
 * broadcast, a contract call submitted, or a JSON-RPC request naming a node method. Whoever runs the
 * node, and for a transaction everyone who reads the chain, receives the data — a network sink like
 * `fetch`, with no web server of the attacker's own.
 */
export function isChainSend(call: Pick<CallFact, 'callee' | 'args' | 'argStrings'>): boolean {
  if (CHAIN_SEND.test(call.callee) || CONTRACT_SUBMIT.test(call.callee)) return true;
  return RPC_TRANSPORT.test(call.callee) && [...call.args, ...call.argStrings].some((a) => a !== null && JSON_RPC_METHOD.test(a));
}

export interface ImportFact {
  module: string;
  line: number;
}

export interface CodeFacts {
  language: 'javascript' | 'python';
  /** How the syntax tree was obtained: `strict`, `loose` (tolerant parser) or `none` (unparseable). */
  parse: 'strict' | 'loose' | 'none';
  imports: ImportFact[];
  calls: CallFact[];
  strings: StringFact[];
  hiddenNames: HiddenNameFact[];
  hooks: AssignmentHookFact[];
  /**
   * Calls of a process, code, network, host-identity or file API whose callee is reached by a
   * constant computed name or reflection (`cp['spawn'](…)`, `Reflect.get(os, 'hostname')()`,
   * `getattr(os, 'system')(…)`, `os.__dict__['startfile'](…)`): the indirection hides the API from
   * a reader and from name-based scanners, and the resolved callee is what the call runs.
   */
  reflectiveCalls: ReflectiveCallFact[];
  /**
   * Calls whose method or module name is text decoded at run time and not foldable to a constant:
   * `self[rot13(x)](…)`, `require(names[1])` where `names` holds outputs of a local character
   * decoder (a function built on `fromCharCode`/`charCodeAt`) applied to constants.
   */
  decodedNameCalls: { line: number; expression: string }[];
  /**
   * Lines of javascript-obfuscator's string-array rotation: a `while (!![])` loop that turns an
   * array with `a.push(a.shift())` until a `parseInt` checksum matches, run before any string of
   * the obfuscated program is looked up.
   */
  stringArrayRotations: number[];
  /** Where the whole environment is enumerated or serialized (`JSON.stringify(process.env)`, `dict(os.environ)`). */
  envDumps: { line: number; expression: string }[];
  /** Distinct `_0x1a2b`-style identifiers (javascript-obfuscator output). */
  mangledIdentifiers: number;
  /** Line of the first of them (null when there is none). */
  mangledFirstLine: number | null;
  /** Loops at module level that never end (protestware that hangs every importer). */
  endlessTopLevelLoops: number[];
  /** Python: setuptools command classes overridden (`class X(install)`), with their line. */
  commandOverrides: { base: string; name: string; line: number }[];
  /** Lines of `require(x)` whose module name is not a constant. */
  dynamicRequires: number[];
  /** Python: imported modules whose `__file__`/`__path__` the file takes (where another installed package lives). */
  locatedModules?: string[];
  /** Secret-named environment variables read one by one (`process.env.NPM_TOKEN`, `os.getenv('AWS_SECRET_ACCESS_KEY')`). */
  secretEnvNames: { name: string; line: number }[];
}

export function emptyFacts(language: CodeFacts['language']): CodeFacts {
  return {
    language,
    parse: 'none',
    imports: [],
    calls: [],
    strings: [],
    hiddenNames: [],
    hooks: [],
    reflectiveCalls: [],
    decodedNameCalls: [],
    stringArrayRotations: [],
    envDumps: [],
    mangledIdentifiers: 0,
    mangledFirstLine: null,
    endlessTopLevelLoops: [],
    commandOverrides: [],
    dynamicRequires: [],
    secretEnvNames: [],
  };
}

/**
 * APIs whose call through a computed name or reflection is reported (see `reflectiveCalls`):
 * processes, code evaluation, host identity, files and native loading. Network APIs are matched
 * by each language's network test; `require` is not here (`module['require']` is a known way to
 * keep bundlers from inlining a module).
 */
export const REFLECTED_API = /^(child_process\.\w+|eval|Function|exec|compile|vm\.\w+|module\._compile|os\.(hostname|userInfo|networkInterfaces|homedir|system|popen|startfile|spawn\w*|exec\w*|getlogin|uname|remove|unlink)|fs(\.promises)?\.(readFileSync|readFile|writeFileSync|writeFile|appendFileSync|appendFile|readdirSync|readdir|createReadStream|createWriteStream|unlinkSync|rmSync|chmodSync|copyFileSync)|process\.(binding|dlopen)|subprocess\.\w+|socket\.(gethostname|getfqdn|socket|create_connection)|platform\.(node|uname)|getpass\.getuser|builtins\.(exec|eval|compile|__import__)|ctypes\.(CDLL|WinDLL|cdll\.LoadLibrary|windll\.\w+)|shutil\.(rmtree|copy\w*|move))$/;

/**
 * Environment variable names that hold credentials. A name that ends by saying it holds where or how
 * to connect (`MCP_AUTH_PORT`, `GITHUB_API_URL`, `AWS_REGION`, `AUTH_MODE`) is configuration, not a
 * credential, whatever word it starts with: the MCP SDK's examples send `MCP_AUTH_PORT` in an
 * address and were read as sending a secret to another service.
 */
export const SECRET_ENV_NAME = /^(?!.*_(?:PORT|HOST|HOSTNAME|URL|URI|ENDPOINT|REGION|ENABLED|DISABLED|MODE|TIMEOUT|LEVEL|VERSION)$).*(TOKEN|SECRET|PASSW|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|NPM_|AWS_|GITHUB_|GH_|PYPI|TWINE_)/i;

/** Paths of credential, browser-profile and wallet stores. */
export const CREDENTIAL_PATH = /(\/etc\/(passwd|shadow)$|\.npmrc|\.pypirc|\.netrc|\.aws[\\/]credentials|\.ssh[\\/]|id_rsa|id_ed25519|id_ecdsa|\.docker[\\/]config\.json|\.kube[\\/]config|\.git-credentials|\.config[\\/]gh[\\/]hosts|Login Data|Local State|Local Storage[\\/]leveldb|wallet\.dat|\.config[\\/]solana[\\/]id\.json|Exodus|\.electrum|\.ethereum[\\/]keystore|nkbihfbeogaeaoehlefnkodbefgpgknn|keychain-db|\.gnupg)/i;

/** Property names of private key material (and of an exchange API's signing secret: `apiSecret`). */
export const KEY_MATERIAL_NAME = /^(secretKey|privateKey|private_key|secret_key|mnemonic|seed|familySeed|seedHex|seedPhrase|seed_phrase|secretPhrase|secret_phrase|apiSecret|api_secret|privKey|priv_key|walletKey|wallet_key|recoveryPhrase|recovery_phrase)$/;

/**
 * Environment variable names of secrets that sign rather than travel: a private key, a wallet's seed or
 * mnemonic, AWS's secret access key. Honest code signs with them and never sends them anywhere (an API
 * key or bearer token is sent to its service, so those stay `envtoken`).
 */
export const SIGNING_SECRET_ENV_NAME = /(PRIVATE_?KEY|MNEMONIC|SEED_?PHRASE|SECRET_?PHRASE|RECOVERY_?PHRASE|AWS_SECRET_ACCESS_KEY|WALLET_?(?:KEY|SECRET|SEED))/i;

/**
 * Calls that derive a signature or a digest from a key (`createHmac(…).digest()`, `jwt.sign`,
 * `hmac.new(…).hexdigest()`, a local `sign(secret, payload)`): what they return reveals nothing of
 * the key, so it carries no secret label. Matched on the method or function name.
 */
export const SIGNATURE_CALL = /^(?:digest|hexdigest|sign|signSync|signAsync|signMessage|signTransaction|hash|hashSync|hmac|\w*(?:[Ss]ign(?:ature)?|[Hh]mac|HMAC|[Dd]igest)\w*)$/;

/** Labels a signature or digest leaves out (SIGNATURE_CALL). */
export const SIGNED_AWAY_LABELS: readonly DataLabel[] = ['keymaterial', 'secret', 'envtoken', 'env'];

/** Labels that make data worth reporting when they reach the network. */
export const SENSITIVE_LABELS: readonly DataLabel[] = ['env', 'secret', 'hostinfo', 'keymaterial'];

/** Names whose hiding behind concatenation or char codes has no benign reason. */
export const SENSITIVE_NAMES = new Set([
  'child_process', 'spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork', 'eval', 'Function', 'require',
  'env', 'mainModule', 'constructor', 'fromCharCode', 'readFileSync', 'writeFileSync', 'unlinkSync', 'rmSync', 'homedir',
  'http', 'https', 'net', 'dns', 'request', 'fetch', 'XMLHttpRequest', 'WebSocket', 'ethereum', 'system', 'popen', 'subprocess',
  'os', 'environ', 'b64decode', 'exec_module', '__import__', 'getattr', 'compile', 'Popen', 'check_output', 'urlopen', 'socket',
]);

/** Calls that return the system clipboard's content. */
export const CLIPBOARD_READ = /(^|\.)(clipboard_get|read_clipboard)$|^(pyperclip\.paste|clipboard\.paste|pandas\.read_clipboard|pd\.read_clipboard|win32clipboard\.GetClipboardData|clipboardy\.(read|readSync|default\.read|default\.readSync)|navigator\.clipboard\.readText|navigator\.clipboard\.read|electron\.clipboard\.readText|copy-paste\.paste)$/;
/** Calls that replace the system clipboard's content. */
export const CLIPBOARD_WRITE = /(^|\.)(to_clipboard|clipboard_append)$|^(pyperclip\.copy|clipboard\.copy|win32clipboard\.SetClipboardText|win32clipboard\.SetClipboardData|clipboardy\.(write|writeSync|default\.write|default\.writeSync)|navigator\.clipboard\.writeText|electron\.clipboard\.writeText|copy-paste\.copy)$/;
/** Image files, whose bytes can carry a payload (steganography, a binary appended after the image data). */
export const IMAGE_PATH = /\.(png|jpe?g|gif|bmp|ico|webp|tiff?)$/i;
/** Calls that read an image or reveal what is hidden in one (steganography libraries: stegano, judyb/lsb, steggy, stegpy). */
export const IMAGE_READ = /(^|\.)(open|read|read_bytes|readFileSync|readFile|imread|load|fromfile|reveal|decode|extract_message|decode_image)$|^(stegano|judyb|lsb|steggy|stegpy|steganography|stegcloak)(\.|$)/;

/** A clock read: `Date.now()`, `new Date`, a calendar getter, Python's `datetime.now()`/`date.today()`/`time.time()`. */
const CLOCK_READ = /\bDate\.now\(\)|\bnew Date\b|\.get(?:UTC)?(?:Date|Day|Month|FullYear|Hours)\(\)|\b(?:datetime\.)?(?:datetime|date)\.(?:now|today|utcnow)\(|\btime\.time\(\)|\blocaltime\(/;
/** A constant point in time: an epoch in seconds or milliseconds, a date literal, a year, a day or month compared to a number. */
const CONSTANT_TIME = /\b1[5-9]\d{8}(?:\d{3})?\b|['"`]20\d\d-\d\d|\b20[2-4]\d\b|(?:Date|Day|Month|Hours)\(\)\s*[=!<>]=*\s*\d|\d\s*[=!<>]=*\s*[\w$.]*\.get(?:UTC)?(?:Date|Day|Month|Hours)\(\)|\.(?:day|month|hour|weekday\(\)|tm_mday|tm_mon|tm_wday)\s*[=!<>]=*\s*\d/;
/** A random draw compared to a constant. */
const CHANCE = /\b(?:Math\.random|random\.random|secrets\.randbelow|random\.randint|random\.randrange|random\.choice|crypto\.randomInt)\s*\(/;

/**
 * What a condition's source text gates a call on: the calendar against a constant (a time bomb;
 * an expiry check compares with a variable such as a file's age, not with a constant), or chance.
 */
export function clockOrChanceGate(code: string): 'date' | 'chance' | undefined {
  if (CLOCK_READ.test(code) && CONSTANT_TIME.test(code)) return 'date';
  if (CHANCE.test(code) && /[<>]=?\s*\d|\d\s*[<>]=?|===?\s*\d|\d\s*===?/.test(code)) return 'chance';
  return undefined;
}
