/** What a tool handler's code does, found in it and in the functions of the same file it calls. */
export type HandlerEffectKind =
  /** Sends a request or opens a connection. */
  | 'network'
  /** Opens a file for reading, copies one, lists a directory. */
  | 'file-read'
  /** Writes, moves or copies a file to a destination. */
  | 'file-write'
  /** Deletes files or directory trees. */
  | 'file-delete'
  /** Changes permissions or owners (chmod, chown, setuid). */
  | 'permissions'
  /** Creates a symbolic or hard link. */
  | 'link'
  /** Extracts an archive. */
  | 'extract'
  /** Runs a process. */
  | 'process'
  /** Evaluates code or deserializes objects that can run code (eval, pickle, unsafe YAML, dynamic import). */
  | 'code-eval'
  /** Renders a template whose text comes from the tool's input (server-side template injection). */
  | 'template-injection'
  /** Names a system file of other users or the host: account databases, /proc, system logs, kernel state. */
  | 'system-file'
  /** Names a credential store. */
  | 'credential-file'
  /** Enumerates the whole environment. */
  | 'env-enumeration'
  /** Enumerates accounts, processes, interfaces or other host state through an API. */
  | 'host-enumeration'
  /** Writes where code runs at login or on a schedule (crontab, shell profiles, authorized_keys, launch agents). */
  | 'persistence'
  /** Work without a bound: an endless loop, a fork or thread in a loop, recursion without a base case, huge constant sizes. */
  | 'unbounded'
  /** A regular expression compiled from the tool's input (ReDoS). */
  | 'input-regex'
  /** Names a cloud instance-metadata service (169.254.169.254, metadata.google.internal): its answers are credentials. */
  | 'metadata-service'
  /** Connects to many ports of a host in a loop (a port scan). */
  | 'port-scan'
  /** The tool's input written into the text of a SQL, LDAP or XPath query, or parsed into a MongoDB filter (injection). */
  | 'query-injection'
  /** Names a hidden file in a shared temporary directory (`/tmp/.cache_x`): concealment, when written. */
  | 'hidden-temp'
  /** Writes the tool's input into the content of a file (json.dump, a handle's write, writeFile's data). */
  | 'stored-input'
  /** Hands the tool's input, or what it read, to a logger (`log.info(…)`, `logger.debug(…)`; not the console). */
  | 'logged-input'
  /** The input joined onto a fixed base directory with no check that the result stays inside it (path traversal). */
  | 'path-traversal'
  /** Fixed links of the server's own put into a collection of results, where the input's words decide (result poisoning). */
  | 'injected-link'
  /** A constant text the handler returns to the model (its evidence is the text). */
  | 'returned-text'
  /** Names a system binary or configuration location (/bin, /usr/bin, /etc, /var/www): dangerous only when written. */
  | 'system-location';

export interface HandlerEffect {
  kind: HandlerEffectKind;
  /** 1-based line in the file. */
  line: number;
  evidence: string;
  /** The effect's data or target comes from the tool's input (for `network`: its payload or address). */
  fromInput: boolean;
  /** `network`: the call's result is thrown away (fire and forget: telemetry, a side channel). */
  discarded?: boolean;
  /** `network`: the constant host it reaches, when the address is constant. */
  host?: string;
  /**
   * `network`: the payload carries what the handler read from a file or the whole environment, or a
   * credential of the environment sent to a known host that is not its service (round s28: a token
   * presented to its own service is how a client authenticates, not data leaving).
   */
  carriesRead?: boolean;
  /** `network`: secret variables of the environment the call carries (`GITHUB_TOKEN`). */
  credentials?: string[];
  /**
   * `network`: the call goes to the service the server is named for, or presents a credential of the
   * host's own service (expected-service.ts): what the tool is for, not a send it hides.
   */
  service?: boolean;
  /**
   * `extract`: a tar archive extracted with no member filter (`filter='data'`) and no
   * normalise-then-compare check of member paths: absolute names, `..` and links land anywhere.
   */
  unfiltered?: boolean;
  /** `process`: a shell line handed to a function of another module that runs it in a shell. */
  shellLine?: boolean;
  /** `code-eval`: what runs was decoded first (base64, hex, zlib, marshal). */
  decoded?: boolean;
  /**
   * `code-eval`: the code runs in the server's own process with everything the language offers
   * (Python's eval/exec without emptied builtins, importing a module or file, Node's eval,
   * Function and vm, which Node documents as no security boundary): no sandbox between the
   * model's text and the host.
   */
  unrestricted?: boolean;
}

/**
 * The effects found in one handler, each kind reported once per source offset, with up to 200
 * characters of the code at `[from, to)` as evidence (shared by the JavaScript and Python readers).
 */
export function handlerEffectList(text: string, lineAt: (offset: number) => number) {
  const effects: HandlerEffect[] = [];
  const seen = new Set<string>();
  const add = (kind: HandlerEffectKind, from: number, to: number, fromInput: boolean, extra: Partial<HandlerEffect> = {}) => {
    const key = `${kind}:${from}`;
    if (seen.has(key)) return;
    seen.add(key);
    effects.push({ kind, line: lineAt(from), evidence: text.slice(from, Math.min(to, from + 200)), fromInput, ...extra });
  };
  return { effects, add };
}
