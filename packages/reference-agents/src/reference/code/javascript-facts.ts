import { fullAncestor } from 'acorn-walk';
import type { Node as AcornNode } from 'acorn';
import { CLIPBOARD_READ, CREDENTIAL_PATH, IMAGE_PATH, IMAGE_READ, KEY_MATERIAL_NAME, REFLECTED_API, clockOrChanceGate, SECRET_ENV_NAME, SENSITIVE_NAMES, emptyFacts, type CallFact, type CodeFacts, type DataLabel } from './code-facts.js';
import { lineIndex } from './line-index.js';
import { parseJavaScript } from './parse-javascript.js';

/** ESTree nodes read generically: the analysis touches a few fields of many node types. */
interface N {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const node = (value: unknown): N | undefined => (typeof value === 'object' && value !== null && typeof (value as N).type === 'string' ? (value as N) : undefined);
const nodes = (value: unknown): N[] => (Array.isArray(value) ? value.map(node).filter((n): n is N => n !== undefined) : []);

/** Objects that stand for the global scope: `globalThis.fetch` is `fetch`. */
const GLOBAL_ROOTS = new Set(['globalThis', 'global', 'window', 'self', 'top', 'parent', 'frames']);
const NETWORK_MODULES = ['http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'dns/promises', 'axios', 'node-fetch', 'got', 'request', 'undici', 'superagent', 'needle', 'ws', 'cross-fetch', 'isomorphic-fetch', 'phin', 'bent', 'socket.io-client', 'engine.io-client', 'mqtt', 'nodemailer', 'emailjs', 'firebase', 'firebase-admin'];
const NETWORK_GLOBALS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'navigator.sendBeacon', 'EventSource', '$.ajax', '$.post', '$.get', 'jQuery.ajax']);
const CHANNEL_METHODS = new Set(['write', 'end', 'send', 'post', 'put', 'emit', 'open', 'sendto', 'sendMail', 'push', 'set', 'update']);

/** True when the resolved callee sends or receives over the network. */
// File writes and removals whose target path is worth following from the file's own location.
const FILE_PATH_CALLEE = /^(fs|fs\.promises)\.(writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|renameSync|rename|unlinkSync|unlink|rmSync|rm)$/;

function withPath(path: string | undefined): { argPath?: string } {
  return path === undefined ? {} : { argPath: path };
}

export function isNetworkCallee(callee: string): boolean {
  if (NETWORK_GLOBALS.has(callee)) return true;
  return NETWORK_MODULES.some((m) => callee === m || callee.startsWith(`${m}.`));
}

