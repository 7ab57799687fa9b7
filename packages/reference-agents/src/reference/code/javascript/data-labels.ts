import { CLIPBOARD_READ, CREDENTIAL_PATH, IMAGE_PATH, IMAGE_READ, KEY_MATERIAL_NAME, SECRET_ENV_NAME, SIGNATURE_CALL, SIGNED_AWAY_LABELS, SIGNING_SECRET_ENV_NAME, type DataLabel } from '../code-facts.js';
import { CLI_CREDENTIAL_COMMAND } from '../cli-credential-commands.js';
import { isNetworkCallee } from './callee-kinds.js';
import { childNodes, node, nodes, type N } from './estree.js';
import { argStrings } from './fold.js';
import type { Resolve } from './resolve.js';
import type { Scopes } from './scopes.js';

// The header a client names itself with.
const USER_AGENT_KEY = /^user[-_]?agent$/i;

/** The name of an object property's key (`'user-agent': …`, `userAgent: …`), or ''. */
function keyName(p: N): string {
  const key = node(p.key);
  if (key === undefined || p.computed === true) return '';
  return key.type === 'Identifier' ? String(key.name) : key.type === 'Literal' ? String(key.value) : '';
}

/** `os.homedir()`, `process.env.HOME`, `process.env.USERPROFILE`. */
function isHomeDir(r: Resolve, expr: N): boolean {
  const q = expr.type === 'CallExpression' ? r.qualify(node(expr.callee)) : r.qualify(expr);
  return expr.type === 'CallExpression' ? q === 'os.homedir' : q === 'process.env.HOME' || q === 'process.env.USERPROFILE';
}

/**
 * What a socket, server or response says about itself, not data it received: the addresses and ports it is
 * bound or connected to (`server.address().port`, `sock.remotePort`), byte counts, its state and an HTTP
 * status number. A free port found with `net.createServer().listen(0)` is not network data.
 */
const CHANNEL_METADATA_METHOD = /^(?:address|getConnections)$/;
const CHANNEL_METADATA_PROPERTY = /^(?:remoteAddress|remotePort|remoteFamily|localAddress|localPort|localFamily|bytesRead|bytesWritten|readyState|statusCode)$/;

/** Names of calls that make a socket or message client for the address they are given. */
const CLIENT_MAKER = /^(?:io|connect|socket|Socket|WebSocket|ReconnectingWebSocket|Client|createClient|createConnection|Manager|EventSource|SockJS|lookup)$/;

/** A call that makes a client for an address: a `ws://`/`wss://` one to any callee, an `http(s)://`/`tcp://` one to a client maker. */
function madeForAddress(callee: string, args: string[]): boolean {
  const last = callee.slice(callee.lastIndexOf('.') + 1);
  return args.some((a) => /^wss?:\/\/[^\s]+$/i.test(a) || (CLIENT_MAKER.test(last) && /^(?:https?|tcp):\/\/[^\s/]+/i.test(a)));
}

/** A `catch (e)` parameter: its clause's range, the scope chain there, and what it carries. */
interface CatchParam {
  start: number;
  end: number;
  chain: number[];
  /** The binding key the name has at the clause, read once every name is declared. */
  key?: string;
  labels: Set<DataLabel>;
  /** The nearest clause of the same name around this one, once sorted. */
  outer?: CatchParam;
}

/** The labels a call of a local function takes from what the function returns. */
const RETURNED_LABELS: ReadonlySet<DataLabel> = new Set<DataLabel>(['imagedata', 'decoded', 'filedata', 'pkgpath']);

/** Nodes of a callback's body searched for its `return`s at most. */
const MAX_CALLBACK_NODES = 2000;

/** What a callback gives back: its expression body, or the values of the `return`s of its block (not of functions inside). */
function callbackResults(fn: N): N[] {
  const body = node(fn.body);
  if (body === undefined) return [];
  if (body.type !== 'BlockStatement') return [body];
  const out: N[] = [];
  const stack: N[] = [body];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_CALLBACK_NODES) {
    const n = stack.pop()!;
    if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression' || n.type === 'ClassBody') continue;
    if (n.type === 'ReturnStatement') {
      const arg = node(n.argument);
      if (arg !== undefined) out.push(arg);
      continue;
    }
    stack.push(...childNodes(n));
  }
  return out;
}

/**
 * What data an expression carries (see `DataLabel`: environment, secrets, host information, network
 * channels, decoded text, …), from the labels its names were given and the calls that produce it.
 */
