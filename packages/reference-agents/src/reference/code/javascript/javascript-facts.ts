import { emptyFacts, type CodeFacts } from '../code-facts.js';
import { parseJavaScript } from '../parse-javascript.js';
import { addCallFacts } from './call-facts.js';
import { collectSyntax } from './collect-syntax.js';
import { addDeferredFacts } from './deferred-facts.js';
import type { N } from './estree.js';
import { fileContext } from './file-context.js';
import { collectHelpers } from './helpers.js';
import { resolveBindings } from './resolve-bindings.js';
import { followWrappers } from './wrappers.js';

/**
 * The facts of one JavaScript or TypeScript file (see code-facts.ts). Never executes anything: it parses with
 * acorn (loose as a fallback) and walks the tree.
 *
 * The passes, each in its own module: one walk collects declarations, bindings, calls and literal
 * facts (collect-syntax); the bindings are resolved to aliases, constants and data labels
 * (resolve-bindings); each call becomes a fact (call-facts); wrappers pass effects to their callers
 * (wrappers); what needed resolved names is judged last (deferred-facts).
 */
export function javascriptFacts(text: string, options: { typescript?: boolean } = {}): CodeFacts {
  const facts = emptyFacts('javascript');
  const parsed = parseJavaScript(text, options.typescript === true);
  if (parsed === null) return facts;
  facts.parse = parsed.mode;
  const ctx = fileContext(text);
  const syntax = collectSyntax(ctx, parsed.program as unknown as N, facts);
  collectHelpers(ctx.r, syntax.functions, syntax.decoderStarts);
  ctx.labels.decoderNames = new Set([...syntax.functions].filter(([start]) => syntax.decoderStarts.has(start)).map(([, f]) => `${f.scope}\u0000${f.name}`));
  resolveBindings(ctx, facts);
  facts.mangledIdentifiers = syntax.mangled.size;
  facts.endlessTopLevelLoops = syntax.endless;
  addCallFacts(ctx, syntax, facts);
  followWrappers(ctx, syntax, facts);
  addDeferredFacts(ctx, syntax, facts);
  return facts;
}
