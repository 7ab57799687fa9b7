import { CREDENTIAL_PATH, SECRET_ENV_NAME, SIGNING_SECRET_ENV_NAME, type CodeFacts, type DataLabel } from '../code-facts.js';
import { GLOBAL_ROOTS, isNetworkCallee } from './callee-kinds.js';
import { childNodes, node, nodes, type N } from './estree.js';
import type { FileContext } from './file-context.js';
import { argStrings } from './fold.js';
import { Scopes } from './scopes.js';
import { patternNames } from './syntax-shapes.js';

/** The fixpoint's bound: each round is a pass over every binding of the file, and bundles have many. */
const ROUNDS = 3;

/**
 * Gives every binding its alias, constant and data labels, repeating until nothing changes (or
 * `ROUNDS`): `const a = require('child_' + p); const b = a;` needs `p` before `a` and `a` before `b`.
 * Secret environment names taken by destructuring `process.env` are recorded in `facts`.
 */
export function resolveBindings(ctx: FileContext, facts: CodeFacts): void {
  const { scopes, r, labels, lineOf } = ctx;
  for (let round = 0; round < ROUNDS; round++) {
    let changed = false;
    for (const b of ctx.bindings) {
      scopes.chain = b.chain;
      if (b.kind === 'catch-param') {
        // The error caught around a request carries its response (`err.response.data`, `await e.text()`).
        if (b.target.type === 'Identifier' && blockRequests(ctx, b.init)) changed = labels.addCatchParam(b.target, new Set<DataLabel>(['remote', 'channel'])) || changed;
        continue;
      }
      if (b.kind === 'callback-param') {
        // Parameters of a callback given to a network call (or a method of a response/socket) carry what arrives.
        const callee = node(b.init?.callee);
        const q = r.qualify(callee);
        const objLabels = callee?.type === 'MemberExpression' ? labels.of(node(callee.object)) : new Set<DataLabel>();
        // `.then(ok, onError)`/`.catch((err) => …)` of a local function's call that returns a request: the rejection carries its response.
        const settled = callee?.type === 'MemberExpression' && /^(?:then|catch|finally)$/.test(r.propertyName(callee) ?? '') && node(callee.object)?.type === 'CallExpression' && returnsRequest(ctx, node(callee.object)!);
        const received = (q !== undefined && isNetworkCallee(q)) || objLabels.has('channel') || objLabels.has('remote') || settled;
        if (received && b.target.type === 'Identifier') changed = labels.add(b.target.name as string, new Set<DataLabel>(['remote', 'channel'])) || changed;
        // `fs.readFile('~/.aws/credentials', (err, data) => …)`: the data parameter is the credential.
        if (q !== undefined && /^(fs|fs\.promises)\.readFile$/.test(q) && b.target.type === 'Identifier' && !/^e(rr(or)?)?$/.test(b.target.name as string) && (argStrings(r, nodes(b.init?.arguments)).some((x) => CREDENTIAL_PATH.test(x)) || labels.of(nodes(b.init?.arguments)[0]).has('credpath'))) changed = labels.add(b.target.name as string, new Set<DataLabel>(['secret'])) || changed;
        // `items.forEach((x) => …)`, `paths.map((p) => …)`: the element carries what the collection does.
        const inherited = new Set([...objLabels].filter((l) => l !== 'channel'));
        if (inherited.size > 0) for (const name of patternNames(b.target)) changed = labels.add(name, inherited) || changed;
        continue;
      }
      const init = b.init;
      if (init === undefined) continue;
      if (b.target.type === 'Identifier') {
        const name = b.target.name as string;
        const key = scopes.key(name);
        const q = r.qualify(init);
        if (q !== undefined && q !== name && !r.aliases.has(key) && init.type !== 'Literal') {
          r.aliases.set(key, q);
          changed = true;
        }
        if (!r.constants.has(key)) {
          const st = { decoded: false };
          const v = r.fold(init, st);
          if (v !== undefined) {
            r.constants.set(key, v);
            if (st.decoded) r.decodedConstants.add(key);
            changed = true;
          } else if (!r.arrays.has(key) && (init.type === 'ArrayExpression' || init.type === 'CallExpression')) {
            // `const parts = ['ch', 'ild_pro', 'cess']`, `const order = [2, 0, 1]`: arrays that folding indexes, maps and joins.
            const a = r.foldArray(init, st, 0);
            if (a !== undefined) {
              r.arrays.set(key, a);
              if (st.decoded) r.decodedConstants.add(key);
              changed = true;
            }
          }
        }
        changed = labels.add(name, labels.of(init)) || changed;
      } else if (b.target.type === 'MemberExpression') {
        // `axios.defaults.headers.common['X-Key'] = key`, `client.headers['X'] = key`: the client whose
        // headers these are carries the value to every request it makes.
        let root = b.target;
        let headers = false;
        while (root.type === 'MemberExpression') {
          if (!root.computed && node(root.property)?.name === 'headers') headers = true;
          root = node(root.object)!;
        }
        if (headers && root.type === 'Identifier') changed = labels.add(root.name as string, new Set([...labels.of(init)].filter((l) => l !== 'channel' && l !== 'remote'))) || changed;
        // `global.r = require` makes `global.r(…)` (and a bare `r(…)`) a require.
        const target = r.qualify(b.target);
        const q = r.qualify(init);
        if (target !== undefined && !target.includes('.') && q !== undefined && q !== target && !r.aliases.has(Scopes.moduleKey(target))) {
          r.aliases.set(Scopes.moduleKey(target), q);
          changed = true;
        }
      } else if (b.target.type === 'ObjectPattern') {
        const base = r.qualify(init);
        const baseLabels = labels.of(init);
        for (const p of nodes(b.target.properties)) {
          const value = node(p.value);
          const local = value?.type === 'Identifier' ? (value.name as string) : value?.type === 'AssignmentPattern' ? (node(value.left)?.name as string | undefined) : undefined;
          if (local === undefined) continue;
          const key = p.computed === true ? r.fold(node(p.key)) : ((node(p.key)?.name ?? node(p.key)?.value) as string | undefined);
          if (base !== undefined && key !== undefined && !r.aliases.has(scopes.key(local))) {
            r.aliases.set(scopes.key(local), GLOBAL_ROOTS.has(base) ? key : `${base}.${key}`);
            changed = true;
          }
          const sub = new Set(baseLabels);
          if (base === 'process.env') {
            sub.delete('env');
            if (key !== undefined && SECRET_ENV_NAME.test(key)) {
              sub.add('envtoken');
              if (SIGNING_SECRET_ENV_NAME.test(key)) sub.add('keymaterial');
              if (!facts.secretEnvNames.some((e) => e.name === key)) facts.secretEnvNames.push({ name: key, line: lineOf(b.target.start) });
            }
          }
          changed = labels.add(local, sub) || changed;
        }
      }
    }
    for (const ret of ctx.returns) {
      scopes.chain = ret.chain;
      changed = labels.addKey(labels.returnKey(scopes.key(ret.name, ret.outer)), labels.of(ret.value)) || changed;
    }
    if (!changed) break;
  }
}

/** A call of a local function (or an awaited one) that returns a request or its response. */
function returnsRequest(ctx: FileContext, call: N): boolean {
  const callee = node(call.callee);
  if (callee?.type !== 'Identifier') return false;
  const returned = ctx.labels.returned(callee.name as string);
  return returned.has('channel') || returned.has('remote');
}

/** Nodes of a `try` block searched for a request at most: past it the block is not a request's wrapper. */
const MAX_TRY_NODES = 4000;

/** A `try` block that makes a network request, directly or through a local function that returns one. */
function blockRequests(ctx: FileContext, block: N | undefined): boolean {
  if (block === undefined) return false;
  const stack: N[] = [block];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_TRY_NODES) {
    const n = stack.pop()!;
    if (n.type === 'CallExpression' || n.type === 'NewExpression') {
      const q = ctx.r.qualify(node(n.callee));
      if ((q !== undefined && isNetworkCallee(q)) || returnsRequest(ctx, n)) return true;
    }
    stack.push(...childNodes(n));
  }
  return false;
}
