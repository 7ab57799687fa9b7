import { childNodes } from '../code/javascript/estree.js';
import { isNetworkCallee } from '../code/javascript/index.js';
import { parseJs, scopeOf, type JsNode } from '../skills/js-source.js';
import { lineLocator } from '../text/line-locator.js';
import { templateText } from '../skills/js-template-text.js';
import { credentialFile, DECODING_STEP, type CredentialSend } from './credential-send.js';
import { carriedRegions, credentialArguments, decodedFromConstants, fieldIn, FileWork, foldedHost, foldJoin, foldName, foldReturned, foldSum, followBound, heldByField, heldByName, hiddenSend, judgeReadings, pushCapped, readerSends, readingFold, readingsAt, returnsRead, ROOT, visitField, walkGuard, type Bound as BoundIn, type Ctx as CtxIn, type Fold, type SendReader, type Sink as SinkIn } from './credential-send-judging.js';
import { SECRET_ENV } from './credential-vendors.js';
import { topLevelConstants } from './module-constants.js';

/**
 * The requests of a JavaScript/TypeScript file, each with the secret environment variables it
 * carries (header, URL or body) and the host it goes to, read on the syntax tree:
 *
 * - the credential is followed from `process.env.X` (also `const { X } = process.env`) through names,
 *   object fields (`auth.token`, `this.token`), templates, encodings (`Buffer.from(t).toString('base64')`),
 *   the parameters of the file's functions at their call sites (two calls up), and the parameters
 *   another module hands it (`seeds`);
 * - the address is folded through constants, object fields of constants (`CONFIG.analytics.endpoint`,
 *   here or imported), templates and `+`, `[…].join`, `String.fromCharCode`, base64/hex, reversed
 *   strings, `new URL(path, base)`, a default after `||`/`??`, the `baseURL` of an axios instance, and
 *   the file's functions that return it; where it does not fold but is computed from constants through
 *   a decoding step, the send is `hidden`.
 *
 * Bounded as credential-send-judging.ts says: a number of requests, of call-site readings of each, of nodes per
 * question and per file.
 */

type Bound = BoundIn<JsNode>;
type Ctx = CtxIn<JsNode>;
type Sink = SinkIn<JsNode>;

// Calls that send: the global fetch and the HTTP clients by their request methods.
const SEND_CALLEE = /^(?:fetch|node-fetch|cross-fetch|isomorphic-fetch|undici\.(?:fetch|request)|axios|got|ky|ofetch|needle|phin|navigator\.sendBeacon|WebSocket|ws)$|^(?:axios|got|ky|needle|superagent|https?|http2|request|ofetch)\.(?:request|get|post|put|patch|delete|del|head)$/;
// Factories of preconfigured clients (`axios.create({ baseURL, headers })`): their methods send there.
const CLIENT_FACTORY = /^(?:axios\.create|got\.extend|ky\.(?:create|extend)|ofetch\.create)$/;
const CLIENT_METHOD = /^(?:request|get|post|put|patch|delete|head)$/;
// Option fields of a request: where its address, headers and query are.
const ADDRESS_FIELD = /^(?:url|uri|href)$/;
const BASE_FIELD = /^(?:baseURL|baseUrl|prefixUrl)$/;
const HEADER_FIELD = /^(?:headers|auth)$/;
const QUERY_FIELD = /^(?:params|searchParams|query|qs)$/;
const READS_OUTSIDE = /^(?:fs|fs\.promises|fs-extra)\.|^(?:readFile\w*|require)$/;
// Reads of a file's content: a credential store read this way is a credential.
const FILE_READ = /^(?:fs|fs\.promises|fs-extra)\.(?:readFileSync|readFile|readJson|readJsonSync)$/;
// Path builders and the home directory, folded loosely to see which file a path names.
const PATH_JOIN = /^path(?:\.posix|\.win32)?\.(?:join|resolve)$/;

function isFunction(n: JsNode | null | undefined): boolean {
  return n?.type === 'FunctionDeclaration' || n?.type === 'FunctionExpression' || n?.type === 'ArrowFunctionExpression';
}

