import { childNodes, node, nodes, type N } from './javascript/estree.js';
import { patternNames } from './javascript/syntax-shapes.js';
import { keepForNextParse, parseJavaScript } from './parse-javascript.js';

/**
 * (round s31b) Browser functions and wallet methods replaced where the text does not name them: the
 * global object reached through a parameter (`(function (g) { … })(typeof globalThis < 'u' ? globalThis : this)`),
 * a hooked object handed to a helper (`function H(p) { p[k[1]] = … } … H(g[k[0]])`), and member names
 * folded from constants: concatenations, reversed or split-and-joined strings, char codes, and tables
 * of base64 or hex strings decoded in place or through `.map(decoder)` where the decoder is `atob`,
 * `Buffer.from(…, 'base64')` or a small function of the file returning one of them.
 *
 * A reader of the syntax tree, not of the text: every name resolves to its binding (parameters,
 * declarations, catch clauses; block scopes read as their function's), a parameter to the arguments
 * its function is called with (directly as an IIFE, through `.call`, or by name anywhere in the file).
 * Nothing is run. Bounded: a step budget for the whole file, a depth limit per expression.
 */

/** What a replaced member stands for: the page's fetch, the XMLHttpRequest or Response prototype methods, a wallet provider or its signing and request methods. */
const HOOK_TARGET = /^(?:fetch|XMLHttpRequest\.prototype\.(?:open|send|setRequestHeader)|Response\.prototype\.(?:json|text)|(?:ethereum|solana|phantom\.solana|phantom\.ethereum|tronWeb|tronLink|okxwallet|BinanceChain)(?:\.(?:request|send|sendAsync|enable|signTransaction|signAndSendTransaction|signAllTransactions|sendTransaction))?)$/;
/** A wallet provider itself, not one of its methods. */
const BARE_PROVIDER = /^(?:ethereum|solana|phantom\.solana|phantom\.ethereum|tronWeb|tronLink|okxwallet|BinanceChain)$/;
/** A wallet provider or one of its methods (not the page's request functions). */
export const WALLET_TARGET = /^(?:ethereum|solana|phantom\.|tronWeb|tronLink|okxwallet|BinanceChain)/;
const GLOBAL_NAMES = new Set(['window', 'globalThis', 'self', 'global', 'frames']);
const MAX_STEPS = 200_000;
const MAX_DEPTH = 40;
const MAX_STRING = 64 * 1024;

type V =
  | { k: 'global' }
  | { k: 'path'; p: string }
  | { k: 'str'; s: string }
  | { k: 'arr'; a: (string | undefined)[] }
  | { k: 'fn'; fn: N };

interface Binding {
  values: N[];
  /** Values read off a destructured object: `const { prototype: P } = XMLHttpRequest`. */
  members: { object: N; prop: string; scope: Scope }[];
  param?: { fn: N; index: number };
  scope: Scope;
}

interface Scope {
  parent: Scope | null;
  /** The function that opens the scope (undefined for the module and catch clauses). */
  fn?: N;
  names: Map<string, Binding>;
}

export interface HookedTarget {
  target: string;
  /** Offset of the assignment or call that replaces it. */
  at: number;
  end: number;
}

export interface BrowserHooks {
  hooks: HookedTarget[];
  /** Strings only folding revealed (decoded table entries, built names): addresses and patterns hidden from the text. */
  decoded: string[];
}

const unwrap = (n: N | undefined): N | undefined => {
  let x = n;
  while (x !== undefined && (x.type === 'ParenthesizedExpression' || x.type === 'ChainExpression')) x = node(x.expression);
  return x;
};
const isFunction = (n: N | undefined): boolean => n !== undefined && /^(?:FunctionExpression|ArrowFunctionExpression|FunctionDeclaration)$/.test(n.type);

function printable(s: string): string | undefined {
  return /^[\x20-\x7e\t\r\n]*$/.test(s) ? s : undefined;
}

function decodeAs(s: string, encoding: string): string | undefined {
  if (encoding === 'base64' || encoding === 'base64url') {
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(s)) return undefined;
    return printable(Buffer.from(s, encoding).toString('latin1'));
  }
  if (encoding === 'hex') return /^(?:[0-9a-fA-F]{2})*$/.test(s) ? printable(Buffer.from(s, 'hex').toString('latin1')) : undefined;
  if (encoding === 'utf8' || encoding === 'utf-8' || encoding === 'latin1' || encoding === 'ascii') return s;
  return undefined;
}

