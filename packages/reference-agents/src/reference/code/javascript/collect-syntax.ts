import { fullAncestor } from 'acorn-walk';
import type { Node as AcornNode } from 'acorn';
import { SECRET_ENV_NAME, type CodeFacts } from '../code-facts.js';
import { pushInvisiblePayloads } from '../invisible-payload.js';
import { moduleName } from './callee-kinds.js';
import { node, nodes, type N } from './estree.js';
import type { FileContext } from './file-context.js';
import { loopNeverEnds, rotatesStringArray } from './loop-shapes.js';
import { Scopes } from './scopes.js';
import { isFunctionLike, patternNames } from './syntax-shapes.js';

/** A call or `new`, with what the walk knew of its place in the tree. */
export interface CallSite {
  call: N;
  topLevel: boolean;
  /** `f(…).unref()`: the process or timer is let go. */
  unref: boolean;
  chain: number[];
  /** The conditions it runs under (`Gates.guardTests`); empty when the file cannot gate. */
  guards: N[];
  /** Start offsets of the functions it is inside; empty when the file cannot gate. */
  inFunctions: number[];
}

/** A node kept by the walk, to be judged once names are resolved, with the scope chain it is in. */
export interface Deferred {
  n: N;
  chain: number[];
}

/** A named function (a declaration, `const f = (…) => …`, `f = function …`). */
export interface NamedFunction {
  name: string;
  params: string[];
  scope: number;
  /** End offset of the function's node (its start is the map's key). */
  end: number;
  /** (round s31) The function's node, and the scope chain inside it (for reading a small helper in place). */
  node?: N;
  chain?: number[];
}

/** What one walk of the tree collects for the passes after it. */
export interface FileSyntax {
  /** Lines of module-level loops that never end. */
  endless: number[];
  /** `_0x…` names (javascript-obfuscator). */
  mangled: Set<string>;
  /** Names `.unref()` is called on. */
  unrefTargets: Set<string>;
  callSites: CallSite[];
  computedMembers: Deferred[];
  assignments: Deferred[];
  forIns: Deferred[];
  /** Expressions that may fold to a string constant (concatenations, templates, decoder calls). */
  foldCandidates: Deferred[];
  /** `x.NPM_TOKEN`-shaped members, kept to check (once names are resolved) whether `x` is `process.env`. */
  envMembers: (Deferred & { name: string })[];
  /** Named functions by start offset, to find ones that send or write their parameters. */
  functions: Map<number, NamedFunction>;
  /** Functions that work character by character (`fromCharCode`, `charCodeAt`): hand-written decoders. */
  decoderStarts: Set<number>;
}

const NO_GUARDS: N[] = [];
const NO_STARTS: number[] = [];

/**
 * Walks the tree once: declares every name in its scope, records imports, literal strings,
 * obfuscation shapes and endless loops in `facts`, and collects bindings (into `ctx.bindings`),
 * calls and the other nodes the later passes judge. Names are not resolved yet: only imports alias.
 */