const MAX_FOLD = 64 * 1024;
/** A clock read or a random draw anywhere in the text: the only files where a call can be gated on one. */
const CLOCK_OR_CHANCE_HINT = /\bDate\b|\bget(?:UTC)?(?:Date|Day|Month|FullYear|Hours)\(|\brandom(?:Int)?\(/;
/** Calls a time bomb or a sabotage by chance makes: file deletion, truncation and writes, processes, exits. */
const GATED_SINK = /^(fs|fs\.promises)\.(rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|truncate|truncateSync|writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|copyFileSync|renameSync)$|^rimraf|^(child_process\.|execa|cross-spawn|shelljs\.exec|spawn|spawnSync|execSync|execFile|execFileSync)|^process\.(kill|exit)$/;
const STRING_ARG_CALLEE = /^(child_process|fs|path|os|shelljs|execa|cross-spawn|Bun|require|module)(\.|$)|spawn|exec|write|append|copy|unlink|chmod|createElement|\brm/;

/**
 * The facts of one JavaScript or TypeScript file (see code-facts.ts). Never executes anything: it parses with
 * acorn (loose as a fallback) and walks the tree.
 */
/**
 * Node APIs whose replacement (monkey-patching) intercepts what other code sends, reads or runs:
 * request functions of the network modules, process spawning, credential-bearing crypto, and the
 * prototype methods of their request classes (`http.ClientRequest.prototype.write`).
 */
const NODE_HOOKABLE = /^(?:(?:node:)?(?:https?|http2|net|tls|dns|child_process)\.(?:request|get|connect|createConnection|lookup|resolve\w*|exec|execSync|execFile|spawn|spawnSync|fork)|(?:node:)?https?\.(?:ClientRequest|Agent)\.prototype\.\w+|(?:node:)?crypto\.(?:createCipheriv|createSign|privateDecrypt|createPrivateKey))$/;
const FUNCTION_VALUE = new Set(['FunctionExpression', 'ArrowFunctionExpression', 'Identifier', 'CallExpression']);

export function javascriptFacts(text: string, options: { typescript?: boolean } = {}): CodeFacts {
  const facts = emptyFacts('javascript');
  const parsed = parseJavaScript(text, options.typescript === true);
  if (parsed === null) return facts;
  facts.parse = parsed.mode;
  const program = parsed.program as unknown as N;
  const lineOf = lineIndex(text);

  // Names are resolved per function scope (minified code reuses one-letter names everywhere):
  // a binding belongs to the innermost enclosing function that declares the name, else the module.
  const declared = new Map<number, Set<string>>();
  let chain: number[] = [0];
  const declare = (scope: number, name: string) => {
    const set = declared.get(scope) ?? new Set<string>();
    set.add(name);
    declared.set(scope, set);
  };
  const scopeKey = (name: string, at: number[] = chain) => `${at.find((s) => declared.get(s)?.has(name) === true) ?? 0}\u0000${name}`;
  const aliases = new Map<string, string>();
  const constants = new Map<string, string>();
  const labels = new Map<string, Set<DataLabel>>();
  const decodedConstants = new Set<string>();

  /** Folds an expression to a constant string; `decoded` is set when decoding was needed. */
  function fold(expr: N | undefined, state: { decoded: boolean } = { decoded: false }, depth = 0): string | undefined {
    if (expr === undefined || depth > 24) return undefined;
    switch (expr.type) {
      case 'Literal':
        return typeof expr.value === 'string' || typeof expr.value === 'number' ? String(expr.value) : undefined;
      case 'TemplateLiteral': {
        const quasis = nodes(expr.quasis);
        const exprs = nodes(expr.expressions);
        let out = '';
        for (let i = 0; i < quasis.length; i++) {
          const cooked = (quasis[i]!.value as { cooked?: string | null }).cooked;
          if (typeof cooked !== 'string') return undefined;
          out += cooked;
          if (i < exprs.length) {
            const part = fold(exprs[i], state, depth + 1);
            if (part === undefined) return undefined;
            out += part;
          }
        }
        return out;
      }
      case 'BinaryExpression': {
        if (expr.operator !== '+') return undefined;
        const l = fold(node(expr.left), state, depth + 1);
        if (l === undefined) return undefined;
        const r = fold(node(expr.right), state, depth + 1);
        return r === undefined || l.length + r.length > MAX_FOLD ? undefined : l + r;
      }
      case 'Identifier': {
        const key = scopeKey(expr.name as string);
        const value = constants.get(key);
        if (value !== undefined && decodedConstants.has(key)) state.decoded = true;
        return value;
      }
      case 'ParenthesizedExpression':
        return fold(node(expr.expression), state, depth + 1);
      case 'CallExpression':
        return foldCall(expr, state, depth);
      default:
        return undefined;
    }
  }

  function foldArray(expr: N | undefined, state: { decoded: boolean }, depth: number): string[] | undefined {
    if (expr === undefined || depth > 24) return undefined;
    if (expr.type === 'ArrayExpression') {
      const out: string[] = [];
      for (const el of nodes(expr.elements)) {
        const v = fold(el, state, depth + 1);
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    if (expr.type === 'CallExpression') {
      const callee = node(expr.callee);
      if (callee?.type !== 'MemberExpression') return undefined;
      const method = propertyName(callee);
      const args = nodes(expr.arguments);
      if (method === 'split') {
        const s = fold(node(callee.object), state, depth + 1);
        const sep = args[0] === undefined ? undefined : fold(args[0], state, depth + 1);
        if (s === undefined || sep === undefined) return undefined;
        return s.split(sep);
      }
      if (method === 'reverse') {
        const a = foldArray(node(callee.object), state, depth + 1);
        state.decoded = true;
        return a?.reverse();
      }
    }
    return undefined;
  }

  function foldCall(expr: N, state: { decoded: boolean }, depth: number): string | undefined {
    const callee = node(expr.callee);
    const args = nodes(expr.arguments);
    if (callee === undefined) return undefined;
    const name = qualify(callee);
    if (name === 'String.fromCharCode') {
      let out = '';
      for (const a of args) {
        const v = fold(a, state, depth + 1);
        const n = v === undefined ? NaN : Number(v);
        if (!Number.isInteger(n) || n < 0 || n > 0x10ffff) return undefined;
        out += String.fromCodePoint(n);
      }
      state.decoded = true;
      return out;
    }
    if (name === 'atob' || name === 'decodeURIComponent' || name === 'unescape') {
      const v = fold(args[0], state, depth + 1);
      if (v === undefined) return undefined;
      state.decoded = true;
      try {
        return name === 'atob' ? Buffer.from(v, 'base64').toString('latin1') : name === 'unescape' ? unescape(v) : decodeURIComponent(v);
      } catch {
        return undefined;
      }
    }
    if (name === 'Buffer.from' && args.length === 1 && args[0]!.type === 'ArrayExpression') {
      const codes = nodes(args[0]!.elements).map((e) => (e.type === 'Literal' && typeof e.value === 'number' ? e.value : NaN));
      if (codes.length === 0 || codes.some((c) => !Number.isInteger(c) || c < 0 || c > 255)) return undefined;
      state.decoded = true;
      return Buffer.from(codes).toString('latin1');
    }
    if (name === 'Buffer.from' && args.length === 2) {
      const data = fold(args[0], state, depth + 1);
      const encoding = fold(args[1], state, depth + 1);
      if (data === undefined || (encoding !== 'base64' && encoding !== 'hex' && encoding !== 'base64url')) return undefined;
      state.decoded = true;
      return Buffer.from(data, encoding).toString('utf8');
    }
    if (callee.type !== 'MemberExpression') return undefined;
    const method = propertyName(callee);
    const target = node(callee.object);
    // `Object.keys(cp).find((k) => k === 'spawn')` is the constant it searches for.
    const search = keySearch(expr);
    if (search !== undefined && search.source !== 'entries' && method === 'find') return search.name;
    if (method === 'join') {
      const parts = foldArray(target, state, depth + 1);
      const sep = args[0] === undefined ? ',' : fold(args[0], state, depth + 1);
      return parts === undefined || sep === undefined ? undefined : parts.join(sep);
    }
    if (method === 'toString' && target?.type === 'CallExpression' && qualify(node(target.callee)) === 'Buffer.from' && nodes(target.arguments)[0]?.type !== 'ArrayExpression') {
      const inner = nodes(target.arguments);
      const data = fold(inner[0], state, depth + 1);
      const encoding = inner[1] === undefined ? 'utf8' : fold(inner[1], state, depth + 1);
      if (data === undefined || (encoding !== 'base64' && encoding !== 'hex' && encoding !== 'utf8' && encoding !== 'base64url')) return undefined;
      if (encoding !== 'utf8') state.decoded = true;
      return Buffer.from(data, encoding).toString('utf8');
    }
    if ((method === 'toString' || method === 'trim' || method === 'toLowerCase') && target !== undefined && (args.length === 0 || /^(utf-?8|ascii|latin1)$/i.test(fold(args[0]) ?? ''))) {
      const v = fold(target, state, depth + 1);
      return v === undefined ? undefined : method === 'trim' ? v.trim() : method === 'toLowerCase' ? v.toLowerCase() : v;
    }
    if (method === 'replace' && target !== undefined && args.length === 2 && args[0]?.type === 'Literal' && typeof args[0].value === 'string') {
      const v = fold(target, state, depth + 1);
      const to = fold(args[1], state, depth + 1);
      return v === undefined || to === undefined ? undefined : v.split(args[0].value).join(to);
    }
    return undefined;
  }

  /** A resolved function whose `.call`/`.apply`/`.bind` is a call of the function itself. */
  function callsThrough(base: string): boolean {
    return base.includes('.') && (SENSITIVE_NAMES.has(base.slice(base.lastIndexOf('.') + 1)) || REFLECTED_API.test(base) || isNetworkCallee(base));
  }

  /**
   * `Object.keys(x).find((k) => k === 'name')`, `Object.getOwnPropertyNames(x).find(…)`,
   * `Object.entries(x).find(([k]) => k === 'name')` / `.filter(…)`: a search of an object's keys
   * for one constant name, which is a way of writing `x.name` without the name as a property.
   */
  function keySearch(call: N): { source: 'keys' | 'entries'; method: string; target: N; name: string } | undefined {
    const callee = node(call.callee);
    if (callee?.type !== 'MemberExpression') return undefined;
    const method = propertyName(callee);
    if (method !== 'find' && method !== 'filter') return undefined;
    const list = node(callee.object);
    if (list?.type !== 'CallExpression') return undefined;
    const lister = qualify(node(list.callee));
    const source = lister === 'Object.entries' ? 'entries' : lister === 'Object.keys' || lister === 'Object.getOwnPropertyNames' || lister === 'Reflect.ownKeys' ? 'keys' : undefined;
    const target = nodes(list.arguments)[0];
    const cb = nodes(call.arguments)[0];
    if (source === undefined || target === undefined || (cb?.type !== 'ArrowFunctionExpression' && cb?.type !== 'FunctionExpression')) return undefined;
    const param = nodes(cb.params)[0];
    const key = param?.type === 'Identifier' ? param : param?.type === 'ArrayPattern' ? nodes(param.elements)[0] : undefined;
    if (key?.type !== 'Identifier') return undefined;
    let body = node(cb.body);
    if (body?.type === 'BlockStatement') {
      const stmts = nodes(body.body);
      body = stmts.length === 1 && stmts[0]!.type === 'ReturnStatement' ? node(stmts[0]!.argument) : undefined;
    }
    if (body?.type !== 'BinaryExpression' || (body.operator !== '===' && body.operator !== '==')) return undefined;
    const [l, r] = [node(body.left), node(body.right)];
    const other = l?.type === 'Identifier' && l.name === key.name ? r : r?.type === 'Identifier' && r.name === key.name ? l : undefined;
    const name = other === undefined || other.type === 'Identifier' && other.name === key.name ? undefined : fold(other);
    return name === undefined ? undefined : { source, method, target, name };
  }

  /**
   * How a callee reaches its function when it does so indirectly: a constant computed member
   * (`cp['spawn']`, `cp[name]`), reflection (`Reflect.get`, a property descriptor's `value`), a key
   * search, possibly behind `.call`/`.apply`/`.bind(…)`. Undefined for a plain `a.b` or `f`.
   */
  function indirection(callee: N | undefined, depth = 0): string | undefined {
    if (callee === undefined || depth > 8) return undefined;
    if (callee.type === 'ParenthesizedExpression' || callee.type === 'ChainExpression') return indirection(node(callee.expression), depth + 1);
    if (callee.type === 'CallExpression') {
      const fn = node(callee.callee);
      if (qualify(fn) === 'Reflect.get') return 'Reflect.get';
      if (fn?.type === 'MemberExpression' && propertyName(fn) === 'bind') return indirection(node(fn.object), depth + 1);
      return undefined;
    }
    if (callee.type !== 'MemberExpression') return undefined;
    const obj = node(callee.object);
    const prop = propertyName(callee);
    if (callee.computed !== true) {
      if (prop === 'call' || prop === 'apply') return indirection(obj, depth + 1);
      if (prop === 'value' && obj?.type === 'CallExpression' && qualify(node(obj.callee)) === 'Object.getOwnPropertyDescriptor') return 'property descriptor';
      return undefined;
    }
    const key = node(callee.property);
    if (key?.type === 'CallExpression' && keySearch(key) !== undefined) return 'key search';
    if (prop === '1' && obj !== undefined && (obj.type === 'CallExpression' || obj.type === 'MemberExpression')) return 'key search';
    return prop === undefined ? undefined : 'computed member';
  }

  function propertyName(member: N): string | undefined {
    const prop = node(member.property);
    if (prop === undefined) return undefined;
    if (member.computed !== true) return prop.type === 'Identifier' ? (prop.name as string) : prop.type === 'PrivateIdentifier' ? `#${prop.name as string}` : undefined;
    return fold(prop);
  }

  function moduleName(spec: string): string {
    const bare = spec.startsWith('node:') ? spec.slice(5) : spec;
    return bare === 'fs/promises' ? 'fs.promises' : bare === 'dns/promises' ? 'dns' : bare;
  }

  /** The dotted name an expression stands for (`child_process.exec`), or undefined. */
  function qualify(expr: N | undefined, depth = 0): string | undefined {
    if (expr === undefined || depth > 16) return undefined;
    switch (expr.type) {
      case 'Identifier': {
        const name = expr.name as string;
        return aliases.get(scopeKey(name)) ?? name;
      }
      case 'ThisExpression':
        return 'this';
      case 'ParenthesizedExpression':
        return qualify(node(expr.expression), depth + 1);
      case 'ChainExpression':
        return qualify(node(expr.expression), depth + 1);
      // `(0, Function)(…)`, `(0, eval)(…)`: the comma operator yields its last operand (minifiers' indirect call).
      case 'SequenceExpression': {
        const last = nodes(expr.expressions).at(-1);
        return last === undefined ? undefined : qualify(last, depth + 1);
      }
      case 'MemberExpression': {
        const base = qualify(node(expr.object), depth + 1);
        const prop = propertyName(expr) ?? '?';
        // `Object.getOwnPropertyDescriptor(cp, 'spawn').value` is `cp.spawn`; `cp.spawn.call(…)`/`.apply(…)` call `cp.spawn`.
        const obj = node(expr.object);
        if (prop === 'value' && obj?.type === 'CallExpression' && qualify(node(obj.callee), depth + 1) === 'Object.getOwnPropertyDescriptor') {
          const [o, key] = nodes(obj.arguments);
          const b = qualify(o, depth + 1);
          const name = fold(key);
          if (b !== undefined && name !== undefined) return `${b}.${name}`;
        }
        // `Object.entries(cp).find(([k]) => k === 'spawn')[1]`, `….filter(([k]) => k === 'spawn')[0][1]` are `cp.spawn`.
        if (prop === '1' && obj !== undefined) {
          const found = obj.type === 'CallExpression' ? keySearch(obj) : obj.type === 'MemberExpression' && propertyName(obj) === '0' && node(obj.object)?.type === 'CallExpression' ? keySearch(node(obj.object)!) : undefined;
          if (found !== undefined && found.source === 'entries' && (found.method === 'find') === (obj.type === 'CallExpression')) {
            const b = qualify(found.target, depth + 1);
            if (b !== undefined) return `${b}.${found.name}`;
          }
        }
        if (base === undefined) return `?.${prop}`;
        if (GLOBAL_ROOTS.has(base)) return aliases.get(`0\u0000${prop}`) ?? prop;
        if (prop === 'constructor' && (base.endsWith('.constructor') || base === 'Function')) return 'Function';
        if (base === 'process.mainModule' && prop === 'require') return 'require';
        if (base === 'module' && prop === 'require') return 'require';
        if ((prop === 'call' || prop === 'apply') && callsThrough(base)) return base;
        return `${base}.${prop}`;
      }
      case 'CallExpression': {
        const callee = qualify(node(expr.callee), depth + 1);
        // `Reflect.get(cp, 'spawn')` is `cp.spawn`.
        if (callee === 'Reflect.get') {
          const [obj, key] = nodes(expr.arguments);
          const base = qualify(obj, depth + 1);
          const name = fold(key);
          return base === undefined || name === undefined ? undefined : `${base}.${name}`;
        }
        // `cp.spawn.bind(null, …)` is `cp.spawn` (called later as `….bind(…)()`).
        const fn = node(expr.callee);
        if (fn?.type === 'MemberExpression' && propertyName(fn) === 'bind') {
          const bound = qualify(node(fn.object), depth + 1);
          if (bound !== undefined && callsThrough(bound)) return bound;
        }
        if (callee === 'require' || callee === 'module.require') {
          const spec = fold(nodes(expr.arguments)[0]);
          return spec === undefined ? undefined : moduleName(spec);
        }
        return undefined;
      }
      case 'ImportExpression': {
        const spec = fold(node(expr.source));
        return spec === undefined ? undefined : moduleName(spec);
      }
      case 'AwaitExpression':
        return qualify(node(expr.argument), depth + 1);
      default:
        return undefined;
    }
  }

  function labelsOf(expr: N | undefined, depth = 0): Set<DataLabel> {
    const out = new Set<DataLabel>();
    if (expr === undefined || depth > 20) return out;
    const add = (s: Iterable<DataLabel>) => {
      for (const l of s) out.add(l);
    };
    switch (expr.type) {
      case 'Identifier':
        add(labels.get(scopeKey(expr.name as string)) ?? []);
        if (qualify(expr) === 'process.env') out.add('env');
        // A variable or parameter named for key material (xrpl.js 2025 sent `privateKey` itself).
        if (KEY_MATERIAL_NAME.test(expr.name as string)) out.add('keymaterial');
        break;
      case 'MemberExpression': {
        const q = qualify(expr);
        if (q === 'process.env') out.add('env');
        else if (q?.startsWith('process.env.') === true) {
          if (SECRET_ENV_NAME.test(q.slice('process.env.'.length))) out.add('envtoken');
        } else {
          const prop = propertyName(expr);
          if (prop !== undefined && KEY_MATERIAL_NAME.test(prop)) out.add('keymaterial');
          for (const l of labelsOf(node(expr.object), depth + 1)) if (l !== 'env' && l !== 'channel') out.add(l);
          if (q === 'process.env.?') out.add('env');
        }
        break;
      }
      case 'CallExpression':
      case 'NewExpression': {
        const callee = node(expr.callee);
        const q = qualify(callee);
        const args = nodes(expr.arguments);
        if (q !== undefined && /^os\.(hostname|userInfo|networkInterfaces)$/.test(q)) out.add('hostinfo');
        // A local character decoder applied to constants yields decoded text (`rot13('…')`, `g('72657175697265')`).
        if (callee?.type === 'Identifier' && decoderNames.has(scopeKey(callee.name as string)) && args.length > 0 && args.every((a) => fold(a) !== undefined || (a.type === 'ArrayExpression' && nodes(a.elements).every((e) => e.type === 'Literal')))) out.add('decoded');
        const reads = q !== undefined && /^(fs|fs\.promises)\.(readFileSync|readFile|createReadStream|readdirSync|readdir|copyFileSync)$/.test(q);
        if (reads && argStrings(args).some((s) => CREDENTIAL_PATH.test(s))) out.add('secret');
        if (q !== undefined && /^path\.(join|resolve|posix\.join|win32\.join)$/.test(q) && (argStrings(args).some((s) => CREDENTIAL_PATH.test(s) || /^(Local Storage|leveldb|Login Data|Cookies|Local Extension Settings)$/.test(s)) || CREDENTIAL_PATH.test(argStrings(args).join('/')))) out.add('credpath');
        if (q !== undefined && isNetworkCallee(q)) {
          out.add('remote');
          out.add('channel');
        }
        if (q !== undefined && CLIPBOARD_READ.test(q)) out.add('clipboard');
        // `buf.subarray(buf.lastIndexOf('IEND') + 8)`: bytes cut out after a marker ride inside an asset.
        if (callee?.type === 'MemberExpression' && /^(slice|subarray)$/.test(propertyName(callee) ?? '') && /\b(?:lastIndexOf|indexOf)\(\s*(?:['"`]|Buffer\.from\()/.test(text.slice(expr.start as number, expr.end as number))) out.add('imagedata');
        if (q !== undefined && (/^(steggy|stegcloak)(\.|$)/.test(q) || (IMAGE_READ.test(q) && argStrings(args).some((s) => IMAGE_PATH.test(s.trim()))))) out.add('imagedata');
        // `require.resolve('other/lib')`, `path.join(root, 'node_modules', 'other')`: a file of another installed package.
        if (q === 'require.resolve' && /^[^./]/.test(fold(args[0]) ?? '.')) out.add('pkgpath');
        if (q !== undefined && /^path\.(join|resolve)$/.test(q) && argStrings(args).some((s) => /(^|[\\/])node_modules([\\/]|$)/.test(s)) && !argStrings(args).some((s) => /(^|[\\/])\.(cache|bin|vite|tmp)([\\/]|$)/.test(s))) out.add('pkgpath');
        if (q === 'atob' || q === 'String.fromCharCode' || q === 'Buffer.from' || q === 'decodeURIComponent') {
          const enc = args[1] === undefined ? undefined : fold(args[1]);
          if (q !== 'Buffer.from' || enc === 'base64' || enc === 'hex') out.add('decoded');
        }
        if (callee?.type === 'MemberExpression') {
          const objLabels = labelsOf(node(callee.object), depth + 1);
          // A database reference's child (`ref.child('x')`, `db.collection('y').doc()`) writes to the same remote store.
          for (const l of objLabels) if (l !== 'channel' || /^(then|child|ref|collection|doc)$/.test(propertyName(callee) ?? '')) out.add(l);
          if (objLabels.has('channel')) out.add('remote');
        }
        const argLabelSet = new Set<DataLabel>();
        for (const a of args) if (a.type !== 'FunctionExpression' && a.type !== 'ArrowFunctionExpression') for (const l of labelsOf(a, depth + 1)) argLabelSet.add(l);
        // Reading from a credential path yields the credential; joining onto one stays a path.
        // A file's content is not a path: reading another package's manifest does not make its text a place to write.
        if (reads) argLabelSet.delete('pkgpath');
        if (argLabelSet.delete('credpath')) {
          if (reads) out.add('secret');
          else if (q !== undefined && /^path\./.test(q)) out.add('credpath');
        }
        add(argLabelSet);
        break;
      }
      case 'AwaitExpression':
      case 'SpreadElement':
      case 'ChainExpression':
      case 'ParenthesizedExpression':
      case 'UnaryExpression':
        add(labelsOf(node(expr.argument ?? expr.expression), depth + 1));
        break;
      case 'TemplateLiteral':
        for (const e of nodes(expr.expressions)) add(labelsOf(e, depth + 1));
        break;
      case 'BinaryExpression':
      case 'LogicalExpression':
        add(labelsOf(node(expr.left), depth + 1));
        add(labelsOf(node(expr.right), depth + 1));
        break;
      case 'ConditionalExpression':
        add(labelsOf(node(expr.consequent), depth + 1));
        add(labelsOf(node(expr.alternate), depth + 1));
        break;
      case 'ArrayExpression':
        for (const e of nodes(expr.elements)) add(labelsOf(e, depth + 1));
        break;
      case 'ObjectExpression':
        for (const p of nodes(expr.properties)) add(labelsOf(p.type === 'SpreadElement' ? p : node(p.value), depth + 1));
        break;
      case 'AssignmentExpression':
        add(labelsOf(node(expr.right), depth + 1));
        break;
      case 'SequenceExpression':
        for (const e of nodes(expr.expressions)) add(labelsOf(e, depth + 1));
        break;
      default:
        break;
    }
    return out;
  }

  /**
   * A path built from the file's own location, as `$DIR/…` or `$FILE`: `__dirname`, `__filename`,
   * `path.join`/`path.resolve` of those and constants, template literals and `+`, through variables.
   */
  function dirPath(expr: N | undefined, depth = 0): string | undefined {
    if (expr === undefined || depth > 6) return undefined;
    if (expr.type === 'Identifier') {
      if (expr.name === '__dirname') return '$DIR';
      if (expr.name === '__filename') return '$FILE';
      return dirPath(valueBoundTo(expr.name as string), depth + 1);
    }
    if (expr.type === 'MemberExpression' && qualify(expr) === 'import.meta.dirname') return '$DIR';
    // A relative path climbing up (`'../axios/index.js'`) resolves against the working directory:
    // at install time npm runs scripts in the package's own directory.
    if (expr.type === 'Literal' && typeof expr.value === 'string' && /^\.\.([\\/]|$)/.test(expr.value)) return `$CWD/${expr.value.replace(/\\/g, '/')}`;
    if (expr.type === 'CallExpression') {
      const q = qualify(node(expr.callee));
      if (q === 'process.cwd') return '$CWD';
      if (q === 'path.dirname') {
        const inner = dirPath(nodes(expr.arguments)[0], depth + 1);
        return inner === undefined ? undefined : inner === '$FILE' ? '$DIR' : `${inner}/..`;
      }
      if (q === undefined || !/^path\.(join|resolve|posix\.join|normalize)$/.test(q)) return undefined;
      const parts = nodes(expr.arguments);
      const head = fold(parts[0]);
      // An unknown base (`process.env.INIT_CWD`, a parameter) keeps the constant parts after it: `?/node_modules/x/…`.
      const base = q === 'path.resolve' && head !== undefined && !head.startsWith('/') && !/^[A-Za-z]:/.test(head) ? `$CWD/${head}` : (dirPath(parts[0], depth + 1) ?? (head === undefined ? '?' : undefined));
      if (base === undefined) return undefined;
      const rest: string[] = [];
      for (const p of parts.slice(1)) {
        const v = fold(p);
        if (v === undefined) rest.push('?');
        else if (v.startsWith('/')) return undefined;
        else rest.push(v);
      }
      return [base, ...rest].join('/');
    }
    if (expr.type === 'TemplateLiteral' || (expr.type === 'BinaryExpression' && expr.operator === '+')) {
      const first = expr.type === 'TemplateLiteral' ? nodes(expr.expressions)[0] : node(expr.left);
      const base = dirPath(first, depth + 1);
      if (base === undefined) return undefined;
      const tail = expr.type === 'TemplateLiteral' ? nodes(expr.quasis).slice(1).map((q) => String((q.value as { cooked?: string }).cooked ?? '')).join('?') : fold(node(expr.right)) ?? '?';
      return `${base}${tail}`;
    }
    return undefined;
  }

  function argStrings(args: N[]): string[] {
    const out: string[] = [];
    const visit = (n: N, depth: number) => {
      if (depth > 8 || out.length > 32) return;
      const v = fold(n);
      if (v !== undefined) {
        out.push(v);
        return;
      }
      for (const key of Object.keys(n)) {
        if (key === 'type' || key === 'start' || key === 'end') continue;
        const val = n[key];
        for (const child of Array.isArray(val) ? nodes(val) : [node(val)].filter((c): c is N => c !== undefined)) {
          if (child.type !== 'FunctionExpression' && child.type !== 'ArrowFunctionExpression') visit(child, depth + 1);
        }
      }
    };
    for (const a of args) visit(a, 0);
    return out;
  }

  const setLabels = (name: string, s: Set<DataLabel>) => {
    if (s.size === 0) return false;
    const key = scopeKey(name);
    const cur = labels.get(key) ?? new Set<DataLabel>();
    const before = cur.size;
    for (const l of s) cur.add(l);
    labels.set(key, cur);
    return cur.size !== before;
  };

  // Pass 1: bindings (declarations, assignments, imports, callback parameters), resolved to a fixpoint.
  interface Binding {
    target: N;
    init: N | undefined;
    kind: 'value' | 'callback-param';
    chain: number[];
  }
  const bindings: Binding[] = [];
  const endless: number[] = [];
  const mangled = new Set<string>();
  let firstMangled = Number.MAX_SAFE_INTEGER;
  const unrefTargets = new Set<string>();
  const callNodes: { call: N; topLevel: boolean; unref: boolean; chain: number[]; guards: N[]; inFunctions: number[] }[] = [];
  // Gates need a clock or a random draw somewhere in the file: most files have neither, and skip the work.
  const gatesPossible = CLOCK_OR_CHANCE_HINT.test(text);
  let initTexts: Map<string, string> | undefined;
  const NO_GUARDS: N[] = [];
  const NO_STARTS: number[] = [];
  /** Per block, its `if (…) return|throw` statements: found once, not once per call (bundles have huge blocks). */
  const exitIfs = new Map<number, N[]>();
  /** Names of local functions called only under a clock or chance condition (`if (Math.random() < .1) wipe()`). */
  const gatedCallees = new Map<string, 'date' | 'chance'>();
  const computedMembers: { n: N; chain: number[] }[] = [];
  const assignments: { n: N; chain: number[] }[] = [];
  const forIns: { n: N; chain: number[] }[] = [];
  const foldCandidates: { n: N; chain: number[] }[] = [];
  /** `x.NPM_TOKEN`-shaped members, kept to check (once names are resolved) whether `x` is `process.env`. */
  const envMembers: { n: N; name: string; chain: number[] }[] = [];
  /** Named functions (declarations and `const f = (…) => …`), to find ones that send their parameters. */
  const functions = new Map<number, { name: string; params: string[]; scope: number }>();
  /** Functions that work character by character (`fromCharCode`, `charCodeAt`): hand-written decoders. */
  const decoderStarts = new Set<number>();
  let decoderNames = new Set<string>();
  // The chain of enclosing function scopes, innermost first; cached per function so a deep tree
  // does not rebuild it for every call and binding.
  const chainCache = new Map<number, number[]>();
  const MODULE_CHAIN = [0];
  const scopesOf = (parents: N[], end = parents.length): number[] => {
    for (let i = end - 1; i >= 0; i--) {
      const p = parents[i]!;
      if (!isFunctionLike(p) || p.type === 'ClassBody') continue;
      let cached = chainCache.get(p.start);
      if (cached === undefined) {
        cached = [p.start, ...scopesOf(parents, i)];
        chainCache.set(p.start, cached);
      }
      return cached;
    }
    return MODULE_CHAIN;
  };

  fullAncestor(program as unknown as AcornNode, (raw, _state, ancestors) => {
    const n = raw as unknown as N;
    const parents = ancestors as unknown as N[];
    if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') {
      for (const p of nodes(n.params)) for (const name of patternNames(p)) declare(n.start, name);
      const id = node(n.id);
      if (id !== undefined && n.type === 'FunctionDeclaration') declare(scopesOf(parents, parents.length - 1)[0]!, id.name as string);
      const holder = parents[parents.length - 2];
      const fname = id?.name ?? (holder?.type === 'VariableDeclarator' ? node(holder.id)?.name : holder?.type === 'AssignmentExpression' ? node(holder.left)?.name : undefined);
      if (typeof fname === 'string') functions.set(n.start, { name: fname, params: nodes(n.params).flatMap((p) => patternNames(p)), scope: scopesOf(parents, parents.length - 1)[0] ?? 0 });
    }
    switch (n.type) {
      case 'ImportDeclaration': {
        const spec = moduleName(String((node(n.source)?.value as string | undefined) ?? ''));
        facts.imports.push({ module: spec, line: lineOf(n.start) });
        for (const s of nodes(n.specifiers)) {
          const local = node(s.local)?.name as string | undefined;
          if (local === undefined) continue;
          declare(0, local);
          if (s.type === 'ImportSpecifier') {
            const imported = node(s.imported);
            const importedName = imported === undefined ? local : ((imported.name ?? imported.value) as string);
            aliases.set(`0\u0000${local}`, importedName === 'default' ? spec : `${spec}.${importedName}`);
          } else aliases.set(`0\u0000${local}`, spec);
        }
        break;
      }
      case 'VariableDeclarator': {
        const scopes = scopesOf(parents);
        for (const name of patternNames(node(n.id))) declare(scopes[0]!, name);
        bindings.push({ target: node(n.id)!, init: node(n.init), kind: 'value', chain: scopes });
        break;
      }
      case 'AssignmentExpression': {
        const scopes = scopesOf(parents);
        assignments.push({ n, chain: scopes });
        if (n.operator === '=' || n.operator === '+=') bindings.push({ target: node(n.left)!, init: node(n.right), kind: 'value', chain: scopes });
        break;
      }
      case 'CallExpression':
      case 'NewExpression': {
        const parent = parents[parents.length - 2];
        const unref = parent?.type === 'MemberExpression' && parent.object === raw && propertyName(parent) === 'unref';
        const scopes = scopesOf(parents);
        callNodes.push({ call: n, topLevel: !parents.some(isFunctionLike), unref, chain: scopes, guards: gatesPossible ? guardTests(parents) : NO_GUARDS, inFunctions: gatesPossible ? parents.filter(isFunctionLike).map((p) => p.start) : NO_STARTS });
        const member = node(n.callee);
        if (member?.type === 'MemberExpression' && /^(fromCharCode|fromCodePoint|charCodeAt|codePointAt)$/.test(String(node(member.property)?.name ?? ''))) {
          for (const p of parents) if (p.type === 'FunctionDeclaration' || p.type === 'FunctionExpression' || p.type === 'ArrowFunctionExpression') decoderStarts.add(p.start);
        }
        for (const a of nodes(n.arguments)) {
          if (a.type === 'FunctionExpression' || a.type === 'ArrowFunctionExpression') {
            for (const p of nodes(a.params)) bindings.push({ target: p, init: n, kind: 'callback-param', chain: [a.start, ...scopes] });
          }
        }
        const callee = node(n.callee);
        // `list.push(x)`, `form.append(k, x)`: the container now carries x.
        if (callee?.type === 'MemberExpression' && /^(push|unshift|append|add|set)$/.test(String(node(callee.property)?.name ?? '')) && node(callee.object)?.type === 'Identifier') {
          for (const a of nodes(n.arguments)) bindings.push({ target: node(callee.object)!, init: a, kind: 'value', chain: scopes });
        }
        if (callee?.type === 'MemberExpression' && /^(join|replace|toString|fromCharCode)$/.test(String(node(callee.property)?.name ?? ''))) foldCandidates.push({ n, chain: scopes });
        else if (callee?.type === 'Identifier' && /^(atob|unescape|decodeURIComponent)$/.test(callee.name as string)) foldCandidates.push({ n, chain: scopes });
        if (callee?.type === 'MemberExpression' && propertyName(callee) === 'unref') {
          const obj = node(callee.object);
          if (obj?.type === 'Identifier') unrefTargets.add(obj.name as string);
        }
        if (callee?.type === 'Identifier' && (callee.name === 'require' || callee.name === 'import')) {
          const spec = fold(nodes(n.arguments)[0]);
          if (spec !== undefined) facts.imports.push({ module: moduleName(spec), line: lineOf(n.start) });
        }
        break;
      }
      case 'ImportExpression': {
        const spec = fold(node(n.source));
        if (spec !== undefined) facts.imports.push({ module: moduleName(spec), line: lineOf(n.start) });
        break;
      }
      case 'MemberExpression': {
        if (n.computed === true && node(n.property)?.type !== 'Literal') computedMembers.push({ n, chain: scopesOf(parents) });
        const prop = node(n.property);
        const envName = prop?.type === 'Identifier' && n.computed !== true ? (prop.name as string) : prop?.type === 'Literal' ? String(prop.value) : undefined;
        if (envName !== undefined && SECRET_ENV_NAME.test(envName)) envMembers.push({ n, name: envName, chain: scopesOf(parents) });
        break;
      }
      case 'Identifier':
        if (/^_0x[0-9a-f]{3,}$/i.test(n.name as string)) {
          mangled.add(n.name as string);
          if (facts.mangledFirstLine === null || n.start < firstMangled) {
            firstMangled = n.start;
            facts.mangledFirstLine = lineOf(n.start);
          }
        }
        break;
      case 'Literal':
        if (typeof n.value === 'string' && n.value.length >= 4) facts.strings.push({ value: n.value, line: lineOf(n.start), decoded: false });
        break;
      case 'TemplateLiteral':
        if (nodes(n.expressions).length === 0) {
          // A template without substitutions is a string literal written with backquotes (often a whole script).
          const only = (nodes(n.quasis)[0]?.value as { cooked?: string | null } | undefined)?.cooked;
          if (typeof only === 'string' && only.length >= 4) facts.strings.push({ value: only, line: lineOf(n.start), decoded: false });
        } else {
          foldCandidates.push({ n, chain: scopesOf(parents) });
          // `https://registry.npmjs.org/${pkg}/…`: the host is constant even when the path is not.
          const head = (nodes(n.quasis)[0]?.value as { cooked?: string | null } | undefined)?.cooked;
          if (typeof head === 'string' && /^(https?|wss?|ftp):\/\/[\w.-]+\.[a-z]{2,}(:\d+)?\//i.test(head)) facts.strings.push({ value: head, line: lineOf(n.start), decoded: false });
        }
        break;
      case 'BinaryExpression': {
        // Only the outermost `+` of a chain: folding each inner one again would be quadratic.
        const parent = parents[parents.length - 2];
        if (n.operator === '+' && !(parent?.type === 'BinaryExpression' && parent.operator === '+')) foldCandidates.push({ n, chain: scopesOf(parents) });
        break;
      }
      case 'ForInStatement':
        forIns.push({ n, chain: scopesOf(parents) });
        break;
      case 'ForOfStatement': {
        const left = node(n.left);
        const target = left?.type === 'VariableDeclaration' ? node(nodes(left.declarations)[0]?.id) : left;
        if (target !== undefined) bindings.push({ target, init: node(n.right), kind: 'value', chain: scopesOf(parents) });
        break;
      }
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'ForStatement':
        if (!parents.some(isFunctionLike) && loopNeverEnds(n)) endless.push(lineOf(n.start));
        if (rotatesStringArray(n)) facts.stringArrayRotations.push(lineOf(n.start));
        break;
      default:
        break;
    }
  });

  decoderNames = new Set([...functions].filter(([start]) => decoderStarts.has(start)).map(([, f]) => `${f.scope}\u0000${f.name}`));
  for (let round = 0; round < 3; round++) {
    let changed = false;
    for (const b of bindings) {
      chain = b.chain;
      if (b.kind === 'callback-param') {
        // Parameters of a callback given to a network call (or a method of a response/socket) carry what arrives.
        const callee = node(b.init?.callee);
        const q = qualify(callee);
        const objLabels = callee?.type === 'MemberExpression' ? labelsOf(node(callee.object)) : new Set<DataLabel>();
        const received = (q !== undefined && isNetworkCallee(q)) || objLabels.has('channel') || objLabels.has('remote');
        if (received && b.target.type === 'Identifier') changed = setLabels(b.target.name as string, new Set<DataLabel>(['remote', 'channel'])) || changed;
        // `fs.readFile('~/.aws/credentials', (err, data) => …)`: the data parameter is the credential.
        if (q !== undefined && /^(fs|fs\.promises)\.readFile$/.test(q) && b.target.type === 'Identifier' && !/^e(rr(or)?)?$/.test(b.target.name as string) && (argStrings(nodes(b.init?.arguments)).some((x) => CREDENTIAL_PATH.test(x)) || labelsOf(nodes(b.init?.arguments)[0]).has('credpath'))) changed = setLabels(b.target.name as string, new Set<DataLabel>(['secret'])) || changed;
        // `items.forEach((x) => …)`, `paths.map((p) => …)`: the element carries what the collection does.
        const inherited = new Set([...objLabels].filter((l) => l !== 'channel'));
        if (inherited.size > 0) for (const name of patternNames(b.target)) changed = setLabels(name, inherited) || changed;
        continue;
      }
      const init = b.init;
      if (init === undefined) continue;
      if (b.target.type === 'Identifier') {
        const name = b.target.name as string;
        const key = scopeKey(name);
        const q = qualify(init);
        if (q !== undefined && q !== name && !aliases.has(key) && init.type !== 'Literal') {
          aliases.set(key, q);
          changed = true;
        }
        if (!constants.has(key)) {
          const st = { decoded: false };
          const v = fold(init, st);
          if (v !== undefined) {
            constants.set(key, v);
            if (st.decoded) decodedConstants.add(key);
            changed = true;
          }
        }
        changed = setLabels(name, labelsOf(init)) || changed;
      } else if (b.target.type === 'MemberExpression') {
        // `global.r = require` makes `global.r(…)` (and a bare `r(…)`) a require.
        const target = qualify(b.target);
        const q = qualify(init);
        if (target !== undefined && !target.includes('.') && q !== undefined && q !== target && !aliases.has(`0\u0000${target}`)) {
          aliases.set(`0\u0000${target}`, q);
          changed = true;
        }
      } else if (b.target.type === 'ObjectPattern') {
        const base = qualify(init);
        const baseLabels = labelsOf(init);
        for (const p of nodes(b.target.properties)) {
          const value = node(p.value);
          const local = value?.type === 'Identifier' ? (value.name as string) : value?.type === 'AssignmentPattern' ? (node(value.left)?.name as string | undefined) : undefined;
          if (local === undefined) continue;
          const key = p.computed === true ? fold(node(p.key)) : ((node(p.key)?.name ?? node(p.key)?.value) as string | undefined);
          if (base !== undefined && key !== undefined && !aliases.has(scopeKey(local))) {
            aliases.set(scopeKey(local), GLOBAL_ROOTS.has(base) ? key : `${base}.${key}`);
            changed = true;
          }
          const sub = new Set(baseLabels);
          if (base === 'process.env') {
            sub.delete('env');
            if (key !== undefined && SECRET_ENV_NAME.test(key)) {
              sub.add('envtoken');
              if (!facts.secretEnvNames.some((e) => e.name === key)) facts.secretEnvNames.push({ name: key, line: lineOf(b.target.start) });
            }
          }
          changed = setLabels(local, sub) || changed;
        }
      }
    }
    if (!changed) break;
  }

  facts.mangledIdentifiers = mangled.size;
  facts.endlessTopLevelLoops = endless;

  const declaredBy = new Map<N, string>();
  const bindingsByScope = new Map<number, Binding[]>();
  for (const b of bindings) {
    if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.init === undefined) continue;
    if (!declaredBy.has(b.init)) declaredBy.set(b.init, b.target.name as string);
    const list = bindingsByScope.get(b.chain[0] ?? 0) ?? [];
    list.push(b);
    bindingsByScope.set(b.chain[0] ?? 0, list);
  }

  const objectInits = new Map<string, N>();
  for (const b of bindings) {
    if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.init?.type !== 'ObjectExpression') continue;
    chain = b.chain;
    const key = scopeKey(b.target.name as string);
    if (!objectInits.has(key)) objectInits.set(key, b.init);
  }

  // Pass 2: calls, hidden names, hooks, environment dumps, strings.
  for (const c of callNodes) {
    if (c.guards.length === 0 || node(c.call.callee)?.type !== 'Identifier') continue;
    chain = c.chain;
    const callee = node(c.call.callee);
    const g = gateOf(c.guards);
    if (g !== undefined && callee?.type === 'Identifier') gatedCallees.set(callee.name as string, g);
  }
  for (const { call, topLevel, unref, chain: at, guards, inFunctions } of callNodes) {
    chain = at;
    const callee = node(call.callee);
    const q = qualify(callee) ?? '?';
    // Only calls a time bomb would make are judged (deleting, writing, running, exiting).
    const gate = guards.length + inFunctions.length > 0 && GATED_SINK.test(q) ? (gateOf(guards) ?? inFunctions.map((start) => gatedCallees.get(functions.get(start)?.name ?? '')).find((g) => g !== undefined)) : undefined;
    const args = nodes(call.arguments);
    const argLabels = new Set<DataLabel>();
    for (const a of args) if (a.type !== 'FunctionExpression' && a.type !== 'ArrowFunctionExpression') for (const l of labelsOf(a)) argLabels.add(l);
    argLabels.delete('channel');
    const onChannel = callee?.type === 'MemberExpression' && CHANNEL_METHODS.has(propertyName(callee) ?? '') && labelsOf(node(callee.object)).has('channel');
    const first = args[0];
    const firstState = { decoded: false };
    const directDecode = first !== undefined && (isDecoderCall(first) || (fold(first, firstState) !== undefined && firstState.decoded));
    const options: Record<string, string> = {};
    for (const arg of args) {
      // An options object kept in a variable (`const o = { detached: true }; spawn(c, a, o)`).
      const a = arg.type === 'Identifier' ? (objectInits.get(scopeKey(arg.name as string)) ?? arg) : arg;
      if (a.type !== 'ObjectExpression') continue;
      for (const p of nodes(a.properties)) {
        const key = (node(p.key)?.name ?? node(p.key)?.value) as string | undefined;
        const value = node(p.value);
        if (key === undefined || value === undefined) continue;
        if (value.type === 'Literal') options[key] = String(value.value);
        else {
          const v = fold(value);
          if (v !== undefined) options[key] = v;
        }
      }
    }
    let unrefd = unref;
    const parent = declaredBy.get(call);
    if (parent !== undefined && unrefTargets.has(parent)) unrefd = true;
    const fact: CallFact = {
      callee: q,
      line: lineOf(call.start),
      args: args.map((a) => fold(a) ?? null),
      argLabels: [...argLabels],
      // Constant strings inside the arguments matter for commands, files and requests only.
      argStrings: STRING_ARG_CALLEE.test(q) || isNetworkCallee(q) ? argStrings(args) : [],
      ...(FILE_PATH_CALLEE.test(q) && args[0] !== undefined ? withPath(dirPath(args[0])) : {}),
      options,
      unref: unrefd,
      isNew: call.type === 'NewExpression',
      topLevel,
      onChannel,
      directDecode,
      ...(gate === undefined ? {} : { gate }),
    };
    facts.calls.push(fact);
    if ((q === 'JSON.stringify' || q === 'Object.keys' || q === 'Object.entries' || q === 'Object.values') && args[0] !== undefined && qualify(args[0]) === 'process.env') {
      facts.envDumps.push({ line: fact.line, expression: text.slice(call.start, Math.min(call.end, call.start + 120)) });
    }
    if ((q === 'require' || q === 'module.require') && args[0] !== undefined && fold(args[0]) === undefined) facts.dynamicRequires.push(fact.line);
    if (REFLECTED_API.test(q) || (q.includes('.') && isNetworkCallee(q))) {
      // `const run = cp['spawn']; run(…)`: the indirection is where the name was bound.
      const via = indirection(callee) ?? (callee?.type === 'Identifier' ? indirection(valueBoundTo(callee.name as string)) : undefined);
      if (via !== undefined) facts.reflectiveCalls.push({ callee: q, line: fact.line, via, expression: text.slice(callee!.start, Math.min(callee!.end, callee!.start + 120)) });
    }
    // A method or module named by decoded text that does not fold (a hand-written decoder ran on it).
    const named = callee?.type === 'MemberExpression' && callee.computed === true ? node(callee.property) : q === 'require' || q === 'module.require' ? args[0] : undefined;
    if (named !== undefined && fold(named) === undefined && labelsOf(named).has('decoded')) facts.decodedNameCalls.push({ line: fact.line, expression: text.slice(call.start, Math.min(call.end, call.start + 120)) });
    // Reflection reaching a sensitive function (`Reflect.get(cp, 'spawn')`, `getOwnPropertyDescriptor(cp, 'exec')`).
    if ((q === 'Reflect.get' || q === 'Object.getOwnPropertyDescriptor') && args[1] !== undefined) {
      const name = fold(args[1]);
      if (name !== undefined && /^(exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|eval|Function|mainModule|binding|dlopen)$/.test(name)) facts.hiddenNames.push({ name, line: fact.line, expression: text.slice(call.start, Math.min(call.end, call.start + 120)) });
    }
    if ((q === 'require' || q === 'module.require') && args[0] !== undefined && args[0].type !== 'Literal') {
      const name = fold(args[0]);
      if (name !== undefined && SENSITIVE_NAMES.has(moduleName(name))) facts.hiddenNames.push({ name: moduleName(name), line: fact.line, expression: text.slice(call.start, Math.min(call.end, call.start + 120)) });
    }
  }
  /** The expression a name was first bound to in the current scope chain. */
  /**
   * The conditions a call runs under: the tests of enclosing `if`/`?:`/`&&` (the branch the call is
   * in, not the test itself) and of earlier `if (…) return|throw` statements of enclosing blocks.
   */
  function guardTests(parents: N[]): N[] {
    const out: N[] = [];
    for (let i = parents.length - 2; i >= 0 && out.length < 8; i--) {
      const p = parents[i]!;
      const child = parents[i + 1]!;
      if ((p.type === 'IfStatement' || p.type === 'ConditionalExpression') && child !== p.test) out.push(node(p.test)!);
      else if (p.type === 'LogicalExpression' && p.operator === '&&' && child === p.right) out.push(node(p.left)!);
      else if (p.type === 'BlockStatement' || p.type === 'Program') {
        let exits = exitIfs.get(p.start);
        if (exits === undefined) {
          exits = nodes(p.body).filter((st) => {
            const then = node(st.consequent);
            return st.type === 'IfStatement' && then !== undefined && (then.type === 'ReturnStatement' || then.type === 'ThrowStatement' || (then.type === 'BlockStatement' && nodes(then.body).some((b) => b.type === 'ReturnStatement' || b.type === 'ThrowStatement')));
          });
          exitIfs.set(p.start, exits);
        }
        for (const st of exits) {
          if (st.start >= child.start) break;
          out.push(node(st.test)!);
        }
      }
    }
    return out;
  }

  /** Whether one of a call's conditions reads the calendar against a constant or draws a random number. */
  function gateOf(guards: N[]): 'date' | 'chance' | undefined {
    for (const t of guards) {
      let code = text.slice(t.start, t.end);
      if (code.length > 400) continue;
      // One level of names: `const due = Date.now() > 1767225600000; if (due) …` (first binding of each
      // name, found once per file: looking each name up in every binding made big files quadratic).
      if (initTexts === undefined) {
        initTexts = new Map();
        for (const b of bindings) {
          if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.init === undefined || b.init.end - b.init.start >= 300) continue;
          if (!initTexts.has(b.target.name as string)) initTexts.set(b.target.name as string, text.slice(b.init.start, b.init.end));
        }
      }
      for (const m of code.match(/[A-Za-z_$][\w$]*/g) ?? []) {
        const v = initTexts.get(m);
        if (v !== undefined) code += ` ${v}`;
      }
      const g = clockOrChanceGate(code);
      if (g !== undefined) return g;
    }
    return undefined;
  }

  function valueBoundTo(name: string): N | undefined {
    const key = scopeKey(name);
    const saved = chain;
    try {
      for (const b of bindings) {
        if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.target.name !== name || b.init === undefined) continue;
        chain = b.chain;
        if (scopeKey(name) === key) return b.init;
      }
      return undefined;
    } finally {
      chain = saved;
    }
  }

  // One level across functions: `const send = (c) => fetch(u, { headers: { x: c } }); send(secret)`
  // makes `send` a network call for its callers.
  const wrappers = new Set<string>();
  callNodes.forEach(({ call, chain: at }, i) => {
    const fact = facts.calls[i]!;
    if (!isNetworkCallee(fact.callee) && !fact.onChannel) return;
    const fn = functions.get(at[0] ?? 0);
    if (fn === undefined || fn.params.length === 0) return;
    const used = identifiersIn(nodes(call.arguments));
    for (const b of bindingsByScope.get(at[0] ?? 0) ?? []) if (used.has(b.target.name as string)) for (const id of identifiersIn([b.init!])) used.add(id);
    if (fn.params.some((p) => used.has(p))) wrappers.add(fn.name);
  });
  if (wrappers.size > 0) for (const c of facts.calls) if (wrappers.has(c.callee) && c.argLabels.length > 0) c.onChannel = true;

  // The same for files: `function inject(file, code) { fs.writeFileSync(file, …) }` writes wherever
  // its callers point it, so each call of it is a write to the path its caller builds.
  const writers = new Map<string, { callee: string; param: number }>();
  callNodes.forEach(({ call, chain: at }, i) => {
    const fact = facts.calls[i]!;
    if (!FILE_PATH_CALLEE.test(fact.callee)) return;
    const fn = functions.get(at[0] ?? 0);
    const first = nodes(call.arguments)[0];
    if (fn === undefined || first?.type !== 'Identifier') return;
    const k = fn.params.indexOf(first.name as string);
    if (k >= 0 && !writers.has(fn.name)) writers.set(fn.name, { callee: fact.callee, param: k });
  });
  const viaWriters: CallFact[] = [];
  if (writers.size > 0) {
    callNodes.forEach(({ call, chain: at }, i) => {
      const fact = facts.calls[i]!;
      const w = writers.get(fact.callee);
      const arg = w === undefined ? undefined : nodes(call.arguments)[w.param];
      if (w === undefined || arg === undefined) return;
      chain = at;
      viaWriters.push({ ...fact, callee: w.callee, args: [fold(arg) ?? null], argLabels: [...labelsOf(arg)], argStrings: argStrings([arg]), ...withPath(dirPath(arg)) });
    });
  }
  facts.calls.push(...viaWriters);

  for (const { n: m, name, chain: at } of envMembers) {
    chain = at;
    if (qualify(node(m.object)) === 'process.env') facts.secretEnvNames.push({ name, line: lineOf(m.start) });
  }
  for (const { n: f, chain: at } of forIns) {
    chain = at;
    if (qualify(node(f.right)) === 'process.env') facts.envDumps.push({ line: lineOf(f.start), expression: text.slice(f.start, Math.min(f.end, f.start + 80)) });
  }
  for (const { n: m, chain: at } of computedMembers) {
    chain = at;
    const prop = node(m.property);
    if (prop === undefined || prop.type === 'Identifier') continue;
    const name = fold(prop);
    if (name !== undefined && SENSITIVE_NAMES.has(name)) facts.hiddenNames.push({ name, line: lineOf(m.start), expression: text.slice(m.start, Math.min(m.end, m.start + 120)) });
  }
  for (const { n: a, chain: at } of assignments) {
    chain = at;
    const left = node(a.left);
    if (left?.type !== 'MemberExpression' && left?.type !== 'Identifier') continue;
    const target = qualify(left);
    if (target === undefined) continue;
    if (/^(fetch|XMLHttpRequest\.prototype\.(open|send|setRequestHeader)|ethereum(\.request|\.send|\.sendAsync|\.enable)?|solana\.(signTransaction|signAndSendTransaction))$/.test(target)) {
      if (left.type === 'Identifier' && target === 'fetch') continue;
      facts.hooks.push({ target, line: lineOf(a.start) });
    } else if (left.type === 'MemberExpression' && NODE_HOOKABLE.test(target) && FUNCTION_VALUE.has(node(a.right)?.type ?? '')) {
      // A Node API that carries requests, credentials or commands replaced by a function: everything
      // any module of the process sends or runs through it passes the replacement first.
      facts.hooks.push({ target, line: lineOf(a.start) });
    }
  }
  // String constants, including ones only visible after folding (concatenations, char codes, base64).
  for (const { n, chain: at } of foldCandidates) {
    chain = at;
    const st = { decoded: false };
    const v = fold(n, st);
    if (v !== undefined && v.length >= 4 && (st.decoded || n.type !== 'CallExpression')) facts.strings.push({ value: v, line: lineOf(n.start), decoded: st.decoded });
  }
  return facts;

  /** `atob(x)`, `Buffer.from(x, 'base64')…`, `String.fromCharCode(…)`, `unescape(x)`, possibly followed by `.toString()`. */
  function isDecoderCall(expr: N): boolean {
    if (expr.type !== 'CallExpression') return false;
    const callee = node(expr.callee);
    const q = qualify(callee);
    if (q === 'atob' || q === 'String.fromCharCode' || q === 'unescape' || q === 'decodeURIComponent') return true;
    // Packer output: `eval(function(p,a,c,k,e,d){…}(…))` evaluates what an inline function unpacks.
    const fn = callee?.type === 'ParenthesizedExpression' ? node(callee.expression) : callee;
    if (fn?.type === 'FunctionExpression' || fn?.type === 'ArrowFunctionExpression') return true;
    if (q === 'Buffer.from') {
      const enc = fold(nodes(expr.arguments)[1]);
      return enc === 'base64' || enc === 'hex' || enc === 'base64url';
    }
    if (callee?.type === 'MemberExpression' && (propertyName(callee) === 'toString' || propertyName(callee) === 'join')) {
      const obj = node(callee.object);
      return obj !== undefined && isDecoderCall(obj);
    }
    return false;
  }

}

/** Every identifier name inside some expressions (function bodies included). */
function identifiersIn(roots: N[]): Set<string> {
  const out = new Set<string>();
  const visit = (n: N, depth: number) => {
    if (depth > 40 || out.size > 500) return;
    if (n.type === 'Identifier') out.add(n.name as string);
    for (const key of Object.keys(n)) {
      const val = n[key];
      for (const child of Array.isArray(val) ? nodes(val) : [node(val)].filter((c): c is N => c !== undefined)) visit(child, depth + 1);
    }
  };
  for (const r of roots) visit(r, 0);
  return out;
}

/** The identifiers a binding pattern declares (`a`, `{ a, b: c }`, `[d, ...e]`, `f = 1`). */
function patternNames(p: N | undefined): string[] {
  if (p === undefined) return [];
  switch (p.type) {
    case 'Identifier':
      return [p.name as string];
    case 'ObjectPattern':
      return nodes(p.properties).flatMap((prop) => patternNames(prop.type === 'RestElement' ? node(prop.argument) : node(prop.value)));
    case 'ArrayPattern':
      return nodes(p.elements).flatMap((e) => patternNames(e));
    case 'RestElement':
      return patternNames(node(p.argument));
    case 'AssignmentPattern':
      return patternNames(node(p.left));
    default:
      return [];
  }
}

function isFunctionLike(n: N): boolean {
  return n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression' || n.type === 'ClassBody';
}

/** `while (!![]) { … parseInt(…) … a.push(a.shift()) … }`: javascript-obfuscator's string-array rotation. */
function rotatesStringArray(loop: N): boolean {
  const test = node(loop.test);
  const bangBangArray = test?.type === 'UnaryExpression' && test.operator === '!' && node(test.argument)?.type === 'UnaryExpression' && node(node(test.argument)!.argument)?.type === 'ArrayExpression';
  if (!bangBangArray && !(test?.type === 'Literal' && test.value === true) && !(test === undefined && loop.type === 'ForStatement')) return false;
  let rotates = false;
  let checksum = false;
  const member = (m: N | undefined) => (m?.type !== 'MemberExpression' ? undefined : m.computed === true ? (node(m.property)?.value as string | undefined) : (node(m.property)?.name as string | undefined));
  const visit = (n: N, depth: number) => {
    if ((rotates && checksum) || depth > 30) return;
    if (n.type === 'CallExpression') {
      const callee = node(n.callee);
      if (callee?.type === 'Identifier' && callee.name === 'parseInt') checksum = true;
      const arg = nodes(n.arguments)[0];
      if (member(callee) === 'push' && arg?.type === 'CallExpression' && member(node(arg.callee)) === 'shift') {
        const a = node(callee!.object);
        const b = node(node(arg.callee)!.object);
        if (a?.type === 'Identifier' && b?.type === 'Identifier' && a.name === b.name) rotates = true;
      }
    }
    for (const key of Object.keys(n)) {
      const val = n[key];
      for (const child of Array.isArray(val) ? nodes(val) : [node(val)].filter((c): c is N => c !== undefined)) visit(child, depth + 1);
    }
  };
  const body = node(loop.body);
  if (body !== undefined) visit(body, 0);
  return rotates && checksum;
}

/** A module-level loop whose condition is always true and whose body has no exit. */
function loopNeverEnds(loop: N): boolean {
  const test = node(loop.test);
  const alwaysTrue =
    test === undefined ||
    (test.type === 'Literal' && (test.value === true || test.value === 1)) ||
    (test.type === 'BinaryExpression' && (test.operator === '<' || test.operator === '<=') && node(test.right)?.type === 'Identifier' && node(test.right)?.name === 'Infinity');
  if (!alwaysTrue) return false;
  let exits = false;
  const visit = (n: N, depth: number) => {
    if (exits || depth > 50) return;
    if (n.type === 'BreakStatement' || n.type === 'ReturnStatement' || n.type === 'ThrowStatement' || n.type === 'AwaitExpression' || n.type === 'YieldExpression') {
      exits = true;
      return;
    }
    if (isFunctionLike(n)) return;
    for (const key of Object.keys(n)) {
      const val = n[key];
      for (const child of Array.isArray(val) ? nodes(val) : [node(val)].filter((c): c is N => c !== undefined)) visit(child, depth + 1);
    }
  };
  const body = node(loop.body);
  if (body !== undefined) visit(body, 0);
  return !exits;
}
