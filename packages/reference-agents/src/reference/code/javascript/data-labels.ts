import { CLIPBOARD_READ, CREDENTIAL_PATH, IMAGE_PATH, IMAGE_READ, KEY_MATERIAL_NAME, SECRET_ENV_NAME, SIGNATURE_CALL, SIGNED_AWAY_LABELS, SIGNING_SECRET_ENV_NAME, type DataLabel } from '../code-facts.js';
import { CLI_CREDENTIAL_COMMAND } from '../cli-credential-commands.js';
import { isNetworkCallee } from './callee-kinds.js';
import { node, nodes, type N } from './estree.js';
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

/** The labels a call of a local function takes from what the function returns. */
const RETURNED_LABELS: ReadonlySet<DataLabel> = new Set<DataLabel>(['imagedata', 'decoded', 'filedata']);

/**
 * What data an expression carries (see `DataLabel`: environment, secrets, host information, network
 * channels, decoded text, …), from the labels its names were given and the calls that produce it.
 */
export class DataLabels {
  private readonly labels = new Map<string, Set<DataLabel>>();
  /** Keys (`Scopes.key`) of local functions that work character by character: hand-written decoders. */
  decoderNames = new Set<string>();

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

  /** Adds labels under a key (`returnKey`); true when it gained one. */
  addKey(key: string, s: Set<DataLabel>): boolean {
    if (s.size === 0) return false;
    const cur = this.labels.get(key) ?? new Set<DataLabel>();
    const before = cur.size;
    for (const l of s) cur.add(l);
    this.labels.set(key, cur);
    return cur.size !== before;
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
      case 'Identifier':
        add(this.labels.get(this.scopes.key(expr.name as string)) ?? []);
        if (r.qualify(expr) === 'process.env') out.add('env');
        // A variable or parameter named for key material (xrpl.js 2025 sent `privateKey` itself).
        if (KEY_MATERIAL_NAME.test(expr.name as string)) out.add('keymaterial');
        break;
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
          for (const l of this.of(node(expr.object), depth + 1)) if (l !== 'env' && l !== 'channel') out.add(l);
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
    // labels, only what the content is (decoded text, bytes revealed from an image). Channels and
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
    if (q !== undefined && CLIPBOARD_READ.test(q)) out.add('clipboard');
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
      if (q !== 'Buffer.from' || enc === 'base64' || enc === 'hex') out.add('decoded');
    }
    if (callee?.type === 'MemberExpression') {
      const objLabels = this.of(node(callee.object), depth + 1);
      // A database reference's child (`ref.child('x')`, `db.collection('y').doc()`) writes to the same remote store.
      for (const l of objLabels) if (l !== 'channel' || /^(then|child|ref|collection|doc)$/.test(r.propertyName(callee) ?? '')) out.add(l);
      if (objLabels.has('channel')) out.add('remote');
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
