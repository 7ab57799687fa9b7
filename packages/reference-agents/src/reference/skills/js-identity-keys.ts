import { commandLineIdentities, identityWords, KEY_MARK, marksIdentity } from './identity-keys.js';
import { walkJs, type JsNode, type JsScope } from './js-source.js';

/**
 * The JavaScript reading of python-identity-keys.ts: a credential path only handed to `ssh`/`scp`/`rsync`
 * as the identity to log in with (`execFile('scp', ['-i', KEY, …])`, `` exec(`rsync -e "ssh -i ${KEY}" …`) ``,
 * a `GIT_SSH_COMMAND` value), or to an SSH client as `privateKeyPath` / `privateKey: readFileSync(KEY)`,
 * directly or through the name it is declared as, whose other uses only check the file or print its path.
 */

const PATH_CALL = /^(?:path\.(?:join|resolve|normalize)|path\.posix\.(?:join|resolve)|String|untildify|expandTilde)$/;
// A key file read to be handed to an SSH client (`privateKey: fs.readFileSync(KEY)`, ssh2 / node-ssh).
const KEY_READ = /^(?:fs\.readFileSync|fs\.promises\.readFile|fs\/promises\.readFile)$/;
// Calls that look at a key file without reading it out, or print its path (a message, an error).
const INSPECT_CALL = /^(?:fs\.(?:existsSync|statSync|chmodSync|accessSync)|fs\.promises\.(?:stat|chmod|access)|console\.\w+|\w*Error)$/;
const KEY_PROPERTY = /^(?:privateKeyPath|privateKey|identityFile|identity|keyFile|key_filename)$/;

type Use = 'identity' | 'inspect' | 'other';

const parentsByRoot = new WeakMap<JsNode, Map<JsNode, JsNode>>();

function parentsOf(root: JsNode): Map<JsNode, JsNode> {
  let parents = parentsByRoot.get(root);
  if (parents === undefined) {
    const map = new Map<JsNode, JsNode>();
    walkJs(root, (node, parent) => {
      if (parent !== null) map.set(node, parent);
    });
    parents = map;
    parentsByRoot.set(root, parents);
  }
  return parents;
}

const within = (inner: JsNode, outer: JsNode) => inner.start >= outer.start && inner.end <= outer.end;

/** `container` (a template, a `+` concatenation) written out with the followed value as KEY_MARK. */
function render(scope: JsScope, container: JsNode, value: JsNode, depth = 0): string {
  if (!within(value, container)) return scope.fold(container) ?? '$v';
  if (container === value || depth > 8) return KEY_MARK;
  if (container.type === 'TemplateLiteral') {
    const quasis = container.quasis as JsNode[];
    const exprs = container.expressions as JsNode[];
    let out = '';
    for (let i = 0; i < quasis.length; i++) {
      out += String(((quasis[i] as JsNode).value as { cooked?: string }).cooked ?? '');
      if (i < exprs.length) out += render(scope, exprs[i] as JsNode, value, depth + 1);
    }
    return out;
  }
  if (container.type === 'BinaryExpression' && container.operator === '+') return render(scope, container.left as JsNode, value, depth + 1) + render(scope, container.right as JsNode, value, depth + 1);
  return KEY_MARK;
}

