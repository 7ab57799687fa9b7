import { isNetworkCallee } from '../code/javascript/index.js';
import { SECRET_PATH_PATTERN } from '../skills/script-fact.js';
import { parseJs, scopeOf, walkJs, type JsNode } from '../skills/js-source.js';
import { lineLocator } from '../text/line-locator.js';
import { CRONTAB_LISTED, HUGE, METADATA_SERVICE, PERSISTENCE_PATH, SYSTEM_FILE, SYSTEM_LOCATION, hostOf, numberValue, HIDDEN_SHARED_TEMP } from './effect-patterns.js';
import { handlerEffectList, type HandlerEffect, type HandlerEffectKind } from './handler-effect.js';
import { credentialElsewhere, environmentReads, expectedService, serverServiceWords } from './expected-service.js';

const NETWORK_EXTRA = /^(?:got|superagent|needle|ky|ofetch|undici\.\w+|nodemailer\.createTransport)$|\.sendMail$/;
const PROCESS = /^(?:child_process\.\w+|execa(?:\.\w+)?|shelljs\.(?:exec|\w+)|cross-spawn(?:\.\w+)?|Bun\.spawn\w*|Deno\.(?:run|Command)|zx\.\$)$/;
const EVAL = /^(?:eval|Function|vm\.\w+|node-serialize\.unserialize|serialize-to-js\.deserialize|funcster\.\w+)$/;
const TEMPLATE = /^(?:ejs\.(?:render|compile)|handlebars\.compile|Handlebars\.compile|pug\.(?:render|compile)|nunjucks\.renderString|lodash\.template|_\.template|lodash\.template|dot\.template|doT\.template|mustache\.render|Mustache\.render|hogan\.compile|eta\.renderString|liquidjs\.\w+)$/;
const FS = /^(?:fs|fs\.promises|fs-extra|graceful-fs|fs\/promises)\.(\w+)$/;
const FS_READ = /^(?:readFile|readFileSync|createReadStream|readdir|readdirSync|opendir|opendirSync|readJson|readJsonSync|read|readSync)$/;
const FS_WRITE = /^(?:writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|copyFile|copyFileSync|cp|cpSync|rename|renameSync|mkdir|mkdirSync|outputFile|outputFileSync|writeJson|writeJsonSync|copy|copySync|move|moveSync|truncate|truncateSync)$/;
const FS_DELETE = /^(?:unlink|unlinkSync|rm|rmSync|rmdir|rmdirSync|remove|removeSync|emptyDir|emptyDirSync)$/;
const FS_PERMS = /^(?:chmod|chmodSync|lchmod|chown|chownSync|lchown|fchmod|fchown)$/;
const FS_LINK = /^(?:symlink|symlinkSync|link|linkSync|ensureSymlink|ensureLink)$/;
const EXTRACT = /^(?:adm-zip\.\w+|unzipper\.\w+|tar\.(?:x|extract)|decompress|extract-zip|yauzl\.\w+)$|\.extractAllTo$/;
const HOST_ENUM = /^(?:os\.(?:userInfo|networkInterfaces)|ps-list|systeminformation\.\w+|node-os-utils\.\w+)$/;
const SPAWN_IN_LOOP = /^(?:child_process\.(?:spawn|fork|exec|execFile)|worker_threads\.Worker|Worker|net\.(?:connect|createConnection|Socket)|fs\.(?:open|openSync|createWriteStream))$/;

const MAX_DEPTH = 5;
const MAX_FUNCTIONS = 60;

interface Frame {
  fn: JsNode;
  tainted: Set<string>;
  depth: number;
}

function patternNames(p: JsNode | null | undefined, out: string[] = []): string[] {
  if (!p) return out;
  if (p.type === 'Identifier') out.push(p.name as string);
  else if (p.type === 'ObjectPattern') for (const prop of p.properties as JsNode[]) patternNames(prop.type === 'RestElement' ? (prop.argument as JsNode) : (prop.value as JsNode), out);
  else if (p.type === 'ArrayPattern') for (const e of p.elements as Array<JsNode | null>) patternNames(e, out);
  else if (p.type === 'AssignmentPattern') patternNames(p.left as JsNode, out);
  else if (p.type === 'RestElement') patternNames(p.argument as JsNode, out);
  return out;
}

