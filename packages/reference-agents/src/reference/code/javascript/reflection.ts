import { node, nodes, type N } from './estree.js';
import type { KeySearch, Resolve } from './resolve.js';

// Ways code reaches a function without writing its name as a property.

/**
 * `Object.keys(x).find((k) => k === 'name')`, `Object.getOwnPropertyNames(x).find(…)`,
 * `Object.entries(x).find(([k]) => k === 'name')` / `.filter(…)`: a search of an object's keys
 * for one constant name, which is a way of writing `x.name` without the name as a property.
 */
export function keySearch(r: Resolve, call: N): KeySearch | undefined {
  const callee = node(call.callee);
  if (callee?.type !== 'MemberExpression') return undefined;
  const method = r.propertyName(callee);
  if (method !== 'find' && method !== 'filter') return undefined;
  const list = node(callee.object);
  if (list?.type !== 'CallExpression') return undefined;
  const lister = r.qualify(node(list.callee));
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
  const [l, rhs] = [node(body.left), node(body.right)];
  const other = l?.type === 'Identifier' && l.name === key.name ? rhs : rhs?.type === 'Identifier' && rhs.name === key.name ? l : undefined;
  const name = other === undefined || (other.type === 'Identifier' && other.name === key.name) ? undefined : r.fold(other);
  return name === undefined ? undefined : { source, method, target, name };
}

/**
 * How a callee reaches its function when it does so indirectly: a constant computed member
 * (`cp['spawn']`, `cp[name]`), reflection (`Reflect.get`, a property descriptor's `value`), a key
 * search, possibly behind `.call`/`.apply`/`.bind(…)`. Undefined for a plain `a.b` or `f`.
 */
export function indirection(r: Resolve, callee: N | undefined, depth = 0): string | undefined {
  if (callee === undefined || depth > 8) return undefined;
  if (callee.type === 'ParenthesizedExpression' || callee.type === 'ChainExpression') return indirection(r, node(callee.expression), depth + 1);
  if (callee.type === 'CallExpression') {
    const fn = node(callee.callee);
    if (r.qualify(fn) === 'Reflect.get') return 'Reflect.get';
    if (fn?.type === 'MemberExpression' && r.propertyName(fn) === 'bind') return indirection(r, node(fn.object), depth + 1);
    return undefined;
  }
  if (callee.type !== 'MemberExpression') return undefined;
  const obj = node(callee.object);
  const prop = r.propertyName(callee);
  if (callee.computed !== true) {
    if (prop === 'call' || prop === 'apply') return indirection(r, obj, depth + 1);
    if (prop === 'value' && obj?.type === 'CallExpression' && r.qualify(node(obj.callee)) === 'Object.getOwnPropertyDescriptor') return 'property descriptor';
    return undefined;
  }
  const key = node(callee.property);
  if (key?.type === 'CallExpression' && keySearch(r, key) !== undefined) return 'key search';
  if (prop === '1' && obj !== undefined && (obj.type === 'CallExpression' || obj.type === 'MemberExpression')) return 'key search';
  return prop === undefined ? undefined : 'computed member';
}
