import { callsThrough, GLOBAL_ROOTS, moduleName } from './callee-kinds.js';
import { node, nodes, type N } from './estree.js';
import type { Resolve } from './resolve.js';

/**
 * Helpers bundlers and compilers wrap a CommonJS `require` in to give it ES module shape: Rollup
 * (`_interopDefault`, `_interopDefaultCompat`, `_interopNamespace…`), Babel and SWC
 * (`_interopRequireDefault`, `_interop_require_wildcard`), TypeScript (`__importDefault`,
 * `__importStar`), esbuild (`__toESM`). `fetch__default.default(…)` in a published `dist/` file is
 * a call of `node-fetch` itself: without seeing through the wrapper, every network call, file read
 * and process start of compiled code goes unnamed (the @solana/web3.js backdoor, December 2024,
 * sent keys with `fetch__default.default`).
 */
const INTEROP_HELPER = /^(?:_interop(?:Default(?:Compat|Legacy)?|Namespace(?:Default(?:Only)?|Compat)?|RequireDefault|RequireWildcard)|_interop_require_(?:default|wildcard)|__importDefault|__importStar|__toESM|_interop_default)$/;
/** Marks a name reached through an interop helper: its `.default` (or any member) is the module's own. */
const INTEROP_MARK = '#interop';

/** See `Resolve.propertyName`. */
export function propertyName(r: Resolve, member: N): string | undefined {
  const prop = node(member.property);
  if (prop === undefined) return undefined;
  if (member.computed !== true) return prop.type === 'Identifier' ? (prop.name as string) : prop.type === 'PrivateIdentifier' ? `#${prop.name as string}` : undefined;
  return r.fold(prop);
}

/** See `Resolve.qualify`. */
export function qualifyExpression(r: Resolve, expr: N | undefined, depth: number): string | undefined {
  if (expr === undefined || depth > 16) return undefined;
  switch (expr.type) {
    case 'Identifier': {
      const name = expr.name as string;
      return r.aliasOf(name) ?? name;
    }
    case 'ThisExpression':
      return 'this';
    case 'ParenthesizedExpression':
      return qualifyExpression(r, node(expr.expression), depth + 1);
    case 'ChainExpression':
      return qualifyExpression(r, node(expr.expression), depth + 1);
    // `(0, Function)(…)`, `(0, eval)(…)`: the comma operator yields its last operand (minifiers' indirect call).
    case 'SequenceExpression': {
      const last = nodes(expr.expressions).at(-1);
      return last === undefined ? undefined : qualifyExpression(r, last, depth + 1);
    }
    case 'MemberExpression':
      return qualifyMember(r, expr, depth);
    case 'CallExpression': {
      const callee = qualifyExpression(r, node(expr.callee), depth + 1);
      // `Reflect.get(cp, 'spawn')` is `cp.spawn`.
      if (callee === 'Reflect.get') {
        const [obj, key] = nodes(expr.arguments);
        const base = qualifyExpression(r, obj, depth + 1);
        const name = r.fold(key);
        return base === undefined || name === undefined ? undefined : `${base}.${name}`;
      }
      // `cp.spawn.bind(null, …)` is `cp.spawn` (called later as `….bind(…)()`).
      const fn = node(expr.callee);
      if (fn?.type === 'MemberExpression' && propertyName(r, fn) === 'bind') {
        const bound = qualifyExpression(r, node(fn.object), depth + 1);
        if (bound !== undefined && callsThrough(bound)) return bound;
      }
      if (callee !== undefined && INTEROP_HELPER.test(callee.replace(/^.*\./, ''))) {
        const wrapped = qualifyExpression(r, nodes(expr.arguments)[0], depth + 1);
        return wrapped === undefined || wrapped.endsWith(INTEROP_MARK) ? wrapped : `${wrapped}${INTEROP_MARK}`;
      }
      if (callee === 'require' || callee === 'module.require') {
        const spec = r.fold(nodes(expr.arguments)[0]);
        return spec === undefined ? undefined : moduleName(spec);
      }
      // esbuild's `__require` shim, `((x) => typeof require < "u" ? require : …)(function (x) { … })`, is `require`.
      if (fn !== undefined && isRequireShim(fn)) return 'require';
      return undefined;
    }
    case 'ImportExpression': {
      const spec = r.fold(node(expr.source));
      return spec === undefined ? undefined : moduleName(spec);
    }
    case 'AwaitExpression':
      return qualifyExpression(r, node(expr.argument), depth + 1);
    default:
      return undefined;
  }
}