/** Replaced browser functions and wallet methods in `text`, with the strings folding revealed; null when the text does not parse. */
export function browserHookTargets(text: string, typescript: boolean): BrowserHooks | null {
  const parsed = parseJavaScript(text, typescript);
  if (parsed === null) return null;
  // Only read here: the next reader of the same text takes this tree.
  keepForNextParse(text, typescript, parsed);
  const program = parsed.program as unknown as N;

  const moduleScope: Scope = { parent: null, names: new Map() };
  const scopeOf = new Map<N, Scope>();
  const iifeArgs = new Map<N, { args: N[]; thisArg?: N; scope: Scope }[]>();
  const namedCalls: { callee: N; args: N[]; scope: Scope }[] = [];
  const assignments: { left: N; right: N; scope: Scope; at: N }[] = [];
  const identAssigns: { id: N; right: N; scope: Scope }[] = [];
  const calls: { call: N; scope: Scope }[] = [];

  const functionScope = (s: Scope): Scope => {
    let x: Scope | null = s;
    while (x !== null && x.fn === undefined && x.parent !== null) x = x.parent;
    return x ?? moduleScope;
  };
  const declare = (scope: Scope, name: string): Binding => {
    let b = scope.names.get(name);
    if (b === undefined) {
      b = { values: [], members: [], scope };
      scope.names.set(name, b);
    }
    return b;
  };

  // One walk: scopes, bindings, call sites, assignments. Iterative, so deep minified nesting cannot overflow the stack.
  const stackNodes: N[] = [program];
  const stackScopes: Scope[] = [moduleScope];
  let visited = 0;
  while (stackNodes.length > 0) {
    if (visited++ > 2_000_000) break;
    const n = stackNodes.pop()!;
    const scope = stackScopes.pop()!;
    let inner = scope;
    switch (n.type) {
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        const id = node(n.id);
        if (n.type === 'FunctionDeclaration' && id?.type === 'Identifier') declare(functionScope(scope), id.name as string).values.push(n);
        inner = { parent: scope, fn: n, names: new Map() };
        if (n.type === 'FunctionExpression' && id?.type === 'Identifier') declare(inner, id.name as string).values.push(n);
        nodes(n.params).forEach((p, index) => {
          for (const name of patternNames(p)) {
            const b = declare(inner, name);
            if (p.type === 'Identifier') b.param = { fn: n, index };
          }
        });
        scopeOf.set(n, inner);
        break;
      }
      case 'CatchClause': {
        inner = { parent: scope, names: new Map() };
        for (const name of patternNames(node(n.param))) declare(inner, name);
        break;
      }
      case 'ClassDeclaration': {
        const id = node(n.id);
        if (id?.type === 'Identifier') declare(functionScope(scope), id.name as string);
        break;
      }
      case 'VariableDeclarator': {
        const id = node(n.id);
        const init = node(n.init);
        const target = functionScope(scope);
        if (id?.type === 'Identifier') {
          const b = declare(target, id.name as string);
          if (init !== undefined) b.values.push(init);
        } else {
          for (const name of patternNames(id)) declare(target, name);
          if (id?.type === 'ObjectPattern' && init !== undefined) {
            for (const prop of nodes(id.properties)) {
              const key = node(prop.key);
              const value = node(prop.value);
              const keyName = prop.computed !== true && key?.type === 'Identifier' ? (key.name as string) : key?.type === 'Literal' && typeof key.value === 'string' ? key.value : undefined;
              if (keyName !== undefined && value?.type === 'Identifier') declare(target, value.name as string).members.push({ object: init, prop: keyName, scope });
            }
          }
        }
        break;
      }
      case 'ImportSpecifier':
      case 'ImportDefaultSpecifier':
      case 'ImportNamespaceSpecifier': {
        const local = node(n.local);
        if (local?.type === 'Identifier') declare(moduleScope, local.name as string);
        break;
      }
      case 'Identifier':
        scopeOf.set(n, scope);
        break;
      case 'ThisExpression':
        scopeOf.set(n, scope);
        break;
      case 'AssignmentExpression': {
        const left = node(n.left);
        const right = node(n.right);
        if (n.operator === '=' && left !== undefined && right !== undefined) {
          if (left.type === 'MemberExpression') assignments.push({ left, right, scope, at: n });
          else if (left.type === 'Identifier') identAssigns.push({ id: left, right, scope });
        }
        break;
      }
      case 'CallExpression':
      case 'NewExpression': {
        const callee = unwrap(node(n.callee));
        const args = nodes(n.arguments);
        calls.push({ call: n, scope });
        if (callee !== undefined && isFunction(callee)) {
          const list = iifeArgs.get(callee) ?? [];
          list.push({ args, scope });
          iifeArgs.set(callee, list);
        } else if (callee?.type === 'Identifier') {
          namedCalls.push({ callee, args, scope });
        } else if (callee?.type === 'MemberExpression' && callee.computed !== true && /^(?:call|apply)$/.test((node(callee.property)?.name as string | undefined) ?? '')) {
          // `(function (g) { … }).call(this, window)`, `fn.call(null, provider)`.
          const fn = unwrap(node(callee.object));
          const method = node(callee.property)?.name as string;
          const passed = method === 'call' ? args.slice(1) : nodes(node(args[1])?.type === 'ArrayExpression' ? node(args[1])!.elements : []);
          if (fn !== undefined && isFunction(fn)) {
            const list = iifeArgs.get(fn) ?? [];
            list.push({ args: passed, ...(args[0] !== undefined ? { thisArg: args[0] } : {}), scope });
            iifeArgs.set(fn, list);
          } else if (fn?.type === 'Identifier') namedCalls.push({ callee: fn, args: passed, scope });
        }
        // `!function (g) { … }(window)`: the unary operator is only the minifier's way to start an expression.
        break;
      }
      default:
        break;
    }
    // A member's or a property's written name is no use of a binding: only what may resolve is walked.
    if (n.type === 'MemberExpression' && n.computed !== true) {
      const object = node(n.object);
      if (object !== undefined) {
        stackNodes.push(object);
        stackScopes.push(inner);
      }
      continue;
    }
    if (n.type === 'Property' && n.computed !== true && n.shorthand !== true) {
      const value = node(n.value);
      if (value !== undefined) {
        stackNodes.push(value);
        stackScopes.push(inner);
      }
      continue;
    }
    const children = childNodes(n);
    for (let i = children.length - 1; i >= 0; i--) {
      stackNodes.push(children[i]!);
      stackScopes.push(inner);
    }
  }

  const lookup = (name: string, scope: Scope | undefined): Binding | undefined => {
    for (let s: Scope | null = scope ?? moduleScope; s !== null; s = s.parent) {
      const b = s.names.get(name);
      if (b !== undefined) return b;
    }
    return undefined;
  };
  for (const a of identAssigns) lookup(a.id.name as string, a.scope)?.values.push(a.right);
  /** Call sites by the binding their callee resolves to. */
  const callsOf = new Map<Binding, N[][]>();
  for (const c of namedCalls) {
    const b = lookup(c.callee.name as string, c.scope);
    if (b === undefined) continue;
    const list = callsOf.get(b) ?? [];
    if (list.length < 50) list.push(c.args);
    callsOf.set(b, list);
  }
  /** Bindings whose value is a given function (`function H(p)`, `var H = function (p)`): where its calls are found. */
  const bindingOfFn = new Map<N, Binding>();
  for (const s of new Set(scopeOf.values())) {
    for (const b of s.names.values()) for (const v of b.values) if (isFunction(unwrap(v)) && !bindingOfFn.has(unwrap(v)!)) bindingOfFn.set(unwrap(v)!, b);
  }
  for (const b of moduleScope.names.values()) for (const v of b.values) if (isFunction(unwrap(v)) && !bindingOfFn.has(unwrap(v)!)) bindingOfFn.set(unwrap(v)!, b);

  let steps = 0;
  const decoded = new Set<string>();
  const visiting = new Set<Binding>();
  type Env = Map<Binding, V>;

  const argsFor = (fn: N): { args: N[]; thisArg?: N }[] => {
    const out: { args: N[]; thisArg?: N }[] = [...(iifeArgs.get(fn) ?? [])];
    const b = bindingOfFn.get(fn);
    if (b !== undefined) for (const args of callsOf.get(b) ?? []) out.push({ args });
    return out;
  };

  const identifier = (n: N, env: Env | undefined, depth: number): V | undefined => {
    const name = n.name as string;
    const b = lookup(name, scopeOf.get(n));
    if (b === undefined) return GLOBAL_NAMES.has(name) ? { k: 'global' } : name === 'undefined' ? undefined : { k: 'path', p: name };
    const bound = env?.get(b);
    if (bound !== undefined) return bound;
    if (visiting.has(b)) return undefined;
    visiting.add(b);
    try {
      for (const v of b.values) {
        const value = isFunction(unwrap(v)) ? ({ k: 'fn', fn: unwrap(v)! } as V) : evaluate(v, undefined, depth + 1);
        if (value !== undefined) return value;
      }
      for (const m of b.members) {
        const object = evaluate(m.object, undefined, depth + 1);
        const value = object === undefined ? undefined : member(object, m.prop);
        if (value !== undefined) return value;
      }
      if (b.param !== undefined) {
        for (const site of argsFor(b.param.fn)) {
          const arg = site.args[b.param.index];
          const value = arg === undefined ? undefined : evaluate(arg, undefined, depth + 1);
          if (value !== undefined) return value;
        }
      }
      return undefined;
    } finally {
      visiting.delete(b);
    }
  };

  /** `this` at the top of a script, in a function called plainly (an IIFE), or bound by `.call(window)`. */
  const thisValue = (n: N, depth: number): V | undefined => {
    let s: Scope | null = scopeOf.get(n) ?? moduleScope;
    while (s !== null && (s.fn === undefined || s.fn.type === 'ArrowFunctionExpression')) {
      if (s.parent === null) return { k: 'global' };
      s = s.parent;
    }
    if (s === null) return { k: 'global' };
    const sites = iifeArgs.get(s.fn!) ?? [];
    for (const site of sites) {
      if (site.thisArg === undefined) return { k: 'global' };
      const v = evaluate(site.thisArg, undefined, depth + 1);
      if (v !== undefined) return v;
    }
    return undefined;
  };

  const member = (object: V, prop: string): V | undefined => {
    switch (object.k) {
      case 'global':
        return GLOBAL_NAMES.has(prop) ? object : { k: 'path', p: prop };
      case 'path':
        return { k: 'path', p: `${object.p}.${prop}` };
      case 'arr':
        if (/^\d+$/.test(prop)) {
          const s = object.a[Number(prop)];
          return s === undefined ? undefined : { k: 'str', s };
        }
        return undefined;
      default:
        return undefined;
    }
  };

  const strOf = (v: V | undefined): string | undefined => (v?.k === 'str' ? v.s : undefined);

  /** A function's value for arguments: its single returned expression read with the parameters bound. */
  const callFunction = (fn: N, args: V[], depth: number): V | undefined => {
    let body = node(fn.body);
    if (body?.type === 'BlockStatement') {
      const ret = nodes(body.body).find((s) => s.type === 'ReturnStatement');
      body = node(ret?.argument);
    }
    if (body === undefined) return undefined;
    const scope = scopeOf.get(fn);
    const env: Env = new Map();
    nodes(fn.params).forEach((p, i) => {
      const b = p.type === 'Identifier' ? scope?.names.get(p.name as string) : undefined;
      const a = args[i];
      if (b !== undefined && a !== undefined) env.set(b, a);
    });
    return evaluate(body, env, depth + 1);
  };

  /** A call of a decoder (`atob`, `Buffer.from(…, 'base64')`, `String.fromCharCode`) or of a small function of the file, on values. */
  const applyValue = (callee: V | undefined, args: (V | undefined)[], depth: number): V | undefined => {
    if (callee === undefined) return undefined;
    if (callee.k === 'fn') return args.some((v) => v === undefined) ? undefined : callFunction(callee.fn, args as V[], depth);
    if (callee.k !== 'path') return undefined;
    const path = callee.p.replace(/^(?:window|globalThis|self|global)\./, '');
    const s = strOf(args[0]);
    if (path === 'atob') {
      const d = s === undefined ? undefined : decodeAs(s, 'base64');
      return d === undefined ? undefined : { k: 'str', s: d };
    }
    if (path === 'decodeURIComponent' || path === 'unescape') {
      try {
        return s === undefined ? undefined : { k: 'str', s: path === 'unescape' ? unescape(s) : decodeURIComponent(s) };
      } catch {
        return undefined;
      }
    }
    if (path === 'String.fromCharCode') {
      const codes = args.map((v) => Number(strOf(v)));
      return codes.length > 0 && codes.every((c) => Number.isInteger(c) && c >= 0 && c < 0x10000) ? { k: 'str', s: String.fromCharCode(...codes) } : undefined;
    }
    if (path === 'Buffer.from') {
      const enc = args.length < 2 ? 'utf8' : strOf(args[1]);
      const d = s === undefined || enc === undefined ? undefined : decodeAs(s, enc.toLowerCase());
      return d === undefined ? undefined : { k: 'str', s: d };
    }
    return undefined;
  };

  const methodCall = (object: V, method: string, args: N[], env: Env | undefined, depth: number): V | undefined => {
    const arg = (i: number) => (args[i] === undefined ? undefined : evaluate(args[i]!, env, depth + 1));
    if (object.k === 'arr') {
      if (method === 'map') {
        const fn = arg(0);
        if (fn === undefined) return undefined;
        const out: (string | undefined)[] = [];
        for (const s of object.a) {
          if (s === undefined || steps > MAX_STEPS) return undefined;
          const d = strOf(applyValue(fn, [{ k: 'str', s }], depth));
          if (d === undefined) return undefined;
          decoded.add(d);
          out.push(d);
        }
        return { k: 'arr', a: out };
      }
      if (method === 'reverse') return { k: 'arr', a: [...object.a].reverse() };
      if (method === 'join') {
        const sep = args.length === 0 ? ',' : strOf(arg(0));
        if (sep === undefined || object.a.some((s) => s === undefined)) return undefined;
        const s = object.a.join(sep);
        return s.length > MAX_STRING ? undefined : { k: 'str', s };
      }
      return undefined;
    }
    if (object.k === 'str') {
      if (method === 'split') {
        const sep = strOf(arg(0));
        return sep === undefined ? undefined : { k: 'arr', a: object.s.split(sep) };
      }
      if (method === 'toString' || method === 'trim' || method === 'valueOf') return object;
      if (method === 'concat') {
        const parts = args.map((_, i) => strOf(arg(i)));
        return parts.some((p) => p === undefined) ? undefined : { k: 'str', s: object.s + parts.join('') };
      }
      if (method === 'slice' || method === 'substring') {
        const a = Number(strOf(arg(0)) ?? 0);
        const b = args[1] === undefined ? undefined : Number(strOf(arg(1)));
        return Number.isNaN(a) || (b !== undefined && Number.isNaN(b)) ? undefined : { k: 'str', s: method === 'slice' ? object.s.slice(a, b) : object.s.substring(a, b) };
      }
      return undefined;
    }
    return undefined;
  };

  function evaluate(raw: N | undefined, env: Env | undefined, depth: number): V | undefined {
    const n = unwrap(raw);
    if (n === undefined || depth > MAX_DEPTH || ++steps > MAX_STEPS) return undefined;
    switch (n.type) {
      case 'Literal':
        if (typeof n.value === 'string') return { k: 'str', s: n.value };
        if (typeof n.value === 'number') return { k: 'str', s: String(n.value) };
        return undefined;
      case 'TemplateLiteral': {
        let out = '';
        const exprs = nodes(n.expressions);
        const quasis = nodes(n.quasis);
        for (let i = 0; i < quasis.length; i++) {
          const cooked = (quasis[i]!.value as { cooked?: string | null }).cooked;
          if (typeof cooked !== 'string') return undefined;
          out += cooked;
          if (i < exprs.length) {
            const s = strOf(evaluate(exprs[i], env, depth + 1));
            if (s === undefined) return undefined;
            out += s;
          }
        }
        return { k: 'str', s: out };
      }
      case 'Identifier':
        return identifier(n, env, depth);
      case 'ThisExpression':
        return thisValue(n, depth);
      case 'ArrayExpression': {
        const out: (string | undefined)[] = [];
        for (const el of nodes(n.elements)) out.push(strOf(evaluate(el, env, depth + 1)));
        return { k: 'arr', a: out };
      }
      case 'BinaryExpression': {
        if (n.operator !== '+') return undefined;
        const l = strOf(evaluate(node(n.left), env, depth + 1));
        const r = l === undefined ? undefined : strOf(evaluate(node(n.right), env, depth + 1));
        return l === undefined || r === undefined || l.length + r.length > MAX_STRING ? undefined : { k: 'str', s: l + r };
      }
      case 'ConditionalExpression':
        return evaluate(node(n.consequent), env, depth + 1) ?? evaluate(node(n.alternate), env, depth + 1);
      case 'LogicalExpression':
        return n.operator === '&&' ? evaluate(node(n.right), env, depth + 1) : (evaluate(node(n.left), env, depth + 1) ?? evaluate(node(n.right), env, depth + 1));
      case 'SequenceExpression':
        return evaluate(nodes(n.expressions).at(-1), env, depth + 1);
      case 'AssignmentExpression':
        return n.operator === '=' ? evaluate(node(n.right), env, depth + 1) : undefined;
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return { k: 'fn', fn: n };
      case 'MemberExpression': {
        const object = evaluate(node(n.object), env, depth + 1);
        if (object === undefined) return undefined;
        const prop = propertyOf(n, env, depth);
        return prop === undefined ? undefined : member(object, prop);
      }
      case 'CallExpression': {
        const callee = unwrap(node(n.callee));
        const args = nodes(n.arguments);
        if (callee?.type === 'MemberExpression') {
          const method = propertyOf(callee, env, depth);
          const object = evaluate(node(callee.object), env, depth + 1);
          if (method !== undefined && object !== undefined && (object.k === 'arr' || object.k === 'str')) return methodCall(object, method, args, env, depth);
        }
        if (args.length > 256) return undefined;
        return applyValue(evaluate(callee, env, depth + 1), args.map((a) => evaluate(a, env, depth + 1)), depth);
      }
      default:
        return undefined;
    }
  }

  function propertyOf(m: N, env: Env | undefined, depth: number): string | undefined {
    const prop = node(m.property);
    if (prop === undefined) return undefined;
    if (m.computed !== true) return prop.type === 'Identifier' ? (prop.name as string) : undefined;
    return strOf(evaluate(prop, env, depth + 1));
  }

  const targetOf = (object: N | undefined, prop: string | undefined): string | undefined => {
    if (object === undefined || prop === undefined) return undefined;
    const o = evaluate(object, undefined, 0);
    const v = o === undefined ? undefined : member(o, prop);
    return v?.k === 'path' ? v.p.replace(/^(?:window|globalThis|self|global)\./, '') : undefined;
  };

  const hooks: HookedTarget[] = [];
  for (const a of assignments) {
    if (steps > MAX_STEPS || hooks.length > 20) break;
    const target = targetOf(node(a.left.object), propertyOf(a.left, undefined, 0));
    if (target === undefined || !HOOK_TARGET.test(target)) continue;
    // A provider object set whole (`window.ethereum = provider`) is how a wallet injects itself; only a Proxy of it intercepts.
    const right = unwrap(a.right);
    if (BARE_PROVIDER.test(target) && !(right?.type === 'NewExpression' && unwrap(node(right.callee))?.type === 'Identifier' && unwrap(node(right.callee))?.name === 'Proxy')) continue;
    hooks.push({ target, at: a.at.start, end: a.at.end });
  }
  for (const { call } of calls) {
    if (steps > MAX_STEPS || hooks.length > 20) break;
    const callee = unwrap(node(call.callee));
    if (callee?.type !== 'MemberExpression') continue;
    const fn = evaluate(callee, undefined, 0);
    if (fn?.k !== 'path') continue;
    const [obj, key] = nodes(call.arguments);
    // `Object.defineProperty(g, 'fetch', …)`, `Reflect.set(g, k[3], fn)`: a member replaced by name.
    if (/^(?:Object\.defineProperty|Reflect\.(?:set|defineProperty))$/.test(fn.p)) {
      const target = targetOf(obj, strOf(evaluate(key, undefined, 0)));
      if (target !== undefined && HOOK_TARGET.test(target)) hooks.push({ target, at: call.start, end: call.end });
    } else if (fn.p === 'Object.assign' && key?.type === 'ObjectExpression') {
      // `Object.assign(g, { fetch: patched })`.
      for (const p of nodes(key.properties)) {
        const k = node(p.key);
        const name = p.computed === true ? strOf(evaluate(k, undefined, 0)) : k?.type === 'Identifier' ? (k.name as string) : k?.type === 'Literal' ? String(k.value) : undefined;
        const target = targetOf(obj, name);
        if (target !== undefined && HOOK_TARGET.test(target)) hooks.push({ target, at: call.start, end: call.end });
      }
    }
  }
  return { hooks, decoded: [...decoded] };
}
