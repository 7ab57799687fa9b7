import { importedConstantsOf, importedWrappersOf } from '../../common/linked-constants-store.js';
import { lineIndex } from '../line-index.js';
import { valueBoundTo, type Binding, type FunctionReturn } from './bindings.js';
import { DataLabels } from './data-labels.js';
import type { N } from './estree.js';
import { Gates } from './gates.js';
import { Resolver } from './resolver.js';
import { Scopes } from './scopes.js';

/** What every step of one file's analysis shares: its text, scopes, names, labels and bindings. */
export interface FileContext {
  text: string;
  lineOf: (offset: number) => number;
  scopes: Scopes;
  r: Resolver;
  labels: DataLabels;
  /** Filled by the walk, in source order. */
  bindings: Binding[];
  /** What named functions return (filled by the walk): a call of the function carries its labels. */
  returns: FunctionReturn[];
  gates: Gates;
  /** The expression a name was first bound to, as seen from the current scope chain. */
  boundTo: (name: string) => N | undefined;
}

export function fileContext(text: string): FileContext {
  const scopes = new Scopes();
  const r = new Resolver(scopes, importedConstantsOf(text), importedWrappersOf(text));
  const bindings: Binding[] = [];
  return {
    text,
    lineOf: lineIndex(text),
    scopes,
    r,
    labels: new DataLabels(text, r, scopes),
    bindings,
    returns: [],
    gates: new Gates(text, bindings),
    boundTo: (name) => valueBoundTo(bindings, scopes, name),
  };
}