function useOf(root: JsNode, scope: JsScope, start: JsNode, depth: number): Use {
  const parents = parentsOf(root);
  let expr = start;
  // The key's bytes were read (`readFileSync(KEY)`): only an SSH client's key property may take them.
  let read = false;
  for (let guard = 0; guard < 16; guard++) {
    const p = parents.get(expr);
    if (p === undefined) return 'other';
    if (p.type === 'TemplateLiteral' || (p.type === 'BinaryExpression' && p.operator === '+')) {
      if (!read && marksIdentity(commandLineIdentities(render(scope, p, start)))) return 'identity';
      expr = p;
    } else if (p.type === 'ArrayExpression' && !read) {
      // An argv: `execFile('scp', ['-i', KEY, src, dest])`, or one that names its program first.
      const words = (p.elements as Array<JsNode | null>).map((e) => (e === null ? '' : within(start, e) ? render(scope, e, start) : (scope.fold(e) ?? '$v')));
      const call = parents.get(p);
      const args = call?.type === 'CallExpression' ? (call.arguments as JsNode[]) : [];
      const program = args[1] === p ? scope.fold(args[0]) : null;
      return marksIdentity(identityWords(program === null ? words : [program, ...words])) ? 'identity' : 'other';
    } else if ((p.type === 'CallExpression' || p.type === 'NewExpression') && (p.arguments as JsNode[]).includes(expr)) {
      const callee = scope.qualify(p.callee as JsNode) ?? '';
      if (INSPECT_CALL.test(callee) && !read) return 'inspect';
      if (KEY_READ.test(callee) && (p.arguments as JsNode[])[0] === expr) read = true;
      else if (!PATH_CALL.test(callee) || read) return 'other';
      expr = p;
    } else if (p.type === 'AwaitExpression') expr = p;
    else if (p.type === 'Property' && p.value === expr) {
      const key = scope.propertyName(p.key as JsNode, Boolean(p.computed)) ?? '';
      return KEY_PROPERTY.test(key) ? 'identity' : 'other';
    } else if (p.type === 'VariableDeclarator' && p.init === expr && (p.id as JsNode).type === 'Identifier' && !read) {
      return depth < 2 ? nameUse(root, scope, (p.id as JsNode).name as string, depth + 1) : 'other';
    } else return 'other';
  }
  return 'other';
}

// The uses of each name of a tree (declarations, property keys and member names left out), read in one
// walk; and the answer for each name followed, so twenty credential paths cost one walk, not twenty.
const usesByRoot = new WeakMap<JsNode, Map<string, JsNode[]>>();
const answersByRoot = new WeakMap<JsNode, Map<string, Use>>();

function usesOf(root: JsNode, name: string): JsNode[] {
  let index = usesByRoot.get(root);
  if (index === undefined) {
    const map = new Map<string, JsNode[]>();
    walkJs(root, (node, parent) => {
      if (node.type !== 'Identifier' || parent === null) return;
      if ((parent.type === 'VariableDeclarator' && parent.id === node) || (parent.type === 'Property' && parent.key === node && !parent.computed && !parent.shorthand)) return;
      if (parent.type === 'MemberExpression' && parent.property === node && !parent.computed) return;
      const list = map.get(node.name as string) ?? [];
      // More than 40 uses is a name used everywhere: enough to say so.
      if (list.length <= 40) list.push(node);
      map.set(node.name as string, list);
    });
    index = map;
    usesByRoot.set(root, index);
  }
  return index.get(name) ?? [];
}

/** How a declared name is used: 'identity' when one use logs in with it and the others only look at the file. */
function nameUse(root: JsNode, scope: JsScope, name: string, depth: number): Use {
  let answers = answersByRoot.get(root);
  if (answers === undefined) answersByRoot.set(root, (answers = new Map()));
  const known = answers.get(name);
  if (known !== undefined) return known;
  // A name met again while it is followed (`a = b`, `b = a`) is not shown to be an identity.
  answers.set(name, 'other');
  const answer = nameUseOnce(root, scope, name, depth);
  answers.set(name, answer);
  return answer;
}

function nameUseOnce(root: JsNode, scope: JsScope, name: string, depth: number): Use {
  const uses = usesOf(root, name);
  if (uses.length > 40) return 'other';
  let identity = false;
  for (const use of uses) {
    const kind = useOf(root, scope, use, depth);
    if (kind === 'other') return 'other';
    if (kind === 'identity') identity = true;
  }
  return identity ? 'identity' : 'other';
}

/** True when the credential path `node` (a string of the script) is only ever an SSH identity to log in with. */
export function jsIdentityOnly(root: JsNode, scope: JsScope, node: JsNode): boolean {
  return useOf(root, scope, node, 0) === 'identity';
}
