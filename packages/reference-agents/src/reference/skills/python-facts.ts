import { lineLocator } from '../text/line-locator.js';
import { pythonDescriptionRanges } from './python-description-ranges.js';
import { PythonSource, type SyntaxNode } from './python-source.js';
import { pythonFlowFacts } from './python-flow-facts.js';
import { pythonCommandShape } from './shell-command-shape.js';
import { pythonCommandLines } from './python-commands.js';
import { credentialUploads } from './credential-uploads.js';
import { pythonIdentityOnly } from './python-identity-keys.js';
import { DOTENV_PATH_PATTERN, SECRET_PATH_PATTERN, type ScriptFact } from './script-fact.js';

export const SHELL_ALWAYS = /^(?:os\.system|os\.popen|commands\.getoutput|commands\.getstatusoutput|subprocess\.getoutput|subprocess\.getstatusoutput|pty\.spawn)$/;
export const SUBPROCESS = /^(?:subprocess\.(?:run|call|Popen|check_output|check_call)|asyncio\.create_subprocess_shell|asyncio\.create_subprocess_exec|os\.exec\w*|os\.spawn\w*)$/;
const EVAL = /^(?:eval|exec|compile|(?:builtins|__builtins__)\.(?:eval|exec))$/;
// Deserializers that run code while loading: fed a download, they run it.
const CODE_LOADER = /^(?:pickle|cPickle|_pickle|dill|joblib|marshal|cloudpickle|torch)\.loads?$|^(?:yaml\.unsafe_load|yaml\.load)$/;
// A blockchain transaction sent or submitted is a send too: the node relays it and the chain publishes it.
export const NETWORK =
  /^(?:requests\.\w+|requests\.Session|httpx\.\w+|urllib\.request\.(?:urlopen|Request|urlretrieve)|urllib2\.urlopen|urlopen|http\.client\.HTTPS?Connection|socket\.socket|socket\.create_connection|socket\.gethostbyname(?:_ex)?|socket\.getaddrinfo|aiohttp\.ClientSession|aiohttp\.request|smtplib\.SMTP(?:_SSL)?|ftplib\.FTP|paramiko\.SSHClient|websocket\.create_connection|websockets\.connect|dns\.resolver\.(?:resolve|query)|(?:[\w$@/.-]+\.)?(?:sendTransaction|sendRawTransaction|sendAndConfirmTransaction|sendAndConfirmRawTransaction|broadcastTransaction|signAndSendTransaction|send_transaction|send_raw_transaction|transact))$/;