export function collectSyntax(ctx: FileContext, program: N, facts: CodeFacts): FileSyntax {
  const { scopes, r, lineOf, gates, bindings } = ctx;
  const syntax: FileSyntax = {
    endless: [],
    mangled: new Set(),
    unrefTargets: new Set(),
    callSites: [],
    computedMembers: [],
    assignments: [],
    forIns: [],
    foldCandidates: [],
    envMembers: [],
    functions: new Map(),
    decoderStarts: new Set(),
  };
  const { functions, foldCandidates } = syntax;
  let firstMangled = Number.MAX_SAFE_INTEGER;

  fullAncestor(program as unknown as AcornNode, (raw, _state, ancestors) => {
    const n = raw as unknown as N;
    const parents = ancestors as unknown as N[];
    if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') {
      for (const p of nodes(n.params)) for (const name of patternNames(p)) scopes.declare(n.start, name);
      const id = node(n.id);
      if (id !== undefined && n.type === 'FunctionDeclaration') scopes.declare(scopes.of(parents, parents.length - 1)[0]!, id.name as string);
      const holder = parents[parents.length - 2];
      const fname = id?.name ?? (holder?.type === 'VariableDeclarator' ? node(holder.id)?.name : holder?.type === 'AssignmentExpression' ? node(holder.left)?.name : undefined);
      if (typeof fname === 'string') functions.set(n.start, { name: fname, params: nodes(n.params).flatMap((p) => patternNames(p)), scope: scopes.of(parents, parents.length - 1)[0] ?? 0, end: n.end, node: n, chain: scopes.of([...parents]) });
      const body = node(n.body);
      if (typeof fname === 'string' && n.type === 'ArrowFunctionExpression' && body !== undefined && body.type !== 'BlockStatement') {
        ctx.returns.push({ name: fname, outer: scopes.of(parents, parents.length - 1), value: body, chain: scopes.of([...parents]) });
      }
    }
    // `return out;` of a named function: what its callers receive (a decoder in one function, the
    // eval of its result in another).
    if (n.type === 'ReturnStatement' && node(n.argument) !== undefined) {
      let i = parents.length - 2;
      while (i >= 0 && !(isFunctionLike(parents[i]!) && parents[i]!.type !== 'ClassBody')) i--;
      const fn = i >= 0 ? parents[i]! : undefined;
      const holder = i >= 1 ? parents[i - 1] : undefined;
      const fname = fn === undefined ? undefined : (node(fn.id)?.name ?? (holder?.type === 'VariableDeclarator' ? node(holder.id)?.name : undefined));
      if (fn !== undefined && typeof fname === 'string') ctx.returns.push({ name: fname, outer: scopes.of(parents, i), value: node(n.argument)!, chain: scopes.of(parents, i + 1) });
    }
    switch (n.type) {
      case 'ImportDeclaration': {
        const spec = moduleName(String((node(n.source)?.value as string | undefined) ?? ''));
        facts.imports.push({ module: spec, line: lineOf(n.start) });
        for (const s of nodes(n.specifiers)) {
          const local = node(s.local)?.name as string | undefined;
          if (local === undefined) continue;
          scopes.declare(0, local);
          if (s.type === 'ImportSpecifier') {
            const imported = node(s.imported);
            const importedName = imported === undefined ? local : ((imported.name ?? imported.value) as string);
            r.aliases.set(Scopes.moduleKey(local), importedName === 'default' ? spec : `${spec}.${importedName}`);
          } else r.aliases.set(Scopes.moduleKey(local), spec);
        }
        break;
      }
      case 'VariableDeclarator': {
        const chain = scopes.of(parents);
        for (const name of patternNames(node(n.id))) scopes.declare(chain[0]!, name);
        bindings.push({ target: node(n.id)!, init: node(n.init), kind: 'value', chain });
        break;
      }
      case 'AssignmentExpression': {
        const chain = scopes.of(parents);
        syntax.assignments.push({ n, chain });
        if (n.operator === '=' || n.operator === '+=') bindings.push({ target: node(n.left)!, init: node(n.right), kind: 'value', chain });
        // `ws.onmessage = (ev) => …`: the handler's parameters carry what arrives, as `ws.on('message', …)`'s do.
        const left = node(n.left);
        const handler = node(n.right);
        if (left?.type === 'MemberExpression' && /^on(?:message|data)$/.test(String(node(left.property)?.name ?? '')) && (handler?.type === 'FunctionExpression' || handler?.type === 'ArrowFunctionExpression')) {
          const call = { type: 'CallExpression', callee: left, arguments: [], start: n.start, end: n.end } as unknown as N;
          for (const p of nodes(handler.params)) bindings.push({ target: p, init: call, kind: 'callback-param', chain: [handler.start, ...chain] });
        }
        break;
      }
      case 'CatchClause': {
        // `try { await fetch(u) } catch (e) { … e.response … }`: the error of a request carries its response,
        // in the clause only: its labels are kept to the clause's range (`DataLabels.declareCatchParam`),
        // so another `e` of the function, or of another clause, is another value.
        const param = node(n.param);
        const tryBlock = node(parents[parents.length - 2]?.block);
        if (param?.type === 'Identifier' && tryBlock !== undefined) {
          const chain = scopes.of(parents);
          ctx.labels.declareCatchParam(param, n, chain);
          bindings.push({ target: param, init: tryBlock, kind: 'catch-param', chain });
        }
        break;
      }
      case 'CallExpression':
      case 'NewExpression': {
        const parent = parents[parents.length - 2];
        const unref = parent?.type === 'MemberExpression' && parent.object === raw && r.propertyName(parent) === 'unref';
        const chain = scopes.of(parents);
        syntax.callSites.push({ call: n, topLevel: !parents.some(isFunctionLike), unref, chain, guards: gates.possible ? gates.guardTests(parents) : NO_GUARDS, inFunctions: gates.possible ? parents.filter(isFunctionLike).map((p) => p.start) : NO_STARTS });
        const member = node(n.callee);
        if (member?.type === 'MemberExpression' && /^(fromCharCode|fromCodePoint|charCodeAt|codePointAt)$/.test(String(node(member.property)?.name ?? ''))) {
          for (const p of parents) if (p.type === 'FunctionDeclaration' || p.type === 'FunctionExpression' || p.type === 'ArrowFunctionExpression') syntax.decoderStarts.add(p.start);
        }
        for (const a of nodes(n.arguments)) {
          if (a.type === 'FunctionExpression' || a.type === 'ArrowFunctionExpression') {
            for (const p of nodes(a.params)) bindings.push({ target: p, init: n, kind: 'callback-param', chain: [a.start, ...chain] });
          }
        }
        const callee = node(n.callee);
        // `list.push(x)`, `form.append(k, x)`: the container now carries x.
        if (callee?.type === 'MemberExpression' && /^(push|unshift|append|add|set)$/.test(String(node(callee.property)?.name ?? '')) && node(callee.object)?.type === 'Identifier') {
          for (const a of nodes(n.arguments)) bindings.push({ target: node(callee.object)!, init: a, kind: 'value', chain });
        }
        if (callee?.type === 'MemberExpression' && /^(join|replace|toString|fromCharCode)$/.test(String(node(callee.property)?.name ?? ''))) foldCandidates.push({ n, chain });
        else if (callee?.type === 'Identifier' && /^(atob|unescape|decodeURIComponent)$/.test(callee.name as string)) foldCandidates.push({ n, chain });
        // (round s31) A call of a function of the file on arguments: read when the function is a small helper (deferred-facts).
        else if (callee?.type === 'Identifier' && n.type === 'CallExpression' && nodes(n.arguments).length > 0) foldCandidates.push({ n, chain });
        if (callee?.type === 'MemberExpression' && r.propertyName(callee) === 'unref') {
          const obj = node(callee.object);
          if (obj?.type === 'Identifier') syntax.unrefTargets.add(obj.name as string);
        }
        if (callee?.type === 'Identifier' && (callee.name === 'require' || callee.name === 'import')) {
          const spec = r.fold(nodes(n.arguments)[0]);
          if (spec !== undefined) facts.imports.push({ module: moduleName(spec), line: lineOf(n.start) });
        }
        break;
      }
      case 'ImportExpression': {
        const spec = r.fold(node(n.source));
        if (spec !== undefined) facts.imports.push({ module: moduleName(spec), line: lineOf(n.start) });
        break;
      }
      case 'MemberExpression': {
        if (n.computed === true && node(n.property)?.type !== 'Literal') syntax.computedMembers.push({ n, chain: scopes.of(parents) });
        const prop = node(n.property);
        const envName = prop?.type === 'Identifier' && n.computed !== true ? (prop.name as string) : prop?.type === 'Literal' ? String(prop.value) : undefined;
        if (envName !== undefined && SECRET_ENV_NAME.test(envName)) syntax.envMembers.push({ n, name: envName, chain: scopes.of(parents) });
        break;
      }
      case 'Identifier':
        if (/^_0x[0-9a-f]{3,}$/i.test(n.name as string)) {
          syntax.mangled.add(n.name as string);
          if (facts.mangledFirstLine === null || n.start < firstMangled) {
            firstMangled = n.start;
            facts.mangledFirstLine = lineOf(n.start);
          }
        }
        break;
      case 'Literal':
        if (typeof n.value === 'string' && n.value.length >= 4) {
          facts.strings.push({ value: n.value, line: lineOf(n.start), decoded: false });
          pushInvisiblePayloads(facts.strings, n.value, lineOf(n.start));
        }
        break;
      case 'TemplateLiteral':
        if (nodes(n.expressions).length === 0) {
          // A template without substitutions is a string literal written with backquotes (often a whole script).
          const only = (nodes(n.quasis)[0]?.value as { cooked?: string | null } | undefined)?.cooked;
          if (typeof only === 'string' && only.length >= 4) {
            facts.strings.push({ value: only, line: lineOf(n.start), decoded: false });
            pushInvisiblePayloads(facts.strings, only, lineOf(n.start));
          }
        } else {
          foldCandidates.push({ n, chain: scopes.of(parents) });
          // `https://registry.npmjs.org/${pkg}/…`: the host is constant even when the path is not.
          const head = (nodes(n.quasis)[0]?.value as { cooked?: string | null } | undefined)?.cooked;
          if (typeof head === 'string' && /^(https?|wss?|ftp):\/\/[\w.-]+\.[a-z]{2,}(:\d+)?\//i.test(head)) facts.strings.push({ value: head, line: lineOf(n.start), decoded: false });
        }
        break;
      case 'BinaryExpression': {
        // Only the outermost `+` of a chain: folding each inner one again would be quadratic.
        const parent = parents[parents.length - 2];
        if (n.operator === '+' && !(parent?.type === 'BinaryExpression' && parent.operator === '+')) foldCandidates.push({ n, chain: scopes.of(parents) });
        break;
      }
      case 'ForInStatement':
        syntax.forIns.push({ n, chain: scopes.of(parents) });
        break;
      case 'ForOfStatement': {
        const left = node(n.left);
        const target = left?.type === 'VariableDeclaration' ? node(nodes(left.declarations)[0]?.id) : left;
        if (target !== undefined) bindings.push({ target, init: node(n.right), kind: 'value', chain: scopes.of(parents) });
        break;
      }
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'ForStatement':
        if (!parents.some(isFunctionLike) && loopNeverEnds(n)) syntax.endless.push(lineOf(n.start));
        if (rotatesStringArray(n)) facts.stringArrayRotations.push(lineOf(n.start));
        break;
      default:
        break;
    }
  });
  return syntax;
}