export class DataLabels {
  private readonly labels = new Map<string, Set<DataLabel>>();
  /** Keys (`Scopes.key`) of local functions that work character by character: hand-written decoders. */
  decoderNames = new Set<string>();
  /** `catch (e)` parameters by name, in source order once `sorted`; by the parameter's offset. */
  private readonly catchParams = new Map<string, CatchParam[]>();
  private readonly catchParamAt = new Map<number, CatchParam>();
  private sorted = true;

  constructor(
    private readonly text: string,
    private readonly r: Resolve,
    private readonly scopes: Scopes,
  ) {}

  /** Adds labels to a name's binding; true when it gained one. */
  add(name: string, s: Set<DataLabel>): boolean {
    if (s.size === 0) return false;
    const key = this.scopes.key(name);
    const cur = this.labels.get(key) ?? new Set<DataLabel>();
    const before = cur.size;
    for (const l of s) cur.add(l);
    this.labels.set(key, cur);
    return cur.size !== before;
  }

  /**
   * Declares a `catch (e)` parameter of a clause in scope `chain`. The name is not declared in the
   * function: what it carries is read within the clause only, at uses of the name that resolve as it
   * does at the clause (not in a function inside that declares it again).
   */
  declareCatchParam(param: N, clause: N, chain: number[]): void {
    const name = param.name as string;
    const entry: CatchParam = { start: clause.start, end: clause.end, chain, labels: new Set() };
    const list = this.catchParams.get(name) ?? [];
    list.push(entry);
    this.catchParams.set(name, list);
    this.catchParamAt.set(param.start, entry);
    this.sorted = false;
  }

  /** Adds labels to a declared `catch` parameter; true when it gained one. */
  addCatchParam(param: N, s: Set<DataLabel>): boolean {
    const entry = this.catchParamAt.get(param.start);
    if (entry === undefined) return false;
    const before = entry.labels.size;
    for (const l of s) entry.labels.add(l);
    return entry.labels.size !== before;
  }