function qualifyMember(r: Resolve, expr: N, depth: number): string {
  const base = qualifyExpression(r, node(expr.object), depth + 1);
  const prop = propertyName(r, expr) ?? '?';
  // `Object.getOwnPropertyDescriptor(cp, 'spawn').value` is `cp.spawn`; `cp.spawn.call(…)`/`.apply(…)` call `cp.spawn`.
  const obj = node(expr.object);
  if (prop === 'value' && obj?.type === 'CallExpression' && qualifyExpression(r, node(obj.callee), depth + 1) === 'Object.getOwnPropertyDescriptor') {
    const [o, key] = nodes(obj.arguments);
    const b = qualifyExpression(r, o, depth + 1);
    const name = r.fold(key);
    if (b !== undefined && name !== undefined) return `${b}.${name}`;
  }
  // `Object.entries(cp).find(([k]) => k === 'spawn')[1]`, `….filter(([k]) => k === 'spawn')[0][1]` are `cp.spawn`.
  if (prop === '1' && obj !== undefined) {
    const found = obj.type === 'CallExpression' ? r.keySearch(obj) : obj.type === 'MemberExpression' && propertyName(r, obj) === '0' && node(obj.object)?.type === 'CallExpression' ? r.keySearch(node(obj.object)!) : undefined;
    if (found !== undefined && found.source === 'entries' && (found.method === 'find') === (obj.type === 'CallExpression')) {
      const b = qualifyExpression(r, found.target, depth + 1);
      if (b !== undefined) return `${b}.${found.name}`;
    }
  }
  // `(() => {}).constructor`, `(async function () {}).constructor`, `Object.getPrototypeOf(fn).constructor`,
  // `Function.prototype.constructor`: the Function (or AsyncFunction) constructor, which compiles its last argument.
  if (prop === 'constructor' && (base === 'Function.prototype' || isFunctionValue(r, obj, depth))) return 'Function';
  if (base === undefined) return `?.${prop}`;
  // `fs__default.default.readFileSync`, `fs__namespace.readFileSync`, `import_node_fetch.default(…)`: the module's own members.
  if (base.endsWith(INTEROP_MARK)) {
    const mod = base.slice(0, -INTEROP_MARK.length);
    return prop === 'default' ? mod : `${mod}.${prop}`;
  }
  if (GLOBAL_ROOTS.has(base)) return r.moduleAliasOf(prop) ?? prop;
  if (prop === 'constructor' && (base.endsWith('.constructor') || base === 'Function')) return 'Function';
  if (base === 'process.mainModule' && prop === 'require') return 'require';
  if (base === 'module' && prop === 'require') return 'require';
  if ((prop === 'call' || prop === 'apply') && callsThrough(base)) return base;
  return `${base}.${prop}`;
}

/** A function written in place (`() => {}`, `function () {}`, a class) or the prototype of one (`Object.getPrototypeOf(async () => {})`). */
function isFunctionValue(r: Resolve, expr: N | undefined, depth: number): boolean {
  if (expr === undefined || depth > 16) return false;
  if (expr.type === 'ParenthesizedExpression') return isFunctionValue(r, node(expr.expression), depth + 1);
  if (expr.type === 'FunctionExpression' || expr.type === 'ArrowFunctionExpression' || expr.type === 'ClassExpression') return true;
  if (expr.type === 'CallExpression' && /^(?:Object|Reflect)\.getPrototypeOf$/.test(qualifyExpression(r, node(expr.callee), depth + 1) ?? '')) return isFunctionValue(r, nodes(expr.arguments)[0], depth + 1);
  return false;
}

/** esbuild's `__require` shim's factory: a function returning `typeof require … ? require : …`. */
function isRequireShim(fn: N): boolean {
  let f: N | undefined = fn;
  while (f?.type === 'ParenthesizedExpression') f = node(f.expression);
  if (f?.type !== 'ArrowFunctionExpression' && f?.type !== 'FunctionExpression') return false;
  let body = node(f.body);
  if (body?.type === 'BlockStatement') {
    const only = nodes(body.body);
    body = only.length === 1 && only[0]!.type === 'ReturnStatement' ? node(only[0]!.argument) : undefined;
  }
  while (body?.type === 'ParenthesizedExpression') body = node(body.expression);
  if (body?.type !== 'ConditionalExpression') return false;
  const test = node(body.test);
  const operand = test?.type === 'BinaryExpression' ? node(test.left) : undefined;
  const consequent = node(body.consequent);
  return operand?.type === 'UnaryExpression' && operand.operator === 'typeof' && node(operand.argument)?.name === 'require' && consequent?.type === 'Identifier' && consequent.name === 'require';
}
