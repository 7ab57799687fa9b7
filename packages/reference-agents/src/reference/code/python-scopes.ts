import type { SyntaxNode } from '@lezer/common';
import { namedChildren } from './parse-python.js';

/** The names a parameter list binds, in order (not default values: `def f(p, n=DEFAULT)` binds `p` and `n`). */
export function paramNamesOf(list: SyntaxNode, src: (n: SyntaxNode) => string): string[] {
  const out: string[] = [];
  const kids = namedChildren(list);
  for (let i = 0; i < kids.length; i++) {
    // A default value follows `=`: it is not a parameter.
    if (kids[i]!.name === 'AssignOp') i++;
    else if (kids[i]!.name === 'VariableName') out.push(src(kids[i]!));
  }
  return out;
}

/** The function whose body (or parameter list) holds a node: not the one a `def` names, which is bound outside it. */
export function enclosingFunction(n: SyntaxNode): SyntaxNode | null {
  let child = n;
  for (let p = n.parent; p !== null; child = p, p = p.parent) {
    if (p.name === 'FunctionDefinition' && (child.name === 'Body' || child.name === 'ParamList')) return p;
  }
  return null;
}

/** Names kept file-wide: a method's receiver stands for the same object in every method of its class. */
const RECEIVER = /^(?:self|cls)$/;

export interface PythonScopes {
  /** The key data labels of the name at this node (a use or a binding) are kept under. */
  key(n: SyntaxNode): string;
  /** The key of a parameter of a function, as uses inside the function read it. */
  paramKey(fn: SyntaxNode, name: string): string;
}

/**
 * Python's scopes for data labels: a name a function binds (an assignment, a loop, `with … as`, `:=`, a
 * parameter) is the function's own unless it declares it `global` or `nonlocal`; any other name is an
 * enclosing function's that binds it, else the module's. `port` of a free-port helper and `port` of a
 * fixture are two names; `data` of a module and `data` read in a function that never binds it are one.
 */
export function pythonScopes(src: (n: SyntaxNode) => string, bindings: Iterable<SyntaxNode>, paramLists: Iterable<SyntaxNode>, scopeStatements: Iterable<SyntaxNode>): PythonScopes {
  const locals = new Map<number, Set<string>>();
  const bind = (fn: SyntaxNode | null, name: string) => {
    if (fn === null || RECEIVER.test(name)) return;
    let set = locals.get(fn.from);
    if (set === undefined) locals.set(fn.from, (set = new Set()));
    set.add(name);
  };
  for (const b of bindings) bind(enclosingFunction(b), src(b));
  for (const list of paramLists) {
    if (list.parent?.name !== 'FunctionDefinition') continue;
    for (const p of paramNamesOf(list, src)) bind(list.parent, p);
  }
  // `global X` / `nonlocal X`: the function reads and writes the outer name.
  for (const s of scopeStatements) {
    const fn = enclosingFunction(s);
    if (fn === null) continue;
    for (const k of namedChildren(s)) if (k.name === 'VariableName') locals.get(fn.from)?.delete(src(k));
  }
  return {
    key(n) {
      const name = src(n);
      if (locals.size === 0 || RECEIVER.test(name)) return name;
      for (let fn = enclosingFunction(n); fn !== null; fn = enclosingFunction(fn)) {
        if (locals.get(fn.from)?.has(name) === true) return `${fn.from}\u0000${name}`;
      }
      return name;
    },
    paramKey(fn, name) {
      return RECEIVER.test(name) ? name : `${fn.from}\u0000${name}`;
    },
  };
}
