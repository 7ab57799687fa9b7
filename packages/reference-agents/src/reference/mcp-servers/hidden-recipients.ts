import { pythonSourceOf } from './python-source-cache.js';
import type { SyntaxNode } from '../skills/python-source.js';
import { parseJs, scopeOf, walkJs, type JsNode, type JsScope } from '../skills/js-source.js';
import type { ScriptFact, ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';

const ADDRESS = /^[^@\s'"`]+@[\w-]+(?:\.[\w-]+)+$/;
const BCC_KEY = /^bcc$/i;

/** Every constant a JavaScript value can be: both sides of `a || b` and `c ? d : e`, each element of an array. */
/** `a.b.c` for a chain of plain names, else null. */
function dottedPath(node: JsNode): string | null {
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'MemberExpression' && !node.computed && (node.property as JsNode).type === 'Identifier') {
    const base = dottedPath(node.object as JsNode);
    return base === null ? null : `${base}.${(node.property as JsNode).name as string}`;
  }
  return null;
}

let imported: ReadonlyMap<string, string> = new Map();
/** What each function of the module returns (its `return` values, an arrow's body), by name. */
let localReturns: ReadonlyMap<string, JsNode[]> = new Map();

function returnedValues(fn: JsNode): JsNode[] {
  const body = fn.body as JsNode;
  if (body.type !== 'BlockStatement') return [body];
  const out: JsNode[] = [];
  walkJs(body, (n) => {
    if (n.type === 'ReturnStatement' && n.argument && innermostFunction(body, n) === null) out.push(n.argument as JsNode);
  });
  return out;
}

/** A function nested in `body` that holds `target` (its returns are not the outer function's), or null. */
function innermostFunction(body: JsNode, target: JsNode): JsNode | null {
  let found: JsNode | null = null;
  walkJs(body, (n) => {
    if (n !== body && /Function/.test(n.type) && n.start <= target.start && target.end <= n.end) found = n;
  });
  return found;
}

function jsValues(node: JsNode | null | undefined, scope: JsScope, inits: ReadonlyMap<string, JsNode>, depth = 0): string[] {
  if (!node || depth > 6) return [];
  // A name bound to a call the scope does not treat as a constant (`[a, b].join('@')`): fold its initializer.
  if (node.type === 'Identifier' && scope.fold(node) === null && inits.has(node.name as string)) return jsValues(inits.get(node.name as string), scope, inits, depth + 1);
  if (node.type === 'LogicalExpression') return [...jsValues(node.left as JsNode, scope, inits, depth + 1), ...jsValues(node.right as JsNode, scope, inits, depth + 1)];
  if (node.type === 'ConditionalExpression') return [...jsValues(node.consequent as JsNode, scope, inits, depth + 1), ...jsValues(node.alternate as JsNode, scope, inits, depth + 1)];
  if (node.type === 'ArrayExpression') return (node.elements as Array<JsNode | null>).flatMap((e) => jsValues(e, scope, inits, depth + 1));
  // `list.join(', ')`: the values of the list; `archive()`: what an imported function returns;
  // `settings.retention.copies`: a field of an imported object.
  if (node.type === 'CallExpression') {
    const callee = node.callee as JsNode;
    // (`['copy', 'host.example'].join('@')` folds whole: one address, not its parts.)
    if (callee.type === 'MemberExpression' && scope.propertyName(callee.property as JsNode, Boolean(callee.computed)) === 'join') return scope.fold(node)?.split(/[,;]\s*/) ?? jsValues(callee.object as JsNode, scope, inits, depth + 1);
    const path = dottedPath(callee);
    if (path !== null && imported.has(`${path}()`)) return imported.get(`${path}()`)!.split(/[,;]\s*/);
    // `archiveCopy()`: what a function of the same module returns, each `return` read as above.
    if (callee.type === 'Identifier' && localReturns.has(callee.name as string)) return localReturns.get(callee.name as string)!.flatMap((r) => jsValues(r, scope, inits, depth + 1));
  }
  if (node.type === 'MemberExpression') {
    const path = dottedPath(node);
    if (path !== null && imported.has(path)) return imported.get(path)!.split(/[,;]\s*/);
  }
  const folded = scope.fold(node);
  return folded === null ? [] : folded.split(/[,;]\s*/);
}

/**
 * Bcc recipients fixed in code through a name: `Bcc: ARCHIVE` with `const ARCHIVE = 'x@host'`,
 * `msg.bcc = COPY`, `msg["Bcc"] = COPY`, `bcc=COPY`, `{"bcc": COPY}` (constants folded across
 * assignments, `a || b` and `c ? d : e` read as both values). The literal form is a script fact
 * already; this finds the one a named constant hides.
 */
export function hiddenRecipientFacts(text: string, language: ScriptLanguage, importedValues: ReadonlyMap<string, string> = new Map()): ScriptFact[] {
  const facts: ScriptFact[] = [];
  const lineAt = lineLocator(text);
  const add = (from: number, to: number, value: string) => facts.push({ kind: 'hardcoded-bcc', line: lineAt(from), evidence: `${text.slice(from, Math.min(to, from + 160))} = ${value}` });
  if (language === 'javascript' || language === 'typescript') {
    const root = parseJs(text, language === 'typescript');
    const scope = scopeOf(root);
    scope.setImported(importedValues);
    imported = importedValues;
    const inits = new Map<string, JsNode>();
    const returns = new Map<string, JsNode[]>();
    walkJs(root, (node) => {
      if (node.type === 'VariableDeclarator' && (node.id as JsNode).type === 'Identifier' && node.init && !inits.has((node.id as JsNode).name as string)) inits.set((node.id as JsNode).name as string, node.init as JsNode);
      if (node.type === 'FunctionDeclaration' && (node.id as JsNode | null)?.name && !returns.has((node.id as JsNode).name as string)) returns.set((node.id as JsNode).name as string, returnedValues(node));
      else if (node.type === 'VariableDeclarator' && (node.id as JsNode).type === 'Identifier' && /^(?:Arrow)?FunctionExpression$/.test((node.init as JsNode | null)?.type ?? '') && !returns.has((node.id as JsNode).name as string)) returns.set((node.id as JsNode).name as string, returnedValues(node.init as JsNode));
    });
    localReturns = returns;
    walkJs(root, (node) => {
      let key: string | null = null;
      let value: JsNode | null = null;
      if (node.type === 'Property') [key, value] = [scope.propertyName(node.key as JsNode, Boolean(node.computed)), node.value as JsNode];
      else if (node.type === 'AssignmentExpression' && (node.left as JsNode).type === 'MemberExpression') {
        const left = node.left as JsNode;
        [key, value] = [scope.propertyName(left.property as JsNode, Boolean(left.computed)), node.right as JsNode];
      }
      if (key === null || value === null || !BCC_KEY.test(key) || value.type === 'Literal') return;
      const address = jsValues(value, scope, inits).find((v) => ADDRESS.test(v.trim()));
      if (address !== undefined) add(node.start, node.end, address);
    });
    return facts;
  }
  if (language !== 'python') return facts;
  const src = pythonSourceOf(text);
  src.setImported(importedValues);
  // What each function of the module returns (`def _archive(): return "@".join([...])`), by name.
  const pyReturns = new Map<string, SyntaxNode[]>();
  const walker = src.tree.cursor();
  do {
    if (walker.name !== 'ReturnStatement') continue;
    let fn = walker.node.parent;
    while (fn && fn.name !== 'FunctionDefinition') fn = fn.parent;
    const name = fn?.getChild('VariableName');
    const value = walker.node.lastChild;
    if (!name || !value || value.name === 'return') continue;
    pyReturns.set(src.slice(name), [...(pyReturns.get(src.slice(name)) ?? []), value]);
  } while (walker.next());
  const constant = (node: SyntaxNode | null | undefined, depth = 0): string | null => {
    if (!node || node.name === 'String' || depth > 4) return null;
    if (node.name === 'BinaryExpression' && /\bor\b/.test(src.slice(node))) return constant(node.firstChild, depth + 1) ?? constant(node.lastChild, depth + 1);
    // `_archive()`: a call of a function of the same module, read as what it returns.
    const callee = node.name === 'CallExpression' ? node.firstChild : null;
    if (callee?.name === 'VariableName' && pyReturns.has(src.slice(callee))) {
      for (const r of pyReturns.get(src.slice(callee))!) {
        const v = r.name === 'String' ? src.fold(r) : constant(r, depth + 1);
        if (v !== null && ADDRESS.test(v.trim())) return v;
      }
      return null;
    }
    const v = src.fold(node);
    return v !== null && ADDRESS.test(v.trim()) ? v : null;
  };
  const cursor = src.tree.cursor();
  do {
    const node = cursor.node;
    if (node.name === 'AssignStatement') {
      const target = node.firstChild;
      // `msg["Bcc"]` and `msg.bcc` are both MemberExpressions in @lezer/python.
      const index = target?.name === 'MemberExpression' ? target.getChild('String') : null;
      const attr = target?.name === 'MemberExpression' ? target.getChild('PropertyName') : null;
      const key = index ? src.fold(index) : attr ? src.slice(attr) : null;
      const value = constant(node.lastChild);
      if (key !== null && BCC_KEY.test(key) && value !== null) add(node.from, node.to, value);
    } else if (node.name === 'CallExpression') {
      for (const arg of src.args(node)) {
        // `send_message(msg, to_addrs=[to, ARCHIVE])`: an envelope recipient the headers never show,
        // next to the ones the caller chose (a list of fixed addresses alone is a fixed destination).
        if (arg.keyword !== null && /^to_addrs$/.test(arg.keyword) && arg.value?.name === 'ArrayExpression') {
          const items: SyntaxNode[] = [];
          for (let c = arg.value.firstChild; c; c = c.nextSibling) if (/^[A-Z]/.test(c.name)) items.push(c);
          const fixed = items.map((i) => constant(i)).find((v) => v !== null);
          if (fixed && items.some((i) => constant(i) === null && src.fold(i) === null)) add(node.from, node.to, fixed);
          continue;
        }
        if (arg.keyword === null || !BCC_KEY.test(arg.keyword)) continue;
        const value = constant(arg.value);
        if (value !== null) add(node.from, node.to, value);
      }
    } else if (node.name === 'DictionaryExpression') {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        const colon = c.nextSibling;
        const value = colon?.nextSibling;
        if (c.name !== 'String' || colon?.name !== ':' || !BCC_KEY.test(src.fold(c) ?? '')) continue;
        const v = constant(value);
        if (v !== null) add(c.from, value?.to ?? c.to, v);
      }
    }
  } while (cursor.next());
  return facts;
}
