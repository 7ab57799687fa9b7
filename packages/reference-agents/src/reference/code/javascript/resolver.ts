import type { N } from './estree.js';
import { foldArray, foldExpression } from './fold.js';
import { helperCall, helperResult, type Helper } from './helpers.js';
import { propertyName, qualifyExpression } from './qualify.js';
import { keySearch } from './reflection.js';
import type { FoldState, KeySearch, Resolve } from './resolve.js';
import { Scopes } from './scopes.js';

/**
 * The names and constants of one file, keyed by `Scopes.key`: filled by the walk (imports) and the
 * binding fixpoint, read by everything that resolves an expression.
 */
export class Resolver implements Resolve {
  /** What a binding stands for: `const cp = require('child_process')` makes `cp` → `child_process`. */
  readonly aliases = new Map<string, string>();
  /** The constant string a binding holds. */
  readonly constants = new Map<string, string>();
  /** The constant array a binding holds (strings; numbers as their text). */
  readonly arrays = new Map<string, string[]>();
  /** Bindings whose constant took decoding to get. */
  readonly decodedConstants = new Set<string>();
  /** (round s31) Small helpers of the file by the key of their name (null when the key is bound twice). */
  readonly helpers = new Map<string, Helper | null>();
  /** Helpers being read in place now (by start offset): a helper met again is not read. */
  readonly inlining = new Set<number>();
  /** (round s31) Keys of the file's functions that decode character by character (`fromCharCode`, `charCodeAt`). */
  readonly decoderFunctions = new Set<string>();
  /** (round s31) What outermost calls of decoding helpers gave, by helper, names bound so far and argument values. */
  readonly helperResults = new Map<string, { value: string | undefined; decoded: boolean }>();

  constructor(
    private readonly scopes: Scopes,
    /** Constants of the artifact's other modules, by qualified name (`common/linked-constants.ts`). */
    private readonly imported: ReadonlyMap<string, string> = new Map(),
    /** Thin wrappers of the artifact's other modules: the call each one makes (`./util.run` → `child_process.exec`). */
    private readonly wrappers: ReadonlyMap<string, string> = new Map(),
  ) {}

  importedConstant(qualified: string): string | undefined {
    return this.imported.get(qualified);
  }

  helperCall(call: N, state: FoldState, depth: number): string | undefined {
    return helperCall(this, this.scopes, call, state, depth);
  }

  helperResult(callee: N | undefined): { result: N; chain: number[] } | undefined {
    return helperResult(this, this.scopes, callee);
  }

  fold(expr: N | undefined, state: FoldState = { decoded: false }, depth = 0): string | undefined {
    return foldExpression(this, expr, state, depth);
  }

  foldArray(expr: N | undefined, state: FoldState, depth: number): string[] | undefined {
    return foldArray(this, expr, state, depth);
  }

  qualify(expr: N | undefined, depth = 0): string | undefined {
    const q = qualifyExpression(this, expr, depth);
    return q === undefined || this.wrappers.size === 0 ? q : (this.wrappers.get(q) ?? q);
  }

  propertyName(member: N): string | undefined {
    return propertyName(this, member);
  }

  keySearch(call: N): KeySearch | undefined {
    return keySearch(this, call);
  }

  constantOf(name: string, state: FoldState): string | undefined {
    const key = this.scopes.key(name);
    const value = this.constants.get(key);
    if (value !== undefined && this.decodedConstants.has(key)) state.decoded = true;
    if (value !== undefined) return value;
    // `import { S0 } from './consts.js'`: the name stands for `./consts.js.S0`, a constant there.
    const alias = this.aliases.get(key);
    return alias === undefined ? undefined : this.imported.get(alias);
  }

  arrayOf(name: string, state: FoldState): string[] | undefined {
    const key = this.scopes.key(name);
    const value = this.arrays.get(key);
    if (value !== undefined && this.decodedConstants.has(key)) state.decoded = true;
    return value;
  }

  aliasOf(name: string): string | undefined {
    return this.aliases.get(this.scopes.key(name));
  }

  moduleAliasOf(name: string): string | undefined {
    return this.aliases.get(Scopes.moduleKey(name));
  }
}
