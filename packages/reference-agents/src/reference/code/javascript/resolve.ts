import type { N } from './estree.js';

/** Set when a folded constant needed decoding (base64, char codes, a reversed array, …). */
export interface FoldState {
  decoded: boolean;
}

/** A search of an object's keys for one constant name (see `keySearch`). */
export interface KeySearch {
  source: 'keys' | 'entries';
  method: string;
  target: N;
  name: string;
}

/**
 * What an expression names and what constant it folds to, looked up in the scope chain current
 * when called (`Scopes.chain`). Folding, qualifying and key searches recurse into one another; each
 * lives in its own module and reaches the others through this interface, which `Resolver` implements.
 */
export interface Resolve {
  /** Folds an expression to a constant string; `state.decoded` is set when decoding was needed. */
  fold(expr: N | undefined, state?: FoldState, depth?: number): string | undefined;
  /** Folds an expression to a constant array of strings (`['a', 'b']`, `'a,b'.split(',')`, `….reverse()`). */
  foldArray(expr: N | undefined, state: FoldState, depth: number): string[] | undefined;
  /** The dotted name an expression stands for (`child_process.exec`), or undefined. */
  qualify(expr: N | undefined, depth?: number): string | undefined;
  /** A member's property name: the identifier, `#private`, or the folded computed key. */
  propertyName(member: N): string | undefined;
  keySearch(call: N): KeySearch | undefined;
  /** The constant array of strings a name is bound to (`const parts = ['ev', 'al']`). */
  arrayOf(name: string, state: FoldState): string[] | undefined;
  /** The constant a name is bound to; sets `state.decoded` when it took decoding to get it. */
  constantOf(name: string, state: FoldState): string | undefined;
  /** What a name stands for (`cp` → `child_process`), when bound to something with a name. */
  aliasOf(name: string): string | undefined;
  /** What a module-level name stands for: `globalThis.x` is the module's `x`. */
  moduleAliasOf(name: string): string | undefined;
  /** A constant another module of the artifact exports, by the qualified name read here (`./consts.S0`). */
  importedConstant(qualified: string): string | undefined;
  /** (round s31) What a call of a small helper of the file gives for constant arguments (`helpers.ts`). */
  helperCall(call: N, state: FoldState, depth: number): string | undefined;
  /** (round s31) The returned expression of the small helper a callee names, with the scope chain inside it. */
  helperResult(callee: N | undefined): { result: N; chain: number[] } | undefined;
}