function unwrap(n: JsNode | null | undefined): JsNode | null {
  let c = n ?? null;
  while (c && (c.type === 'AwaitExpression' || c.type === 'ChainExpression' || c.type === 'ParenthesizedExpression' || c.type === 'TSAsExpression' || c.type === 'TSNonNullExpression' || c.type === 'TSSatisfiesExpression')) c = (c.argument ?? c.expression) as JsNode;
  return c;
}

/** The name of the environment variable a qualified name reads (`process.env.GITHUB_TOKEN` → `GITHUB_TOKEN`). */
function envOf(q: string | null): string | null {
  const m = q === null ? null : /^process\.env\.([A-Za-z_][\w]*)$/.exec(q);
  return m ? m[1]! : null;
}

export function jsCredentialSends(text: string, typescript: boolean, seeds: ReadonlyMap<string, ReadonlyMap<number, readonly string[]>> = new Map()): CredentialSend[] {
  if (seeds.size === 0 && !/process\.env|readFile|readJson/.test(text)) return [];
  if (!/\bfetch\b|\baxios\b|\bgot\b|\bhttps?\b|\bky\b|\bundici\b|\bneedle\b|\bsuperagent\b|\bsendBeacon\b|WebSocket|\bofetch\b|\brequest\b/.test(text)) return [];
  return readerSends(jsReader(text, typescript, seeds));
}

/** For each call of one of `callees` (local names of another module's functions), the secret variables each argument carries. */
export function jsCredentialArguments(text: string, typescript: boolean, callees: ReadonlySet<string>): Map<string, Map<number, string[]>> {
  if (callees.size === 0 || !/process\.env/.test(text)) return new Map();
  // Only calls by a plain name: a method of the same name is another function.
  return credentialArguments(jsReader(text, typescript, new Map()), callees, (call) => ((call.callee as JsNode).type === 'Identifier' ? (call.arguments as JsNode[]) : []));
}