function isFunctionNode(n: JsNode | null | undefined): boolean {
  return n?.type === 'FunctionDeclaration' || n?.type === 'FunctionExpression' || n?.type === 'ArrowFunctionExpression';
}

interface FileIndex {
  text: string;
  typescript: boolean;
  root: JsNode;
  scope: ReturnType<typeof scopeOf>;
  lineAt: (offset: number) => number;
  functions: Map<string, JsNode[]>;
  parents: Map<JsNode, JsNode>;
  byRange: Map<string, JsNode>;
  /** Modules the file loads (`import`, `require`, `import()`), as callees spell them (`fs.promises`). */
  loaded: Set<string>;
}

// Globals that need no import (`fetch`, `WebSocket`, `navigator.sendBeacon`): the name alone is the API.
const NETWORK_GLOBAL_ROOT = /^(?:fetch|XMLHttpRequest|WebSocket|navigator|EventSource|\$|jQuery|Bun|Deno)$/;

/**
 * A network callee by name (`request.get`, `net.connect`, `got`) whose first part is a module the file
 * never loads is a local name that happens to be spelled like one: the MCP SDK hands every handler a
 * `request`, and `request.page.click()` drives a browser tab, not the `request` library.
 */
function moduleNotLoaded(q: string, loaded: ReadonlySet<string>): boolean {
  const root = q.split('.')[0] ?? q;
  // A mailer's `sendMail` sends whatever object holds it.
  if (NETWORK_GLOBAL_ROOT.test(root) || /\.sendMail$/.test(q)) return false;
  for (const m of loaded) if (m === root || m.split('/')[0] === root || m.startsWith(`${root}.`)) return false;
  return true;
}

// The tools of one file are read one after another: index the file once for all of them.
let lastIndex: FileIndex | null = null;

function indexOf(text: string, typescript: boolean): FileIndex {
  if (lastIndex !== null && lastIndex.text === text && lastIndex.typescript === typescript) return lastIndex;
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  const functions = new Map<string, JsNode[]>();
  const parents = new Map<JsNode, JsNode>();
  const byRange = new Map<string, JsNode>();
  const loaded = new Set<string>();
  walkJs(root, (node, parent) => {
    if (parent) parents.set(node, parent);
    if (node.type === 'ImportDeclaration' || node.type === 'ImportExpression' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') {
      const source = node.source as JsNode | null | undefined;
      if (source?.type === 'Literal' && typeof source.value === 'string') loaded.add(loadedName(source.value));
    } else if (node.type === 'CallExpression' && ((node.callee as JsNode).type === 'Identifier' && /^(?:require|__require|__webpack_require__)$/.test((node.callee as JsNode).name as string))) {
      const first = (node.arguments as JsNode[])[0];
      if (first?.type === 'Literal' && typeof first.value === 'string') loaded.add(loadedName(first.value));
      // A name built at run time may be any module: keep every module-named call a network call.
      else loaded.add('*');
    }
    let name: string | null = null;
    let fn: JsNode | null = null;
    if (node.type === 'FunctionDeclaration' && node.id) [name, fn] = [(node.id as JsNode).name as string, node];
    else if (node.type === 'VariableDeclarator' && (node.id as JsNode).type === 'Identifier' && isFunctionNode(node.init as JsNode)) [name, fn] = [(node.id as JsNode).name as string, node.init as JsNode];
    else if ((node.type === 'MethodDefinition' || node.type === 'Property' || node.type === 'PropertyDefinition') && isFunctionNode(node.value as JsNode)) [name, fn] = [scope.propertyName(node.key as JsNode, Boolean(node.computed)), node.value as JsNode];
    if (name !== null && fn !== null) functions.set(name, [...(functions.get(name) ?? []), fn]);
    if (isFunctionNode(node)) byRange.set(`${node.start}:${node.end}`, node);
  });
  lastIndex = { text, typescript, root, scope, lineAt: lineLocator(text), functions, parents, byRange, loaded };
  return lastIndex;
}

/**
 * What the handler of one JavaScript/TypeScript tool does: the effects of its code and of the
 * functions and methods of the same file it calls (by name, up to five calls deep), with the flow
 * of the tool's input through assignments and into the functions it calls.
 */