const DECODE = /(?:^|\.)(?:b64decode|b32decode|b16decode|a85decode|decodebytes|decompress|loads|unhexlify|fromhex|decode)$/;
// Decoders that hide what they decode (not `.decode()` of bytes or `json.loads`): what makes a helper of the file a decoder.
const HIDING_DECODE = /(?:^|\.)(?:b64decode|urlsafe_b64decode|standard_b64decode|b32decode|b16decode|b85decode|a85decode|decodebytes|unhexlify|a2b_base64|fromhex|decompress)$|^(?:marshal\.loads|codecs\.decode)$/;
// Lookups whose name is the data: what the name holds reaches the name's authoritative server.
const DNS_LOOKUP = /^(?:socket\.gethostbyname(?:_ex)?|socket\.getaddrinfo|dns\.resolver\.(?:resolve|query))$/;
// Command-line tools that send what their arguments hold over the network.
const NETWORK_TOOL = /^(?:nslookup|dig|host|ping|curl|wget|nc|ncat|scp|rsync|ssh|ftp|telnet)$/;
const SERIALIZERS = /^(?:json\.dumps|json\.dump|dict|str|repr|list|pickle\.dumps|base64\.b64encode)$/;
// A quoted word naming a kind of secret, as a filter over environment variable names uses them.
const SECRET_ENV_WORD = /^(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|CREDENTIALS|AUTH|API|PRIVATE|API_KEY|ACCESS_KEY|SECRET_KEY)$/i;
const PIPE_TO_SHELL = /\b(?:curl|wget)\b[^|]*\|\s*(?:ba|z)?sh\b/;
const REVERSE_SHELL = /\/dev\/tcp\/|\bnc\s[^|]*-e\s/;
// A shell or command interpreter as a program (`/bin/sh`, `bash`, `cmd.exe`, `powershell`).
const SHELL_NAME = /^(?:.*[/\\])?(?:(?:ba|z|da|k|a|c|tc|fi)?sh|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)$/i;
// What a socket object is made by: a connection opened or accepted, or a file over one.
const SOCKET_MADE = /\bsocket\.(?:socket|create_connection)\s*\(|\.accept\s*\(|\.makefile\s*\(/;

/** Facts of a Python file from its syntax tree (@lezer/python). */
export function pythonFacts(text: string): ScriptFact[] {
  const src = new PythonSource(text);
  const facts: ScriptFact[] = [];
  const lineAt = lineLocator(text);
  const descriptions = pythonDescriptionRanges(src);
  const inDescription = (node: SyntaxNode) => descriptions.some(([from, to]) => node.from >= from && node.to <= to);
  const add = (kind: ScriptFact['kind'], node: SyntaxNode) => {
    facts.push({ kind, line: lineAt(node.from), evidence: text.slice(node.from, Math.min(node.to, node.from + 300)) });
  };
  const callsIn = (node: SyntaxNode, test: (name: string) => boolean): boolean => {
    let found = false;
    const cursor = node.cursor();
    do {
      if (cursor.name === 'CallExpression') {
        const name = src.qualify(cursor.node.firstChild);
        if (name !== null && test(name)) found = true;
      }
    } while (!found && cursor.next() && cursor.from < node.to);
    return found;
  };
  // (round s31) A helper of the file that decodes (`def _d(x): return base64.b64decode(x)`, a lambda, one
  // helper calling another): a call of it on constants decodes as the decoder does.
  const decodingHelper = (fn: SyntaxNode, depth = 0): boolean => {
    if (depth > 2) return false;
    let found = false;
    const cursor = fn.cursor();
    do {
      if (cursor.name !== 'CallExpression') continue;
      const name = src.qualify(cursor.node.firstChild);
      if (name !== null && HIDING_DECODE.test(name)) found = true;
      const inner = src.localFunction(cursor.node.firstChild);
      if (!found && inner !== undefined && inner.from !== fn.from && decodingHelper(inner, depth + 1)) found = true;
    } while (!found && cursor.next() && cursor.from < fn.to);
    return found;
  };
  const callsDecodingHelper = (node: SyntaxNode): boolean => {
    let found = false;
    const cursor = node.cursor();
    do {
      if (cursor.name !== 'CallExpression') continue;
      const fn = src.localFunction(cursor.node.firstChild);
      // A stage written in the file: every argument is a constant (data received and decoded is read as received).
      const args = fn === undefined ? [] : src.args(cursor.node);
      if (fn !== undefined && args.length > 0 && args.every((a) => src.fold(a.value) !== null) && decodingHelper(fn)) found = true;
    } while (!found && cursor.next() && cursor.from < node.to);
    return found;
  };
  // What a name holds, for `decoded = b64decode(x); exec(decoded)`: the call that made it.
  const through = (node: SyntaxNode, test: (name: string) => boolean, helpers = false): boolean => {
    let value: SyntaxNode | undefined = node;
    for (let i = 0; i < 3 && value; i++) {
      if (callsIn(value, test) || (helpers && callsDecodingHelper(value))) return true;
      value = value.name === 'VariableName' ? src.assignment(src.slice(value)) : undefined;
    }
    return false;
  };
  let socketUsed = false;
  let envIteration: SyntaxNode | null = null;
  let secretWords = 0;
  // Credential paths looked at for an identity use (bounded: a stealer's list of paths needs no such look).
  let secretPaths = 0;
  let dupUsed: SyntaxNode | null = null;
  // A shell whose standard streams are given a socket (`Popen(["/bin/sh", "-i"], stdin=s.fileno(), stdout=s.fileno())`).
  const streamShells: SyntaxNode[] = [];
  const secretPatterns: SyntaxNode[] = [];

  const cursor = src.tree.cursor();
  do {
    const node = cursor.node;
    if (node.name === 'String' || node.name === 'FormatString') {
      const value = src.slice(node);
      const unquoted = value.replace(/^[rRbBuUfF]*(['"]{1,3})|(['"]{1,3})$/g, '');
      // A path named in a docstring or description is text for the model or the user, not a file the code opens.
      const named = value.length < 500 && !inDescription(node);
      // A regular expression naming credential files (`re.compile(r"\.npmrc|id_rsa")` in a scanner) matches
      // paths in what it reads and opens none: it counts only in a file that also talks to the network, where
      // it may pick the files to send (in-sample: a supply-chain audit skill was BLOCKed, held-out set 16).
      if (named && SECRET_PATH_PATTERN.test(unquoted) && regexPattern(src, node, value)) {
        secretPatterns.push(node);
        continue;
      }
      if (SECRET_ENV_WORD.test(unquoted)) secretWords++;
      // A public key (`id_ed25519.pub`) is meant to be shown; a key only handed to ssh, scp or rsync as the
      // identity to log in with (`-i`, `rsync -e "ssh -i …"`, GIT_SSH_COMMAND, `key_filename=`) is used, not read out.
      if (named && SECRET_PATH_PATTERN.test(unquoted) && !/\.pub$/i.test(unquoted) && !(++secretPaths <= 20 && pythonIdentityOnly(src, node))) add('secret-path', node);
      else if (named && DOTENV_PATH_PATTERN.test(unquoted)) add('dotenv-path', node);
      if (REVERSE_SHELL.test(value)) add('reverse-shell', node);
      continue;
    }
    if (node.name === 'MemberExpression' && src.qualify(node) === 'os.environ') {
      const parent = node.parent;
      // `for k, v in os.environ.items()` / `for k in os.environ`: walking every variable.
      if (parent?.name === 'ForStatement' || parent?.parent?.parent?.name === 'ForStatement' || parent?.parent?.parent?.name === 'ComprehensionExpression' || parent?.name === 'ComprehensionExpression' || parent?.parent?.parent?.name === 'DictionaryComprehensionExpression') envIteration ??= node;
      const call = parent?.name === 'ArgList' ? parent.parent : null;
      const callee = call ? src.qualify(call.firstChild) : null;
      const member = parent?.name === 'MemberExpression' ? parent.getChild('PropertyName') : null;
      if ((callee !== null && SERIALIZERS.test(callee)) || (member && src.slice(member) === 'items' && parent?.parent?.name === 'CallExpression' && parent.parent.parent?.name !== 'ForStatement')) {
        add('env-dump', call ?? node);
      }
      continue;
    }
    if (node.name !== 'CallExpression') continue;
    const name = src.qualify(node.firstChild);
    if (name === null) continue;
    const args = src.args(node);
    const first = args.find((a) => a.keyword === null)?.value;
    if (NETWORK.test(name)) {
      add('network', node);
      const body = args.find((a) => a.keyword === 'json' || a.keyword === 'data')?.value;
      if (body && carriesSecretEnv(src, body)) add('secret-env-sent', node);
      if (DNS_LOOKUP.test(name) && first && carriesSecretEnv(src, first)) add('secret-env-dns', node);
      if (name === 'socket.socket' || name === 'socket.create_connection') socketUsed = true;
    }
    if (name === 'os.dup2') dupUsed ??= node;
    const shellKw = args.some((a) => a.keyword === 'shell' && src.slice(a.value) !== 'False');
    const shellish = SHELL_ALWAYS.test(name) || name === 'asyncio.create_subprocess_shell' || (SUBPROCESS.test(name) && shellKw);
    if (SHELL_ALWAYS.test(name) || SUBPROCESS.test(name)) {
      add('process', node);
      if (first && shellProgram(src, first) && args.some((a) => a.keyword !== null && /^std(?:in|out|err)$/.test(a.keyword) && socketStream(src, a.value))) streamShells.push(node);
      if (!first) continue;
      const command = src.fold(first);
      if (through(first, (n) => DECODE.test(n), true)) add('decoded-exec', node);
      else if (command !== null && PIPE_TO_SHELL.test(command)) add('download-exec', node);
      else if (command !== null && REVERSE_SHELL.test(command)) add('reverse-shell', node);
      else if (shellish && command === null) {
        const shape = pythonCommandShape(src, first);
        add(shape === 'template' ? 'shell-injection' : shape === 'quoted' ? 'shell-quoted' : 'shell-passthrough', node);
      }
      else if (first.name === 'ArrayExpression' || first.name === 'TupleExpression') {
        // ['bash', '-c', cmd]: a shell on whatever cmd holds.
        const items: SyntaxNode[] = [];
        for (let c = first.firstChild; c; c = c.nextSibling) if (!['[', ']', '(', ')', ','].includes(c.name)) items.push(c);
        const head = src.fold(items[0]);
        const flag = src.fold(items[1]);
        // ['nslookup', data + '.zone']: the tool is the network call.
        if (head !== null && NETWORK_TOOL.test(head.replace(/^.*\//, ''))) {
          add('network', node);
          if (/^(?:nslookup|dig|host|ping)$/.test(head.replace(/^.*\//, '')) && items.slice(1).some((item) => carriesSecretEnv(src, item))) add('secret-env-dns', node);
        }
        if (head !== null && /(?:^|\/)(?:ba|z|da)?sh$/.test(head) && flag === '-c' && items[2]) {
          const script = src.fold(items[2]);
          if (script === null) add('shell-injection', node);
          else if (PIPE_TO_SHELL.test(script)) add('download-exec', node);
        }
      }
      continue;
    }
    if (CODE_LOADER.test(name) && first && through(first, (n) => NETWORK.test(n))) {
      add('download-exec', node);
      continue;
    }
    if (EVAL.test(name) && first) {
      // A constant that takes decoding to read (`exec(b64decode(k))`) is hidden code, however well it folds.
      if (through(first, (n) => DECODE.test(n), true)) {
        add('decoded-exec', node);
        continue;
      }
      if (src.fold(first) !== null) continue;
      if (through(first, (n) => NETWORK.test(n))) add('download-exec', node);
      else add(fromInput(src, node, first) ? 'input-eval' : 'dynamic-eval', node);
    }
  } while (cursor.next());
  if (socketUsed && dupUsed) add('reverse-shell', dupUsed);
  // No dup2 needed: the process is started on the socket's descriptors. The evidence says so, for the
  // readers that want a reverse shell's shape in it (a helper "probe" thread started from main, s22-mcp).
  if (socketUsed) for (const node of streamShells.slice(0, 1)) facts.push({ kind: 'reverse-shell', line: lineAt(node.from), evidence: `${text.slice(node.from, Math.min(node.to, node.from + 240))} (standard streams on a socket)` });
  if (facts.some((f) => f.kind === 'network')) for (const node of secretPatterns) add('secret-path', node);
  // Walking the environment and keeping names like KEY, TOKEN, SECRET is collecting secrets, not configuration.
  if (envIteration && secretWords >= 2) add('env-dump', envIteration);
  facts.push(...pythonFlowFacts(src, { network: (n) => NETWORK.test(n), process: (n) => SHELL_ALWAYS.test(n) || SUBPROCESS.test(n) }, lineAt));
  // Credentials handed to a command that sends them (`subprocess.run(["gh", "gist", "create", *keys])`), read as
  // the command lines the process calls, copies and archive writes amount to.
  if (facts.some((f) => f.kind === 'process')) facts.push(...credentialUploads(pythonCommandLines(src, (n) => SHELL_ALWAYS.test(n) || SUBPROCESS.test(n), lineAt)));
  return facts;
}

// Regular-expression calls whose string arguments are patterns, not paths.
const REGEX_CALL = /^(?:re|regex)\.(?:compile|search|match|fullmatch|findall|finditer|sub|subn|split)$/;

/** True for a string that is a regular expression: an argument of a `re` call, or a raw string of escaped dots and alternatives. */
function regexPattern(src: PythonSource, node: SyntaxNode, value: string): boolean {
  const parent = node.parent;
  if (parent?.name === 'ArgList' && REGEX_CALL.test(src.qualify(parent.parent?.firstChild ?? null) ?? '')) return true;
  return /^[rR]/.test(value) && /\\\./.test(value) && /\|/.test(value);
}

const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;
const ENV_READ = /^(?:os\.getenv|os\.environ\.get|os\.environ\.__getitem__)$/;

/** True when a value reads, or names a variable assigned from, a secret-named environment variable. */
function carriesSecretEnv(src: PythonSource, body: SyntaxNode): boolean {
  const secretRead = (node: SyntaxNode | null | undefined): boolean => {
    if (!node) return false;
    let found = false;
    const cursor = node.cursor();
    do {
      const n = cursor.node;
      if (n.name === 'CallExpression' && ENV_READ.test(src.qualify(n.firstChild) ?? '')) {
        const arg = src.args(n)[0];
        if (arg && SECRET_ENV_NAME.test(src.fold(arg.value) ?? '')) found = true;
      } else if (n.name === 'MemberExpression' && /^os\.environ\s*\[/.test(src.slice(n)) && SECRET_ENV_NAME.test(src.slice(n))) found = true;
    } while (!found && cursor.next() && cursor.from < node.to);
    return found;
  };
  if (secretRead(body)) return true;
  let found = false;
  const cursor = body.cursor();
  do {
    if (cursor.name === 'VariableName' && secretRead(src.assignment(src.slice(cursor.node)))) found = true;
  } while (!found && cursor.next() && cursor.from < body.to);
  return found;
}

/** True when an evaluated value comes from input: a parameter of the enclosing function, `sys.argv`, `input()`. */
function fromInput(src: PythonSource, call: SyntaxNode, value: SyntaxNode): boolean {
  if (/\bsys\.argv\b|\binput\s*\(/.test(src.slice(value))) return true;
  let fn: SyntaxNode | null = call.parent;
  while (fn && fn.name !== 'FunctionDefinition') fn = fn.parent;
  const params = fn?.getChild('ParamList');
  if (!params) return false;
  const names = new Set<string>();
  for (let c = params.firstChild; c; c = c.nextSibling) if (c.name === 'VariableName') names.add(src.slice(c));
  let found = false;
  const cursor = value.cursor();
  do {
    if (cursor.name === 'VariableName' && names.has(src.slice(cursor.node))) found = true;
  } while (!found && cursor.next() && cursor.from < value.to);
  return found;
}

/** The program a process call starts is a shell: the command's first word, or a name assigned one (`shell = "/bin/sh" if … else "cmd.exe"`). */
function shellProgram(src: PythonSource, first: SyntaxNode): boolean {
  let head: SyntaxNode | null = first;
  if (first.name === 'ArrayExpression' || first.name === 'TupleExpression') {
    head = first.firstChild;
    while (head && ['[', '(', ','].includes(head.name)) head = head.nextSibling;
  }
  if (!head) return false;
  const folded = src.fold(head);
  if (folded !== null) return SHELL_NAME.test(folded.trim().split(/\s+/)[0] ?? '');
  if (head.name !== 'VariableName') return false;
  const value = src.assignment(src.slice(head));
  if (!value) return false;
  return [...src.slice(value).matchAll(/(['"])([^'"\n]{1,80})\1/g)].some((m) => SHELL_NAME.test((m[2] ?? '').trim().split(/\s+/)[0] ?? ''));
}

/** A standard-stream argument that is a socket: `s.fileno()` (not `sys.stdin.fileno()`), or a name a socket call made. */
function socketStream(src: PythonSource, value: SyntaxNode): boolean {
  const text = src.slice(value);
  const m = /^([A-Za-z_][\w.]*?)(?:\.fileno\s*\(\s*\))?$/.exec(text.trim());
  if (m === null || /^(?:sys|os|subprocess|asyncio)\b/.test(m[1]!)) return false;
  if (/\.fileno\s*\(/.test(text)) return true;
  const made = src.assignment(m[1]!);
  return made !== undefined && SOCKET_MADE.test(src.slice(made));
}
