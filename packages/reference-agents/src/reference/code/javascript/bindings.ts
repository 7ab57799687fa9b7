import type { N } from './estree.js';
import type { Scopes } from './scopes.js';

/** A name or member given a value (declarations, assignments, `for … of`, callback parameters), in source order. */
export interface Binding {
  target: N;
  /** The value; for a callback parameter, the call the callback is given to; for a `catch (e)` parameter, the `try` block. */
  init: N | undefined;
  kind: 'value' | 'callback-param' | 'catch-param';
  /** The scope chain the binding is made in. */
  chain: number[];
}

/** A value a named function returns (`return out;`, an arrow's expression body). */
export interface FunctionReturn {
  /** The function's name. */
  name: string;
  /** The scope chain the function's name is declared in (outside the function). */
  outer: number[];
  value: N;
  /** The scope chain inside the function, where `value` is resolved. */
  chain: number[];
}

/** The expression a name was first bound to, as seen from the current scope chain. */
export function valueBoundTo(bindings: readonly Binding[], scopes: Scopes, name: string): N | undefined {
  const key = scopes.key(name);
  const saved = scopes.chain;
  try {
    for (const b of bindings) {
      if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.target.name !== name || b.init === undefined) continue;
      scopes.chain = b.chain;
      if (scopes.key(name) === key) return b.init;
    }
    return undefined;
  } finally {
    scopes.chain = saved;
  }
}