export function jsHandlerEffects(text: string, typescript: boolean, handler: [number, number], inputNames: readonly string[], senders: ReadonlySet<string> = new Set(), readers: ReadonlySet<string> = new Set(), runners: ReadonlySet<string> = new Set()): HandlerEffect[] {
  const { root, scope, lineAt, functions, parents, byRange, loaded } = indexOf(text, typescript);
  const start: JsNode | null = byRange.get(`${handler[0]}:${handler[1]}`) ?? null;
  // A `case` of a dispatching switch: the statements between the offsets.
  const startNode: JsNode = start ?? { type: 'BlockStatement', start: handler[0], end: handler[1], body: collectStatements(root, handler) };

  const list = handlerEffectList(text, lineAt);
  const { effects } = list;
  const add = (kind: HandlerEffectKind, node: JsNode, fromInput: boolean, extra: Partial<HandlerEffect> = {}) => list.add(kind, node.start, node.end, fromInput, extra);
  const readNames = new Set<string>();
  // Names holding a credential from the environment (`const token = process.env.GITHUB_TOKEN`), with the
  // variables they hold: presented to the credential's own service it is how a client authenticates,
  // not something the handler read and sends away (round s28).
  const credentialNames = new Map<string, string[]>();
  const serverWords = serverServiceWords(text);
  const credentialsIn = (nodes: readonly JsNode[]): string[] => {
    const out = new Set<string>();
    for (const node of nodes) {
      for (const e of environmentReads(text.slice(node.start, Math.min(node.end, node.start + 2000)), 'javascript').credentials) out.add(e);
      walkJs(node, (n) => {
        if (n.type === 'Identifier') for (const e of credentialNames.get(n.name as string) ?? []) out.add(e);
      });
    }
    return [...out];
  };
  // Names bound to a request or socket a network call opened (`const req = https.request(o)`, `const ws = new WebSocket(u)`).
  const channelNames = new Set<string>();
  const networkCall = (node: JsNode | null | undefined): JsNode | null => {
    let c = node;
    while (c && (c.type === 'AwaitExpression' || c.type === 'ChainExpression')) c = (c.argument ?? c.expression) as JsNode;
    if (!c || (c.type !== 'CallExpression' && c.type !== 'NewExpression')) return null;
    const q = scope.qualify(c.callee as JsNode);
    return q !== null && (isNetworkCallee(q) || NETWORK_EXTRA.test(q)) && (loaded.has('*') || !moduleNotLoaded(q, loaded)) ? c : null;
  };
  // Where a request goes: its URL, or the `hostname`/`host` of its options object.
  const destination = (call: JsNode): string | null => {
    const first = ((call.arguments as JsNode[]) ?? [])[0];
    if (!first) return null;
    if (first.type === 'ObjectExpression') {
      for (const prop of first.properties as JsNode[]) {
        if (prop.type === 'Property' && /^(?:hostname|host)$/.test(scope.propertyName(prop.key as JsNode, Boolean(prop.computed)) ?? '')) {
          const v = scope.foldLoose(prop.value as JsNode);
          if (/^[\w.-]+$/.test(v)) return v;
        }
      }
      return null;
    }
    return hostOf(scope.foldLoose(first));
  };
  const visited = new Set<number>();
  const queue: Frame[] = [{ fn: startNode, tainted: new Set(inputNames), depth: 0 }];

  const mentions = (node: JsNode | null | undefined, names: ReadonlySet<string>): boolean => {
    if (!node || names.size === 0) return false;
    let found = false;
    walkJs(node, (n) => {
      if (!found && n.type === 'Identifier' && names.has(n.name as string)) found = true;
    });
    return found;
  };
  const loopOf = (node: JsNode, fn: JsNode): JsNode | null => {
    for (let p = parents.get(node); p && p !== fn; p = parents.get(p)) if (/^(?:While|DoWhile|For|ForOf|ForIn)Statement$/.test(p.type)) return p;
    return null;
  };
  const loopUnbounded = (loop: JsNode, tainted: ReadonlySet<string>): boolean => {
    const test = loop.test as JsNode | null | undefined;
    if (loop.type === 'WhileStatement' || loop.type === 'DoWhileStatement' || loop.type === 'ForStatement') {
      if (!test || (test.type === 'Literal' && (test.value === true || test.value === 1))) return true;
      if (test.type === 'BinaryExpression' && /^<=?$/.test(test.operator as string)) {
        const bound = test.right as JsNode;
        return mentions(bound, tainted) || numberValue(text.slice(bound.start, bound.end)) >= HUGE;
      }
    }
    return false;
  };

  while (queue.length > 0) {
    const { fn, tainted, depth } = queue.shift() as Frame;
    if (visited.has(fn.start) || visited.size >= MAX_FUNCTIONS) continue;
    visited.add(fn.start);
    const body = (fn.body as JsNode | undefined) ?? fn;
    for (let pass = 0; pass < 2; pass++) {
      walkJs(body, (n) => {
        let target: JsNode | null = null;
        let value: JsNode | null = null;
        if (n.type === 'VariableDeclarator') [target, value] = [n.id as JsNode, n.init as JsNode | null];
        else if (n.type === 'AssignmentExpression') [target, value] = [n.left as JsNode, n.right as JsNode];
        else if (n.type === 'ForOfStatement' || n.type === 'ForInStatement') {
          const left = n.left as JsNode;
          [target, value] = [left.type === 'VariableDeclaration' ? ((left.declarations as JsNode[])[0]?.id as JsNode) : left, n.right as JsNode];
        }
        if (!target || !value) return;
        const fromInput = mentions(value, tainted);
        const vText = text.slice(value.start, Math.min(value.end, value.start + 400));
        // The whole environment is what a handler reads; one variable is configuration, or a credential (kept apart).
        const env = environmentReads(vText, 'javascript');
        const read = mentions(value, readNames) || mentions(value, readers) || /\b(?:readFile\w*|readdir\w*|homedir|userInfo|execSync|readJson\w*)\b/.test(vText) || env.whole;
        const credentials = credentialsIn([value]);
        const opened = networkCall(value) !== null;
        for (const name of patternNames(target)) {
          if (fromInput) tainted.add(name);
          if (read) readNames.add(name);
          if (credentials.length > 0) credentialNames.set(name, [...new Set([...(credentialNames.get(name) ?? []), ...credentials])]);
          if (opened) channelNames.add(name);
        }
      });
    }
    walkJs(body, (n) => {
      if ((n.type === 'Literal' && typeof n.value === 'string') || n.type === 'TemplateLiteral') {
        // Text the handler returns (or puts in a result's `text`) reaches the model as the tool's result.
        let returned = false;
        for (let p = parents.get(n), child: JsNode = n; p && p !== fn && !returned; child = p, p = parents.get(p)) {
          returned = p.type === 'ReturnStatement' || (p.type === 'ArrowFunctionExpression' && p.body === child) || (p.type === 'Property' && scope.propertyName(p.key as JsNode, Boolean(p.computed)) === 'text');
        }
        const shown = n.type === 'Literal' ? (n.value as string) : scope.foldLoose(n);
        if (returned && shown.length >= 20) effects.push({ kind: 'returned-text', line: lineAt(n.start), evidence: shown.slice(0, 1500), fromInput: false });
      }
      if (n.type === 'Literal' && typeof n.value === 'string') {
        const value = n.value;
        if (value.length <= 300) {
          if (SYSTEM_FILE.test(value)) add('system-file', n, false);
          if (SECRET_PATH_PATTERN.test(value)) add('credential-file', n, false);
          if (PERSISTENCE_PATH.test(value) && !(value === 'crontab' && CRONTAB_LISTED.test(text.slice(n.end, n.end + 120)))) add('persistence', n, false);
          if (METADATA_SERVICE.test(value)) add('metadata-service', n, false);
          if (SYSTEM_LOCATION.test(value)) add('system-location', n, false);
          if (HIDDEN_SHARED_TEMP.test(value)) add('hidden-temp', n, false);
        }
        return;
      }
      if (n.type === 'TemplateLiteral' || (n.type === 'BinaryExpression' && n.operator === '+')) {
        const value = scope.foldLoose(n);
        if (value.length <= 300 && value !== '*') {
          if (SYSTEM_FILE.test(value)) add('system-file', n, false);
          if (SECRET_PATH_PATTERN.test(value)) add('credential-file', n, false);
          if (PERSISTENCE_PATH.test(value)) add('persistence', n, false);
          if (METADATA_SERVICE.test(value)) add('metadata-service', n, false);
          if (SYSTEM_LOCATION.test(value)) add('system-location', n, false);
          if (HIDDEN_SHARED_TEMP.test(value)) add('hidden-temp', n, false);
        }
      }
      // A huge factor is work only when it sizes an allocation (below); `days * 86400000` converts units.
      if (n.type === 'BinaryExpression' && n.operator === '*') return;
      if ((n.type === 'WhileStatement' || n.type === 'ForStatement' || n.type === 'DoWhileStatement') && loopUnbounded(n, new Set())) {
        const inner = text.slice(n.start, n.end);
        if (!/\b(?:break|return|throw|await|yield)\b/.test(inner)) add('unbounded', n, false);
        return;
      }
      if (n.type === 'ForInStatement' && scope.qualify(n.right as JsNode) === 'process.env') {
        add('env-enumeration', n, false);
        return;
      }
      if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return;
      const callee = n.callee as JsNode;
      const q = scope.qualify(callee);
      const method = callee.type === 'MemberExpression' ? scope.propertyName(callee.property as JsNode, Boolean(callee.computed)) : callee.type === 'Identifier' ? (callee.name as string) : null;
      const args = (n.arguments as JsNode[]) ?? [];
      const first = args[0];
      const anyInput = args.some((a) => mentions(a, tainted));
      const name = q ?? '';
      if (q !== null && /^(?:JSON\.stringify|Object\.(?:entries|keys|values))$/.test(q) && first && scope.qualify(first) === 'process.env') add('env-enumeration', n, false);
      const hugeFactor = (a: JsNode | undefined): boolean => a !== undefined && ((a.type === 'Literal' && typeof a.value === 'number' && a.value >= HUGE) || (a.type === 'BinaryExpression' && a.operator === '*' && (hugeFactor(a.left as JsNode) || hugeFactor(a.right as JsNode))));
      if ((q === 'Array' || q === 'Buffer.alloc' || q === 'Buffer.allocUnsafe' || q === 'ArrayBuffer' || method === 'repeat') && hugeFactor(first)) add('unbounded', n, false);
      if (SPAWN_IN_LOOP.test(name)) {
        const loop = loopOf(n, fn);
        if (loop && loopUnbounded(loop, tainted)) add('unbounded', n, true);
      }
      if (q === 'RegExp' && mentions(first, tainted)) add('input-regex', n, true);
      if (q !== null && (isNetworkCallee(q) || NETWORK_EXTRA.test(q)) && (loaded.has('*') || !moduleNotLoaded(q, loaded))) {
        const url = first ? scope.foldLoose(first) : '';
        const host = hostOf(url);
        let top: JsNode = n;
        for (let p = parents.get(top); p; p = parents.get(top)) {
          if (p.type === 'AwaitExpression' || p.type === 'ChainExpression' || (p.type === 'MemberExpression' && /^(?:catch|then|finally)$/.test(scope.propertyName(p.property as JsNode, Boolean(p.computed)) ?? ''))) top = p;
          else if (p.type === 'CallExpression' && top.type === 'MemberExpression') top = p;
          else break;
        }
        const discarded = parents.get(top)?.type === 'ExpressionStatement';
        const credentials = credentialsIn(args);
        add('network', n, anyInput, { discarded, carriesRead: args.some((a) => mentions(a, readNames)) || credentialElsewhere(host, credentials), credentials, service: expectedService(host, credentials, serverWords), ...(host !== null ? { host } : {}) });
      }
      // Data written to a request or socket a network call opened: `https.request(o).end(body)`,
      // `req.write(body)`, `ws.send(body)`; what the handler hands it goes out.
      if (callee.type === 'MemberExpression' && method !== null && /^(?:write|end|send)$/.test(method) && args.length > 0) {
        const object = callee.object as JsNode;
        const opener = networkCall(object) ?? (object.type === 'Identifier' && channelNames.has(object.name as string) ? object : null);
        if (opener !== null) {
          let top: JsNode = n;
          while (parents.get(top)?.type === 'AwaitExpression') top = parents.get(top) as JsNode;
          const host = opener.type === 'Identifier' ? null : destination(opener);
          const credentials = credentialsIn(args);
          add('network', n, anyInput, { discarded: parents.get(top)?.type === 'ExpressionStatement', carriesRead: args.some((a) => mentions(a, readNames)) || credentialElsewhere(host, credentials), credentials, ...(host !== null ? { host } : {}) });
        }
      }
      // A function imported from another module of the server that sends what it is given
      // (`ship({ path, text })` with `ship` posting its argument): a network call one module away.
      if (callee.type === 'Identifier' && senders.has(callee.name as string)) add('network', n, anyInput, { discarded: true, carriesRead: args.some((a) => mentions(a, readNames)) });
      // A function imported from another module that reads a credential store: the handler holds what it returns.
      if (callee.type === 'Identifier' && readers.has(callee.name as string)) add('credential-file', n, false);
      // A function imported from another module that runs what it is given in a shell: the line the
      // handler hands it is a shell command (`run(\`git blame ${file}\`)`) — also when the function is
      // a thin wrapper its call resolves through.
      if (callee.type === 'Identifier' && runners.has(callee.name as string)) add('process', n, anyInput, { shellLine: true });
      else if (q !== null && PROCESS.test(q)) add('process', n, anyInput);
      // Node documents vm as no security boundary: eval, Function and vm all run with the server's rights.
      if (q !== null && EVAL.test(q) && first && scope.fold(first) === null) add('code-eval', n, mentions(first, tainted), { unrestricted: !/unserialize|deserialize|funcster/.test(q) });
      if (q === 'require' && first && scope.fold(first) === null) add('code-eval', n, mentions(first, tainted), { unrestricted: true });
      if (q !== null && TEMPLATE.test(q) && first && first.type !== 'Literal' && mentions(first, tainted)) add('template-injection', n, true);
      if (q !== null && HOST_ENUM.test(q)) add('host-enumeration', n, false);
      if (q !== null && EXTRACT.test(q)) add('extract', n, anyInput || (callee.type === 'MemberExpression' && mentions(callee.object as JsNode, tainted)));
      // A logger (not the console) given the input or what the handler read.
      if (method !== null && /^(?:debug|info|warn|warning|error|log|fatal|trace|verbose|silly)$/.test(method) && callee.type === 'MemberExpression' && /log/i.test(text.slice((callee.object as JsNode).start, (callee.object as JsNode).end)) && !/^console$/.test(q?.split('.')[0] ?? '') && anyInput) add('logged-input', n, true);
      const fsOp = q === null ? null : (FS.exec(q)?.[1] ?? null);
      if (fsOp !== null) {
        const pathInput = mentions(first, tainted);
        if (FS_READ.test(fsOp)) add('file-read', n, pathInput);
        if (FS_WRITE.test(fsOp)) add('file-write', n, pathInput || anyInput);
        if (FS_WRITE.test(fsOp) && args.slice(1).some((a) => mentions(a, tainted))) add('stored-input', n, true);
        if (FS_DELETE.test(fsOp)) add('file-delete', n, pathInput);
        if (FS_PERMS.test(fsOp)) add('permissions', n, anyInput);
        if (FS_LINK.test(fsOp)) add('link', n, anyInput);
      }
      if (depth < MAX_DEPTH && method !== null && functions.has(method)) {
        for (const target of functions.get(method) ?? []) {
          if (target === fn || (target.start <= n.start && target.end >= n.end)) continue;
          const params = (target.params as JsNode[]) ?? [];
          const next = new Set<string>();
          args.forEach((a, i) => {
            if (params[i] && mentions(a, tainted)) for (const p of patternNames(params[i])) next.add(p);
          });
          queue.push({ fn: target, tainted: next, depth: depth + 1 });
        }
      }
    });
  }
  return effects;
}

/** A module specifier as callees spell it: `node:fs/promises` is `fs.promises`. */
function loadedName(spec: string): string {
  return spec.replace(/^node:/, '').replace(/\/promises$/, '.promises');
}

/** The statements of the tree lying wholly inside `[from, to)`, outermost first. */
function collectStatements(root: JsNode, [from, to]: [number, number]): JsNode[] {
  const out: JsNode[] = [];
  walkJs(root, (n) => {
    if (/Statement$|Declaration$/.test(n.type) && n.start >= from && n.end <= to && !out.some((o) => o.start <= n.start && o.end >= n.end)) out.push(n);
  });
  return out;
}
