import { STRING_ENCODINGS, type StringEncoding } from './encode-string.js';
import { aliasModulesJs, dynamicNamesJs, encodeStringsJs, liftStringsJs, renameIdentifiersJs, wrapSinksJs } from './js-variants.js';
import { aliasModulesPy, dynamicNamesPy, encodeStringsPy, liftStringsPy, renameIdentifiersPy, wrapSinksPy } from './py-variants.js';
import type { FileContext, FileRewrite } from './variant-context.js';

/** A behaviour-preserving rewrite of a sample's code files. */
export interface Transformation {
  id: string;
  /**
   * Semantic: it moves or renames code without hiding a value (b, d, e); a benign look-alike must
   * stay unflagged under it. The others (string encodings, names built at run time) are what
   * obfuscation looks like, so a reader may reasonably grow suspicious of them.
   */
  semantic: boolean;
  js: (ctx: FileContext) => FileRewrite;
  py: (ctx: FileContext) => FileRewrite;
}

const encoding = (how: StringEncoding): Transformation => ({
  id: `a-${how}`,
  semantic: false,
  js: (ctx) => encodeStringsJs(ctx, how),
  py: (ctx) => encodeStringsPy(ctx, how),
});

export const TRANSFORMATIONS: readonly Transformation[] = [
  ...STRING_ENCODINGS.map(encoding),
  { id: 'b-lift-constants', semantic: true, js: liftStringsJs, py: liftStringsPy },
  { id: 'c-alias-imports', semantic: false, js: aliasModulesJs, py: aliasModulesPy },
  { id: 'c-dynamic-names', semantic: false, js: dynamicNamesJs, py: dynamicNamesPy },
  { id: 'd-wrap-calls', semantic: true, js: wrapSinksJs, py: wrapSinksPy },
  { id: 'e-rename', semantic: true, js: renameIdentifiersJs, py: renameIdentifiersPy },
];
