import type { N } from './estree.js';
import { isFunctionLike } from './syntax-shapes.js';

/** The module scope: names declared outside every function, and the key prefix of module-level bindings. */
const MODULE = 0;
const MODULE_CHAIN = [MODULE];

/**
 * Names are resolved per function scope (minified code reuses one-letter names everywhere): a
 * binding belongs to the innermost enclosing function that declares the name, else the module. A
 * scope is the start offset of its function; a chain is the enclosing scopes, innermost first.
 */
export class Scopes {
  private readonly declared = new Map<number, Set<string>>();
  // The chain of each function, cached so a deep tree does not rebuild it for every call and binding.
  private readonly chainCache = new Map<number, number[]>();
  /**
   * The chain names are looked up in. Each pass sets it to the chain of the node it is looking at
   * before resolving anything there; the walk that declares names leaves it at the module.
   */
  chain: number[] = [MODULE];

  declare(scope: number, name: string): void {
    const set = this.declared.get(scope) ?? new Set<string>();
    set.add(name);
    this.declared.set(scope, set);
  }

  /** The key of the binding a name refers to from `at`: its declaring scope (the module when none), then the name. */
  key(name: string, at: number[] = this.chain): string {
    return `${at.find((s) => this.declared.get(s)?.has(name) === true) ?? MODULE}\u0000${name}`;
  }

  /** The key of a module-level binding (imports, globals assigned through `global.x = …`). */
  static moduleKey(name: string): string {
    return `${MODULE}\u0000${name}`;
  }

  /** The chain of function scopes enclosing a node whose ancestors are `parents[0 … end - 1]`. */
  of(parents: N[], end = parents.length): number[] {
    for (let i = end - 1; i >= 0; i--) {
      const p = parents[i]!;
      if (!isFunctionLike(p) || p.type === 'ClassBody') continue;
      let cached = this.chainCache.get(p.start);
      if (cached === undefined) {
        cached = [p.start, ...this.of(parents, i)];
        this.chainCache.set(p.start, cached);
      }
      return cached;
    }
    return MODULE_CHAIN;
  }
}