function jsReader(text: string, typescript: boolean, seeds: ReadonlyMap<string, ReadonlyMap<number, readonly string[]>>): SendReader<JsNode> {
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  const lineAt = lineLocator(text);
  let locals: Map<string, string>;
  try {
    locals = topLevelConstants(text, typescript ? 'typescript' : 'javascript');
  } catch {
    locals = new Map();
  }
  const parents = new Map<JsNode, JsNode>();
  const decls = new Map<string, JsNode[]>();
  const memberDecls = new Map<string, JsNode[]>();
  const envLocals = new Map<string, string>();
  const functions = new Map<string, JsNode[]>();
  const callSites = new Map<string, JsNode[]>();
  const paramNames = new Set<string>();
  const clients = new Map<string, JsNode>();
  const channels = new Map<string, JsNode>();
  const calls: JsNode[] = [];
  const work = new FileWork();
  const memberKey = (n: JsNode): string => text.slice(n.start, n.end).replace(/\s+/g, '').replace(/^self\./, 'this.');
  const paramsOf = (p: JsNode | null | undefined, into: Set<string>) => {
    if (!p) return;
    if (p.type === 'Identifier') into.add(p.name as string);
    else if (p.type === 'AssignmentPattern') paramsOf(p.left as JsNode, into);
    else if (p.type === 'RestElement') paramsOf(p.argument as JsNode, into);
    else if (p.type === 'ObjectPattern') for (const prop of p.properties as JsNode[]) paramsOf((prop.type === 'RestElement' ? prop.argument : prop.value) as JsNode, into);
    else if (p.type === 'ArrayPattern') for (const e of p.elements as Array<JsNode | null>) paramsOf(e, into);
  };
  const stack: Array<[JsNode, JsNode | null]> = [[root, null]];
  while (stack.length > 0) {
    const [n, parent] = stack.pop()!;
    if (parent) parents.set(n, parent);
    for (const c of childNodes(n)) stack.push([c, n]);
    if (n.type === 'VariableDeclarator' && n.init) {
      const id = n.id as JsNode;
      const init = n.init as JsNode;
      if (id.type === 'Identifier') {
        pushCapped(decls, id.name as string, init);
        if (isFunction(init)) pushCapped(functions, id.name as string, init);
        const opened = unwrap(init);
        if (opened && (opened.type === 'CallExpression' || opened.type === 'NewExpression')) {
          const q = scope.qualify(opened.callee as JsNode);
          if (q !== null && CLIENT_FACTORY.test(q)) clients.set(id.name as string, opened);
          else if (q !== null && SEND_CALLEE.test(q)) channels.set(id.name as string, opened);
        }
      } else if (id.type === 'ObjectPattern' && scope.qualify(unwrap(init)) === 'process.env') {
        for (const prop of id.properties as JsNode[]) {
          if (prop.type !== 'Property') continue;
          const key = scope.propertyName(prop.key as JsNode, Boolean(prop.computed));
          const value = prop.value as JsNode;
          const local = value.type === 'AssignmentPattern' ? (value.left as JsNode) : value;
          if (key !== null && local.type === 'Identifier') envLocals.set(local.name as string, key);
        }
      }
    } else if (n.type === 'AssignmentExpression' && /^(?:=|\|\|=|\?\?=)$/.test(n.operator as string)) {
      const left = n.left as JsNode;
      if (left.type === 'Identifier') pushCapped(decls, left.name as string, n.right as JsNode);
      else if (left.type === 'MemberExpression') {
        pushCapped(memberDecls, memberKey(left), n.right as JsNode);
        if (isFunction(n.right as JsNode)) {
          const prop = scope.propertyName(left.property as JsNode, Boolean(left.computed));
          if (prop !== null) pushCapped(functions, prop, n.right as JsNode);
        }
      }
    } else if ((n.type === 'PropertyDefinition' || n.type === 'ClassProperty') && n.value) {
      const key = scope.propertyName(n.key as JsNode, Boolean(n.computed));
      if (key !== null) pushCapped(memberDecls, `this.${key}`, n.value as JsNode);
    } else if (n.type === 'FunctionDeclaration' && n.id) pushCapped(functions, (n.id as JsNode).name as string, n);
    else if ((n.type === 'MethodDefinition' || n.type === 'Property') && isFunction(n.value as JsNode)) {
      const key = scope.propertyName(n.key as JsNode, Boolean(n.computed));
      if (key !== null) pushCapped(functions, key, n.value as JsNode);
    } else if (n.type === 'CallExpression' || n.type === 'NewExpression') {
      calls.push(n);
      const callee = n.callee as JsNode;
      const name = callee.type === 'Identifier' ? (callee.name as string) : callee.type === 'MemberExpression' && !callee.computed ? ((callee.property as JsNode).name as string) : null;
      if (name) pushCapped(callSites, name, n);
    }
    if (isFunction(n)) for (const p of (n.params as JsNode[]) ?? []) paramsOf(p, paramNames);
  }
  calls.sort((a, b) => a.start - b.start);

  const enclosing = (n: JsNode): JsNode | null => {
    for (let p = parents.get(n); p; p = parents.get(p)) if (isFunction(p)) return p;
    return null;
  };
  const nameOf = (fn: JsNode): string | null => {
    if (fn.type === 'FunctionDeclaration' && fn.id) return (fn.id as JsNode).name as string;
    const p = parents.get(fn);
    if (p?.type === 'VariableDeclarator' && (p.id as JsNode).type === 'Identifier') return (p.id as JsNode).name as string;
    if ((p?.type === 'Property' || p?.type === 'MethodDefinition') && p.value === fn) return scope.propertyName(p.key as JsNode, Boolean(p.computed));
    if (p?.type === 'AssignmentExpression' && (p.left as JsNode).type === 'MemberExpression') return scope.propertyName((p.left as JsNode).property as JsNode, Boolean((p.left as JsNode).computed));
    return null;
  };
  const bindCall = (fn: JsNode, call: JsNode, outer: Ctx): Ctx => {
    const bind = new Map<string, Bound>();
    const args = (call.arguments as JsNode[]) ?? [];
    ((fn.params as JsNode[]) ?? []).forEach((p, i) => {
      const arg = args[i];
      const target = p.type === 'AssignmentPattern' ? (p.left as JsNode) : p;
      if (target.type === 'Identifier') {
        if (arg && arg.type !== 'SpreadElement') bind.set(target.name as string, { node: arg, ctx: outer });
        else if (p.type === 'AssignmentPattern') bind.set(target.name as string, { node: p.right as JsNode, ctx: ROOT });
      } else if (target.type === 'ObjectPattern' && arg) {
        for (const prop of target.properties as JsNode[]) {
          if (prop.type !== 'Property') continue;
          const local = (prop.value as JsNode).type === 'AssignmentPattern' ? ((prop.value as JsNode).left as JsNode) : (prop.value as JsNode);
          if (local.type !== 'Identifier') continue;
          const key = scope.propertyName(prop.key as JsNode, Boolean(prop.computed));
          const field = arg.type === 'ObjectExpression' && key !== null ? fieldOf(arg, key) : null;
          bind.set(local.name as string, { node: field ?? arg, ctx: outer });
        }
      }
    });
    return { bind };
  };
  const contextsAt = readingsAt<JsNode>({
    seeds,
    callSites,
    enclosing,
    nameOf,
    params: (fn) =>
      ((fn.params as JsNode[]) ?? []).map((p) => {
        const target = p.type === 'AssignmentPattern' ? (p.left as JsNode) : p;
        return target.type === 'Identifier' ? (target.name as string) : null;
      }),
    inside: (call, fn) => call.start >= fn.start && call.end <= fn.end,
    bindCall,
  });

  function fieldOf(obj: JsNode, key: string): JsNode | null {
    for (const p of obj.properties as JsNode[]) {
      if (p.type === 'Property' && scope.propertyName(p.key as JsNode, Boolean(p.computed)) === key) return p.value as JsNode;
    }
    return null;
  }
  /** The object literal a name or expression stands for (through names, two hops), with its reading. */
  const objectOf = (n: JsNode | null, ctx: Ctx, depth = 0): { node: JsNode; ctx: Ctx } | null => {
    const u = unwrap(n);
    if (!u || depth > 4) return null;
    if (u.type === 'ObjectExpression') return { node: u, ctx };
    const held = u.type === 'Identifier' ? heldByName(u.name as string, ctx, decls) : u.type === 'MemberExpression' ? heldByField(memberField(u, ctx, depth + 1), memberDecls.get(memberKey(u))) : null;
    return held === null ? null : objectOf(held.node, held.ctx, depth + 1);
  };
  /** `a.b` where `a` is an object literal: the value written for `b`. */
  const memberField = (m: JsNode, ctx: Ctx, depth = 0): { node: JsNode; ctx: Ctx } | null => {
    const key = scope.propertyName(m.property as JsNode, Boolean(m.computed));
    if (key === null) return null;
    return fieldIn(objectOf(m.object as JsNode, ctx, depth), (obj) => fieldOf(obj, key));
  };

  /** The secret variables of the environment whose value an expression carries. */
  const envsOf = (node: JsNode | null | undefined, ctx: Ctx): Set<string> => {
    const out = new Set<string>();
    if (!node) return out;
    const add = (env: string | null) => {
      if (env !== null && SECRET_ENV.test(env)) out.add(env);
    };
    const fresh = walkGuard<JsNode>(work, (n) => `${n.start}:${n.end}:${n.type}`);
    const visit = (n: JsNode, c: Ctx, depth: number): void => {
      if (!fresh(n, c, depth)) return;
      switch (n.type) {
        case 'FunctionExpression':
        case 'ArrowFunctionExpression':
        case 'FunctionDeclaration':
          return;
        case 'Property':
          if (n.computed) visit(n.key as JsNode, c, depth + 1);
          visit(n.value as JsNode, c, depth + 1);
          return;
        // What only tests the credential (`Boolean(token)`, `!token`, `token !== ''`, `token.length`) or
        // hashes it (`createHash(…).update(token).digest('hex')`) is not the credential.
        case 'UnaryExpression':
          return;
        case 'BinaryExpression':
          if (n.operator !== '+') return;
          break;
        case 'ConditionalExpression':
          visit(n.consequent as JsNode, c, depth + 1);
          visit(n.alternate as JsNode, c, depth + 1);
          return;
        case 'MemberExpression': {
          if (!n.computed && (n.property as JsNode).name === 'length') return;
          const q = scope.qualify(n);
          const env = envOf(q);
          if (env !== null) return add(env);
          if (q === 'process.env' || visitField(memberField(n, c), memberDecls.get(memberKey(n)), visit, depth)) return;
          visit(n.object as JsNode, c, depth + 1);
          if (n.computed) visit(n.property as JsNode, c, depth + 1);
          return;
        }
        case 'Identifier': {
          const name = n.name as string;
          if (followBound(c.bind.get(name), add, visit, depth)) return;
          const local = envLocals.get(name);
          if (local !== undefined) return add(local);
          add(envOf(scope.qualify(n)));
          for (const init of decls.get(name) ?? []) visit(init, c, depth + 1);
          return;
        }
        case 'CallExpression': {
          const callee = n.callee as JsNode;
          const q = scope.qualify(callee);
          if (q !== null && /^(?:Boolean|Number|isNaN|Array\.isArray|Object\.keys)$/.test(q)) return;
          // The content of a credential store (`readFileSync(join(homedir(), '.config', 'gh', 'hosts.yml'))`).
          if (q !== null && FILE_READ.test(q)) {
            const path = fold((n.arguments as JsNode[])[0], c, true);
            if (path !== null && credentialFile(path)) out.add(`file:${path}`);
          }
          if (callee.type === 'MemberExpression' && /^(?:digest|includes|startsWith|endsWith|test)$/.test(scope.propertyName(callee.property as JsNode, Boolean(callee.computed)) ?? '')) return;
          // A function of this file: what it returns carries what it reads (`getToken()`), its parameters bound here.
          if (callee.type === 'Identifier') for (const r of returnedBy(functions.get(callee.name as string), n, c)) visit(r.node, r.ctx, depth + 1);
          break;
        }
        default:
          break;
      }
      for (const child of childNodes(n)) visit(child, c, depth + 1);
    };
    visit(node, ctx, 0);
    return out;
  };

  const returnsOf = (fn: JsNode): JsNode[] => {
    const body = fn.body as JsNode;
    if (body.type !== 'BlockStatement') return [body];
    const out: JsNode[] = [];
    const stack = [...childNodes(body)];
    while (stack.length > 0 && out.length < 6) {
      const n = stack.pop()!;
      if (isFunction(n)) continue;
      if (n.type === 'ReturnStatement' && n.argument) out.push(n.argument as JsNode);
      else stack.push(...childNodes(n));
    }
    return out;
  };
  const returnedBy = (fns: readonly JsNode[] | undefined, call: JsNode, ctx: Ctx, most?: number) => returnsRead(fns, returnsOf, (fn) => bindCall(fn, call, ctx), most);

  /** The constant text an expression stands for in a reading, or null (`loose`: unknown parts read `*`). */
  const fold: Fold<JsNode> = readingFold({ work, open: unwrap, literal: (n) => n.type === 'Literal', exact: (n) => scope.fold(n) }, (n, ctx, loose, depth, miss) => {
    switch (n.type) {
      case 'Literal':
        return typeof n.value === 'string' || typeof n.value === 'number' ? String(n.value) : miss;
      case 'TemplateLiteral':
        return templateText(n, (e) => fold(e, ctx, loose, depth + 1));
      case 'BinaryExpression':
        return n.operator === '+' ? foldSum(fold, n.left as JsNode, n.right as JsNode, ctx, loose, depth) : miss;
      case 'LogicalExpression': {
        // `process.env.API_URL ?? 'https://…'`: the address the code falls back to is the one it ships with.
        const l = fold(n.left as JsNode, ctx, false, depth + 1);
        return l ?? fold(n.right as JsNode, ctx, loose, depth + 1);
      }
      case 'Identifier':
        return foldName(fold, n.name as string, ctx, loose, depth, decls, (name) => locals.get(name));
      case 'MemberExpression': {
        const prop = scope.propertyName(n.property as JsNode, Boolean(n.computed));
        // `new URL(…).href`, `url.toString`: the address itself.
        if (prop === 'href' || prop === 'origin') return fold(n.object as JsNode, ctx, loose, depth + 1);
        const q = scope.qualify(n);
        if (loose && (q === 'process.env.HOME' || q === 'process.env.USERPROFILE')) return '~';
        const known = q === null ? undefined : locals.get(q);
        if (known !== undefined) return known;
        const held = heldByField(memberField(n, ctx), memberDecls.get(memberKey(n)));
        return held === null ? miss : fold(held.node, held.ctx, loose, depth + 1);
      }
      case 'NewExpression': {
        if (scope.qualify(n.callee as JsNode) !== 'URL') return miss;
        const [path, base] = n.arguments as JsNode[];
        const p = fold(path, ctx, true, depth + 1) ?? '*';
        if (/^[a-z][\w+.-]*:\/\//i.test(p) || base === undefined) return p === '*' ? miss : p;
        const b = fold(base, ctx, true, depth + 1) ?? '*';
        if (b === '*') return miss;
        try {
          return new URL(p.replace(/\*/g, 'x'), b.replace(/\*/g, 'x')).origin + '/' + p.replace(/^\/+/, '');
        } catch {
          return b;
        }
      }
      case 'CallExpression': {
        const callee = n.callee as JsNode;
        const args = (n.arguments as JsNode[]) ?? [];
        const method = callee.type === 'MemberExpression' ? scope.propertyName(callee.property as JsNode, Boolean(callee.computed)) : null;
        if (method === 'join') {
          const items = arrayOf(callee.object as JsNode, ctx, depth + 1);
          const sep = args.length === 0 ? ',' : fold(args[0], ctx, false, depth + 1);
          return items === null || sep === null ? miss : foldJoin(fold, items, sep, ctx, loose, depth);
        }
        if ((method === 'toString' || method === 'trim' || method === 'toLowerCase') && callee.type === 'MemberExpression') return fold(callee.object as JsNode, ctx, loose, depth + 1);
        if (method === 'concat' && callee.type === 'MemberExpression') return foldJoin(fold, [callee.object as JsNode, ...args], '', ctx, loose, depth);
        const q = scope.qualify(callee);
        if ((q === 'String' || q === 'encodeURI') && args[0]) return fold(args[0], ctx, loose, depth + 1);
        if (q !== null && /^(?:os\.homedir|homedir)$/.test(q)) return loose ? '~' : null;
        if (q !== null && PATH_JOIN.test(q) && loose && args.length > 0) return args.map((a) => fold(a, ctx, true, depth + 1) ?? '*').join('/').replace(/\/{2,}/g, '/');
        // A function of this file that returns the address, its parameters bound to this call's arguments.
        return (callee.type === 'Identifier' ? foldReturned(fold, returnedBy(functions.get(callee.name as string), n, ctx, 2), loose, depth) : null) ?? miss;
      }
      default:
        return miss;
    }
  });
  /** The items of an array an expression stands for (a literal, a name bound to one, a `.slice` of either). */
  const arrayOf = (node: JsNode | null | undefined, ctx: Ctx, depth: number): JsNode[] | null => {
    const n = unwrap(node);
    if (!n || depth > 8) return null;
    if (n.type === 'ArrayExpression') return (n.elements as Array<JsNode | null>).every((e) => e !== null && e.type !== 'SpreadElement') ? (n.elements as JsNode[]) : null;
    if (n.type === 'Identifier') {
      const held = heldByName(n.name as string, ctx, decls);
      return held === null ? null : arrayOf(held.node, held.ctx, depth + 1);
    }
    if (n.type === 'MemberExpression') {
      const field = memberField(n, ctx);
      return field === null ? null : arrayOf(field.node, field.ctx, depth + 1);
    }
    if (n.type === 'CallExpression' && (n.callee as JsNode).type === 'MemberExpression' && scope.propertyName((n.callee as JsNode).property as JsNode, false) === 'slice') {
      const base = arrayOf((n.callee as JsNode).object as JsNode, ctx, depth + 1);
      const bounds = (n.arguments as JsNode[]).map((a) => (a.type === 'Literal' && typeof a.value === 'number' ? a.value : a.type === 'UnaryExpression' && a.operator === '-' && (a.argument as JsNode).type === 'Literal' ? -Number((a.argument as JsNode).value) : NaN));
      return base === null || bounds.some((b) => Number.isNaN(b)) ? null : base.slice(...(bounds as [number?, number?]));
    }
    return null;
  };

  /** The address is computed from the file's constants through a decoding step (credential-send-judging.ts). */
  const hiddenAddress = (node: JsNode, ctx: Ctx): boolean => {
    // Parameters of the functions the walk enters: bound at the call it came through, not outside.
    const local = new Set<string>();
    return decodedFromConstants(node, ctx, {
      work,
      seenAs: (n) => n,
      enter: (n) => {
        if (isFunction(n)) for (const p of (n.params as JsNode[]) ?? []) paramsOf(p, local);
      },
      decodes: (n) => (n.type === 'BinaryExpression' && n.operator === '^') || ((n.type === 'CallExpression' || n.type === 'NewExpression') && DECODING_STEP.test(text.slice((n.callee as JsNode).start, Math.min(n.end, (n.callee as JsNode).start + 200)))),
      readsOutside: (n) => {
        const q = n.type === 'MemberExpression' ? scope.qualify(n) : n.type === 'CallExpression' || n.type === 'NewExpression' ? scope.qualify(n.callee as JsNode) : null;
        if (q === null) return false;
        return n.type === 'MemberExpression' ? /^process\.env\b/.test(q) : SEND_CALLEE.test(q) || isNetworkCallee(q) || READS_OUTSIDE.test(q);
      },
      calledBodies: (n, c) => {
        const callee = n.callee as JsNode | undefined;
        if ((n.type !== 'CallExpression' && n.type !== 'NewExpression') || callee?.type !== 'Identifier') return [];
        return (functions.get(callee.name as string) ?? []).slice(0, 2).map((fn) => ({ node: fn, ctx: bindCall(fn, n, c) }));
      },
      nameRead: (n) => (n.type === 'Identifier' ? (n.name as string) : null),
      outsideName: (name) => envLocals.has(name),
      decls,
      unboundParameter: (name) => paramNames.has(name) && !local.has(name),
      valueParts: (n) => childNodes(n).filter((child) => !(n.type === 'MemberExpression' && child === n.property && !n.computed) && !(n.type === 'Property' && child === n.key && !n.computed)),
    });
  };

  // The requests of the file, with where their address, headers, query and body are.
  const sinks: Sink[] = [];
  for (const call of calls) {
    const callee = call.callee as JsNode;
    const args = ((call.arguments as JsNode[]) ?? []).filter((a) => a.type !== 'SpreadElement');
    const q = scope.qualify(callee);
    const client = callee.type === 'MemberExpression' && (callee.object as JsNode).type === 'Identifier' ? clients.get((callee.object as JsNode).name as string) : undefined;
    const method = callee.type === 'MemberExpression' ? scope.propertyName(callee.property as JsNode, Boolean(callee.computed)) : null;
    let sink: Sink | null = null;
    if (client !== undefined && method !== null && CLIENT_METHOD.test(method)) {
      const config = (client.arguments as JsNode[])[0];
      const options = config?.type === 'ObjectExpression' ? config : null;
      const base = options === null ? null : (options.properties as JsNode[]).find((p) => p.type === 'Property' && BASE_FIELD.test(scope.propertyName(p.key as JsNode, Boolean(p.computed)) ?? ''));
      sink = { call, address: [...(base ? [base.value as JsNode] : []), ...(args[0] ? [args[0]] : [])], headers: [], query: [], body: [...args.slice(1), ...(options ? [options] : [])] };
    } else if (q !== null && SEND_CALLEE.test(q)) {
      const needleMethod = /^needle$/.test(q) && args[0]?.type === 'Literal' && args.length > 1;
      const first = needleMethod ? args[1] : args[0];
      sink = { call, address: [], headers: [], query: [], body: [] };
      if (first?.type === 'ObjectExpression') {
        // `axios({ url, … })`, `https.request({ hostname, path, … })`: the address is in the options.
        const field = (k: RegExp) => (first.properties as JsNode[]).find((p) => p.type === 'Property' && k.test(scope.propertyName(p.key as JsNode, Boolean(p.computed)) ?? ''))?.value as JsNode | undefined;
        const url = field(ADDRESS_FIELD);
        const host = field(/^(?:hostname|host)$/);
        const base = field(BASE_FIELD);
        if (url) sink.address.push(...(base ? [base] : []), url);
        else if (host) {
          const scheme = { type: 'Literal', value: /^http\./.test(q) ? 'http://' : 'https://', start: host.start, end: host.start } as JsNode;
          const path = field(/^path$/);
          sink.address.push(scheme, host, ...(path ? [path] : []));
        }
        sink.body.push(first);
      } else if (first) sink.address.push(first);
      sink.body.push(...args.filter((a) => a !== first));
    }
    if (sink === null) continue;
    // What is written to the request it opened (`const req = https.request(o); req.end(body)`).
    const holder = parents.get(call)?.type === 'VariableDeclarator' ? parents.get(call) : parents.get(call)?.type === 'AwaitExpression' && parents.get(parents.get(call)!)?.type === 'VariableDeclarator' ? parents.get(parents.get(call)!) : undefined;
    const channel = holder !== undefined && (holder.id as JsNode).type === 'Identifier' ? ((holder.id as JsNode).name as string) : null;
    if (channel !== null && channels.get(channel) === call) {
      for (const other of calls) {
        const c = other.callee as JsNode;
        if (c.type === 'MemberExpression' && (c.object as JsNode).type === 'Identifier' && (c.object as JsNode).name === channel && /^(?:write|end|send)$/.test(scope.propertyName(c.property as JsNode, Boolean(c.computed)) ?? '')) sink.body.push(...((other.arguments as JsNode[]) ?? []));
      }
    }
    sinks.push(sink);
  }

  /** Splits option objects into their headers, query and the rest. */
  const split = (sink: Sink, ctx: Ctx): { headers: JsNode[]; query: JsNode[]; body: JsNode[] } => {
    const headers: JsNode[] = [...sink.headers];
    const query: JsNode[] = [...sink.query];
    const body: JsNode[] = [];
    for (const part of sink.body) {
      const obj = objectOf(part, ctx);
      if (obj === null || obj.node !== unwrap(part)) {
        // An options object held in a name: its fields are read where it is written.
        if (obj !== null) {
          const inner = split({ ...sink, body: [obj.node] }, obj.ctx);
          headers.push(...inner.headers);
          query.push(...inner.query);
          body.push(...inner.body);
        } else body.push(part);
        continue;
      }
      for (const p of obj.node.properties as JsNode[]) {
        const key = p.type === 'Property' ? scope.propertyName(p.key as JsNode, Boolean(p.computed)) : null;
        if (key !== null && HEADER_FIELD.test(key)) headers.push(p.value as JsNode);
        else if (key !== null && QUERY_FIELD.test(key)) query.push(p.value as JsNode);
        else if (key === null || !(ADDRESS_FIELD.test(key) || BASE_FIELD.test(key) || /^(?:hostname|host|path|method|port|protocol|timeout|signal|agent)$/.test(key))) body.push(p);
      }
    }
    return { headers, query, body };
  };

  const judge = (sink: Sink): CredentialSend[] =>
    judgeReadings(lineAt(sink.call.start), contextsAt(sink.call), work, (ctx) => {
      const parts = split(sink, ctx);
      const host = foldedHost(sink.address, (a) => fold(a, ctx, true));
      const regions = carriedRegions((n: JsNode) => envsOf(n, ctx), parts.headers, [...sink.address, ...parts.query], parts.body);
      return { host, regions, hidden: hiddenSend(host, sink.address, (a) => hiddenAddress(a, ctx)) };
    });

  return { sinks, judge, envsOf, contextsAt, callSites };
}