  /** The innermost `catch` clause whose parameter a use of `name` at `at` (bound as `key`) is, if any. */
  private catchParamOf(name: string, at: number, key: string): CatchParam | undefined {
    const list = this.catchParams.get(name);
    if (list === undefined) return undefined;
    if (!this.sorted) this.sortCatchParams();
    // The last clause starting before the use, then the clauses around it.
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid]!.start <= at) lo = mid;
      else hi = mid - 1;
    }
    for (let c: CatchParam | undefined = list[lo]!.start <= at ? list[lo] : undefined; c !== undefined; c = c.outer) {
      // A function inside the clause that declares the name itself binds it to another key.
      if (at < c.end) {
        c.key ??= this.scopes.key(name, c.chain);
        return c.key === key ? c : undefined;
      }
    }
    return undefined;
  }

  private sortCatchParams(): void {
    for (const list of this.catchParams.values()) {
      list.sort((a, b) => a.start - b.start);
      const open: CatchParam[] = [];
      for (const c of list) {
        while (open.length > 0 && open[open.length - 1]!.end <= c.start) open.pop();
        c.outer = open[open.length - 1];
        open.push(c);
      }
    }
    this.sorted = true;
  }

  /** Adds labels under a key (`returnKey`); true when it gained one. */
  addKey(key: string, s: Set<DataLabel>): boolean {
    if (s.size === 0) return false;
    const cur = this.labels.get(key) ?? new Set<DataLabel>();
    const before = cur.size;
    for (const l of s) cur.add(l);
    this.labels.set(key, cur);
    return cur.size !== before;
  }

  /** All labels of what a named local function returns (channels and sources included), as seen from the current scope chain. */
  returned(name: string): Set<DataLabel> {
    return new Set(this.labels.get(this.returnKey(this.scopes.key(name))) ?? []);
  }

  /** The key under which the labels of what a named function (its binding key) returns are kept. */
  returnKey(functionKey: string): string {
    return `return\u0000${functionKey}`;
  }

  of(expr: N | undefined, depth = 0): Set<DataLabel> {
    const r = this.r;
    const out = new Set<DataLabel>();
    if (expr === undefined || depth > 20) return out;
    const add = (s: Iterable<DataLabel>) => {
      for (const l of s) out.add(l);
    };
    switch (expr.type) {
      case 'Identifier': {
        const key = this.scopes.key(expr.name as string);
        // Within a `catch (e)` clause `e` is the caught error, whatever else the function calls `e`.
        add(this.catchParamOf(expr.name as string, expr.start, key)?.labels ?? this.labels.get(key) ?? []);
        if (r.qualify(expr) === 'process.env') out.add('env');
        // A variable or parameter named for key material (xrpl.js 2025 sent `privateKey` itself).
        if (KEY_MATERIAL_NAME.test(expr.name as string)) out.add('keymaterial');
        break;
      }
      case 'MemberExpression': {
        const q = r.qualify(expr);
        if (q === 'process.env') out.add('env');
        else if (q?.startsWith('process.env.') === true) {
          if (SECRET_ENV_NAME.test(q.slice('process.env.'.length))) out.add('envtoken');
          // A signing secret (`process.env.PRIVATE_KEY`, `AWS_SECRET_ACCESS_KEY`) is key material: it never travels.
          if (SIGNING_SECRET_ENV_NAME.test(q.slice('process.env.'.length))) out.add('keymaterial');
        } else {
          const prop = r.propertyName(expr);
          if (prop !== undefined && KEY_MATERIAL_NAME.test(prop)) out.add('keymaterial');
          const metadata = prop !== undefined && CHANNEL_METADATA_PROPERTY.test(prop);
          for (const l of this.of(node(expr.object), depth + 1)) if (l !== 'env' && l !== 'channel' && !(metadata && l === 'remote')) out.add(l);
          if (q === 'process.env.?') out.add('env');
        }
        break;
      }
      case 'CallExpression':
      case 'NewExpression':
        add(this.ofCall(expr, depth));
        break;
      case 'AwaitExpression':
      case 'SpreadElement':
      case 'ChainExpression':
      case 'ParenthesizedExpression':
      case 'UnaryExpression':
        add(this.of(node(expr.argument ?? expr.expression), depth + 1));
        break;
      case 'TemplateLiteral':
        for (const e of nodes(expr.expressions)) add(this.of(e, depth + 1));
        // `${os.homedir()}/.node-cache`: a dot-folder of the home directory.
        {
          const first = nodes(expr.expressions)[0];
          const after = (nodes(expr.quasis)[1]?.value as { cooked?: string } | undefined)?.cooked ?? '';
          if (first !== undefined && isHomeDir(r, first) && /^[\\/]\.[\w-]/.test(after)) out.add('hiddenhome');
        }
        break;
      case 'BinaryExpression':
      case 'LogicalExpression':
        add(this.of(node(expr.left), depth + 1));
        add(this.of(node(expr.right), depth + 1));
        break;
      case 'ConditionalExpression':
        add(this.of(node(expr.consequent), depth + 1));
        add(this.of(node(expr.alternate), depth + 1));
        break;
      case 'ArrayExpression':
        for (const e of nodes(expr.elements)) add(this.of(e, depth + 1));
        break;
      case 'ObjectExpression':
        for (const p of nodes(expr.properties)) {
          const labels = this.of(p.type === 'SpreadElement' ? p : node(p.value), depth + 1);
          // `headers: { 'user-agent': ua }`: the host name a client puts in the header it names itself with.
          if (p.type === 'Property' && USER_AGENT_KEY.test(keyName(p)) && labels.delete('hostinfo')) labels.add('uahost');
          add(labels);
        }
        break;
      case 'AssignmentExpression':
        add(this.of(node(expr.right), depth + 1));
        break;
      case 'SequenceExpression':
        for (const e of nodes(expr.expressions)) add(this.of(e, depth + 1));
        break;
      default:
        break;
    }
    return out;
  }

  /** The labels of what a call returns: its source (a network call, a credential read, …) and what its receiver and arguments carry. */
  private ofCall(expr: N, depth: number): Set<DataLabel> {
    const r = this.r;
    const out = new Set<DataLabel>();
    const add = (s: Iterable<DataLabel>) => {
      for (const l of s) out.add(l);
    };
    const callee = node(expr.callee);
    const q = r.qualify(callee);
    const args = nodes(expr.arguments);
    if (q !== undefined && /^os\.(hostname|userInfo|networkInterfaces)$/.test(q)) out.add('hostinfo');
    // A local function's call carries what the function returns (read by `resolveBindings`): of its
    // labels, only what the content is (decoded text, bytes revealed from an image) or a path into another
    // package (a helper that finds `node_modules/<dep>`). Channels and
    // sources are kept to the function, since a returned object mixes them with plain values
    // (`return { socketPath, server }` would make the path a channel).
    if (callee?.type === 'Identifier') for (const l of this.labels.get(this.returnKey(this.scopes.key(callee.name as string))) ?? []) if (RETURNED_LABELS.has(l)) out.add(l);
    // A local character decoder applied to constants yields decoded text (`rot13('…')`, `g('72657175697265')`).
    if (callee?.type === 'Identifier' && this.decoderNames.has(this.scopes.key(callee.name as string)) && args.length > 0 && args.every((a) => r.fold(a) !== undefined || (a.type === 'ArrayExpression' && nodes(a.elements).every((e) => e.type === 'Literal')))) out.add('decoded');
    const reads = q !== undefined && /^(fs|fs\.promises)\.(readFileSync|readFile|createReadStream|readdirSync|readdir|copyFileSync)$/.test(q);
    // A file's content read at run time: a payload the package ships as data (an image, a font, a .dat) enters here.
    const content = q !== undefined && /^(?:fs|fs\.promises|fs\/promises|node:fs|node:fs\/promises)\.(?:readFileSync|readFile)$/.test(q);
    const prop = callee?.type === 'MemberExpression' ? r.propertyName(callee) : undefined;
    // `buf.lastIndexOf('IEND')`, `data.indexOf(Buffer.from('<meta:'))`: a search for a marker of three or more characters (not `=` or `:`).
    const marker = /^(?:indexOf|lastIndexOf)$/.test(prop ?? '') ? (r.fold(args[0]) ?? (args[0]?.type === 'CallExpression' && r.qualify(node(args[0].callee)) === 'Buffer.from' ? r.fold(nodes(args[0].arguments)[0]) : undefined)) : undefined;
    if (reads && argStrings(r, args).some((s) => CREDENTIAL_PATH.test(s))) out.add('secret');
    // A command that prints a CLI's stored token (`execSync('gh auth token')`, or a local `run(cmd)` given it): its output is the token.
    // `execFileSync('gh', ['auth', 'token'])` reads as one command line.
    if (args.length > 0 && CLI_CREDENTIAL_COMMAND.test(args.map((a) => r.fold(a) ?? (a.type === 'ArrayExpression' ? nodes(a.elements).map((e) => r.fold(e) ?? '?').join(' ') : '?')).join(' '))) out.add('secret');
    if (q !== undefined && /^path\.(join|resolve|posix\.join|win32\.join)$/.test(q) && (argStrings(r, args).some((s) => CREDENTIAL_PATH.test(s) || /^(Local Storage|leveldb|Login Data|Cookies|Local Extension Settings)$/.test(s)) || CREDENTIAL_PATH.test(argStrings(r, args).join('/')))) out.add('credpath');
    if (q !== undefined && isNetworkCallee(q)) {
      out.add('remote');
      out.add('channel');
    }
    // `io('http://203.0.113.7:4040')`, `new Client('wss://…')`, `connect(url)`: a client made for an address is a
    // channel, whatever module it was loaded from (a socket client installed at run time has no module name to read).
    if (!out.has('channel') && args.length > 0 && madeForAddress(q ?? (callee?.type === 'Identifier' ? (callee.name as string) : ''), args.map((a) => r.fold(a) ?? ''))) out.add('channel');
    if (q !== undefined && CLIPBOARD_READ.test(q)) out.add('clipboard');
    // `path.join(os.homedir(), '.node-cache', …)`: a folder of the home directory that `ls ~` does not show.
    if (q !== undefined && /^path\.(?:join|resolve|posix\.join)$/.test(q) && args.length >= 2 && isHomeDir(r, args[0]!) && /^\.[\w-]/.test(r.fold(args[1]) ?? '')) out.add('hiddenhome');
    // `buf.subarray(buf.lastIndexOf('IEND') + 8)`: bytes cut out after a marker ride inside an asset.
    if (callee?.type === 'MemberExpression' && /^(slice|subarray)$/.test(r.propertyName(callee) ?? '') && /\b(?:lastIndexOf|indexOf)\(\s*(?:['"`]|Buffer\.from\()/.test(this.text.slice(expr.start as number, expr.end as number))) out.add('imagedata');
    // …or the offset found first and kept in a name (`const at = buf.lastIndexOf('IEND'); buf.slice(at + 8)`), cutting a file's content.
    if (callee?.type === 'MemberExpression' && /^(slice|subarray)$/.test(prop ?? '') && args.some((a) => this.of(a, depth + 1).has('markeroffset')) && this.of(node(callee.object), depth + 1).has('filedata')) out.add('imagedata');
    if (q !== undefined && (/^(steggy|stegcloak)(\.|$)/.test(q) || (IMAGE_READ.test(q) && argStrings(r, args).some((s) => IMAGE_PATH.test(s.trim()))))) out.add('imagedata');
    // `require.resolve('other/lib')`, `path.join(root, 'node_modules', 'other')`: a file of another installed package.
    if (q === 'require.resolve' && /^[^./]/.test(r.fold(args[0]) ?? '.')) out.add('pkgpath');
    if (q !== undefined && /^path\.(join|resolve)$/.test(q) && argStrings(r, args).some((s) => /(^|[\\/])node_modules([\\/]|$)/.test(s)) && !argStrings(r, args).some((s) => /(^|[\\/])\.(cache|bin|vite|tmp)([\\/]|$)/.test(s))) out.add('pkgpath');
    if (q === 'atob' || q === 'String.fromCharCode' || q === 'Buffer.from' || q === 'decodeURIComponent') {
      const enc = args[1] === undefined ? undefined : r.fold(args[1]);
      // Percent-decoding a value the program receives at run time (a cookie, a URL's user name: axios's
      // fetch adapter) recovers data, not a name hidden in the program; percent-encoded text written in
      // the program, text already decoded, or a file's content (a file the package ships) is hidden.
      const hidden = q !== 'decodeURIComponent' || (args[0] !== undefined && (r.fold(args[0]) !== undefined || [...this.of(args[0], depth + 1)].some((l) => l === 'decoded' || l === 'filedata')));
      if ((q !== 'Buffer.from' || enc === 'base64' || enc === 'hex') && hidden) out.add('decoded');
    }
    if (callee?.type === 'MemberExpression') {
      const objLabels = this.of(node(callee.object), depth + 1);
      const metadata = CHANNEL_METADATA_METHOD.test(prop ?? '');
      // A database reference's child (`ref.child('x')`, `db.collection('y').doc()`) writes to the same remote store.
      for (const l of objLabels) if ((l !== 'channel' || /^(then|child|ref|collection|doc)$/.test(r.propertyName(callee) ?? '')) && !(metadata && l === 'remote')) out.add(l);
      if (objLabels.has('channel') && !metadata) out.add('remote');
      // `list.map((f) => path.join(dir, f))`: the new array holds what the callback returns (read in the callback's scope).
      const mapper = args[0];
      if (/^(?:map|flatMap)$/.test(r.propertyName(callee) ?? '') && (mapper?.type === 'ArrowFunctionExpression' || mapper?.type === 'FunctionExpression')) {
        const saved = this.scopes.chain;
        this.scopes.chain = [mapper.start, ...saved];
        try {
          for (const e of callbackResults(mapper)) for (const l of this.of(e, depth + 1)) if (l !== 'channel') out.add(l);
        } finally {
          this.scopes.chain = saved;
        }
      }
    }
    const argLabelSet = new Set<DataLabel>();
    for (const a of args) if (a.type !== 'FunctionExpression' && a.type !== 'ArrowFunctionExpression') for (const l of this.of(a, depth + 1)) argLabelSet.add(l);
    // Reading from a credential path yields the credential; joining onto one stays a path.
    // A file's content is not a path: reading another package's manifest does not make its text a place to write.
    if (reads) argLabelSet.delete('pkgpath');
    if (argLabelSet.delete('credpath')) {
      if (reads) out.add('secret');
      else if (q !== undefined && /^path\./.test(q)) out.add('credpath');
    }
    // The offset is a number, not data: only the search that finds it carries it.
    argLabelSet.delete('markeroffset');
    out.delete('markeroffset');
    if (content) out.add('filedata');
    if (marker !== undefined && marker.length >= 3) out.add('markeroffset');
    add(argLabelSet);
    // A signature or digest of a key (`createHmac('sha256', secret).update(p).digest('hex')`, `sign(secret, p)`) is not the key.
    const called = callee?.type === 'Identifier' ? (callee.name as string) : callee?.type === 'MemberExpression' ? r.propertyName(callee) : undefined;
    if (called !== undefined && SIGNATURE_CALL.test(called) && !/^(?:assign|design|consign|resign|signal)/i.test(called)) for (const l of SIGNED_AWAY_LABELS) out.delete(l);
    return out;
  }
}
