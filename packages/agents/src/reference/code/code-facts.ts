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
  | 'credpath';

export interface CallFact {
  /** Resolved callee: `child_process.exec`, `eval`, `fetch`, `requests.post`, `os.system`; `?` parts are unknown. */
  callee: string;
  line: number;
  /** Each argument folded to a constant string when it can be (null when it cannot). */
  args: (string | null)[];
  /** Labels of the data any argument (or the receiver, for a method of a channel) carries. */
  argLabels: DataLabel[];
  /** Constant strings found anywhere inside the arguments (paths joined by `path.join`, URLs in options). */
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
  /** The first argument is itself a decoding call (`eval(atob(x))`, `exec(base64.b64decode(x))`). */
  directDecode: boolean;
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

export interface AssignmentHookFact {
  /** Resolved target replaced by the code: `fetch`, `XMLHttpRequest.prototype.send`, `ethereum.request`. */
  target: string;
  line: number;
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
    envDumps: [],
    mangledIdentifiers: 0,
    mangledFirstLine: null,
    endlessTopLevelLoops: [],
    commandOverrides: [],
    dynamicRequires: [],
  };
}

/** Environment variable names that hold credentials. */
export const SECRET_ENV_NAME = /(TOKEN|SECRET|PASSW|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH|NPM_|AWS_|GITHUB_|GH_|PYPI|TWINE_)/i;

/** Paths of credential, browser-profile and wallet stores. */
export const CREDENTIAL_PATH = /(\.npmrc|\.pypirc|\.netrc|\.aws[\\/]credentials|\.ssh[\\/]|id_rsa|id_ed25519|id_ecdsa|\.docker[\\/]config\.json|\.kube[\\/]config|\.git-credentials|\.config[\\/]gh[\\/]hosts|Login Data|Local State|Local Storage[\\/]leveldb|wallet\.dat|\.config[\\/]solana[\\/]id\.json|Exodus|\.electrum|\.ethereum[\\/]keystore|nkbihfbeogaeaoehlefnkodbefgpgknn|keychain-db|\.gnupg)/i;

/** Property names of private key material. */
export const KEY_MATERIAL_NAME = /^(secretKey|privateKey|private_key|secret_key|mnemonic|seedPhrase|seed_phrase)$/;

/** Labels that make data worth reporting when they reach the network. */
export const SENSITIVE_LABELS: readonly DataLabel[] = ['env', 'secret', 'hostinfo', 'keymaterial'];

/** Names whose hiding behind concatenation or char codes has no benign reason. */
export const SENSITIVE_NAMES = new Set([
  'child_process', 'spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork', 'eval', 'Function', 'require',
  'env', 'mainModule', 'constructor', 'fromCharCode', 'readFileSync', 'writeFileSync', 'unlinkSync', 'rmSync', 'homedir',
  'http', 'https', 'net', 'dns', 'request', 'fetch', 'XMLHttpRequest', 'WebSocket', 'ethereum', 'system', 'popen', 'subprocess',
  'os', 'environ', 'b64decode', 'exec_module', '__import__', 'getattr', 'compile', 'Popen', 'check_output', 'urlopen', 'socket',
]);
