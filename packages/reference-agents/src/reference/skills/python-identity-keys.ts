import { commandLineIdentities, identityWords, KEY_MARK, marksIdentity } from './identity-keys.js';
import type { PythonSource, SyntaxNode } from './python-source.js';

/**
 * A credential path in a Python script that is only an SSH identity: handed to `ssh`/`scp`/`rsync -e`
 * with `-i` (argv list or command line), to GIT_SSH_COMMAND, to paramiko/fabric as `key_filename=` or
 * `from_private_key_file(…)`, to asyncssh as `client_keys=` — directly, or through the name it is assigned
 * to (`KEY = Path.home() / ".ssh" / "id_ed25519"`), whose every other use only checks the file (exists,
 * chmod) or prints its path. Such a key logs in; its bytes are not sent (a deploy skill was BLOCKed as
 * "reads credential files and sends data over the network", round s28 review). A name also read, copied
 * or sent anywhere else keeps the credential reading.
 */

// Calls that build a path from their arguments.
const PATH_CALL = /^(?:str|os\.fspath|os\.path\.(?:join|expanduser|expandvars|abspath|realpath|normpath)|posixpath\.join|pathlib\.Path|Path|pathlib\.PurePath|PurePath|pathlib\.PosixPath|PosixPath)$/;
const PATH_METHOD = /^(?:expanduser|resolve|absolute|as_posix|joinpath)$/;
// Calls and methods that look at a key file without reading it out, or print its path (a message, an error).
const INSPECT_CALL = /^(?:os\.path\.(?:exists|isfile|getsize|getmtime)|os\.(?:chmod|stat|access)|print|logging\.\w+|(?:logger|log|LOG|LOGGER)\.\w+|sys\.exit|SystemExit|\w*(?:Error|Exception)|(?:click|typer)\.(?:echo|secho))$/;
const INSPECT_METHOD = /^(?:exists|is_file|chmod|stat)$/;
// Key loaders whose first argument is the key file they log in with (paramiko, asyncssh).
const KEY_LOADER = /(?:^|\.)(?:from_private_key_file|read_private_key|import_private_key_file)$/;
// Keyword arguments (and dict keys) naming the key file a client logs in with.
const KEY_KEYWORD = /^(?:key_filename|client_keys|key_file|identity_file|private_key_file|ssh_key_filename)$/;

type Use = 'identity' | 'inspect' | 'other';

const within = (inner: SyntaxNode, outer: SyntaxNode) => inner.from >= outer.from && inner.to <= outer.to;
const same = (a: SyntaxNode, b: SyntaxNode) => a.from === b.from && a.to === b.to && a.name === b.name;

/** `container` (a string, an f-string, a `+` concatenation) written out with the followed value as KEY_MARK. */
function render(src: PythonSource, container: SyntaxNode, value: SyntaxNode, depth = 0): string {
  if (!within(value, container)) return src.fold(container) ?? '$v';
  if (same(value, container) || depth > 8) return KEY_MARK;
  if (container.name === 'FormatString') {
    const raw = src.slice(container);
    const open = /^[rRbBuUfF]*(['"]{1,3})/.exec(raw)?.[0].length ?? 0;
    let out = '';
    let at = container.from + open;
    for (let c = container.firstChild; c; c = c.nextSibling) {
      if (c.name !== 'FormatReplacement') continue;
      out += src.text.slice(at, c.from);
      out += within(value, c) ? KEY_MARK : (src.fold(c.firstChild?.nextSibling) ?? '$v');
      at = c.to;
    }
    return out + src.text.slice(at, container.to).replace(/['"]{1,3}$/, '');
  }
  if (container.name === 'BinaryExpression') {
    let out = '';
    for (let c = container.firstChild; c; c = c.nextSibling) if (c.name !== 'ArithOp') out += render(src, c, value, depth + 1);
    return out;
  }
  return KEY_MARK;
}

function listItems(list: SyntaxNode): SyntaxNode[] {
  const items: SyntaxNode[] = [];
  for (let c = list.firstChild; c; c = c.nextSibling) if (!['[', ']', '(', ')', ','].includes(c.name)) items.push(c);
  return items;
}

/** What the value at `start` (a string, a name's use) ends up as, climbing through the paths built from it. */
function useOf(src: PythonSource, start: SyntaxNode, depth: number): Use {
  let expr = start;
  for (let guard = 0; guard < 16; guard++) {
    const p = expr.parent;
    if (!p) return 'other';
    if (p.name === 'ParenthesizedExpression') expr = p;
    else if (p.name === 'FormatReplacement' || (p.name === 'BinaryExpression' && /^[+/]$/.test(src.slice(p.getChild('ArithOp') ?? p).trim()))) {
      const container = p.name === 'FormatReplacement' ? p.parent : p;
      if (!container) return 'other';
      // A string that reads as an ssh command with the key as its identity: `f"ssh -i {KEY}"` for rsync -e or GIT_SSH_COMMAND.
      if (container.name !== 'BinaryExpression' || src.slice(container.getChild('ArithOp')!) === '+') {
        if (marksIdentity(commandLineIdentities(render(src, container, start)))) return 'identity';
      }
      expr = container;
    } else if (p.name === 'ArrayExpression' || p.name === 'TupleExpression') {
      // An argv: `["scp", "-i", str(KEY), src, dest]`.
      const words = listItems(p).map((item) => (within(start, item) ? render(src, item, start) : (src.fold(item) ?? '$v')));
      if (marksIdentity(identityWords(words))) return 'identity';
      const holder = p.parent?.name === 'ArgList' ? src.args(p.parent.parent!).find((a) => same(a.value, p)) : undefined;
      return holder?.keyword != null && KEY_KEYWORD.test(holder.keyword) ? 'identity' : 'other';
    } else if (p.name === 'ArgList' && p.parent?.name === 'CallExpression') {
      const call = p.parent;
      const callee = src.qualify(call.firstChild) ?? '';
      const arg = src.args(call).find((a) => same(a.value, expr));
      if (arg === undefined) return 'other';
      if (arg.keyword !== null) return KEY_KEYWORD.test(arg.keyword) || (arg.keyword === 'filename' && /Key$/.test(callee)) ? 'identity' : 'other';
      if (KEY_LOADER.test(callee)) return 'identity';
      if (INSPECT_CALL.test(callee)) return 'inspect';
      if (!PATH_CALL.test(callee)) return 'other';
      expr = call;
    } else if (p.name === 'MemberExpression' && p.firstChild && same(p.firstChild, expr) && p.parent?.name === 'CallExpression') {
      const method = src.slice(p.lastChild!);
      if (INSPECT_METHOD.test(method)) return 'inspect';
      if (!PATH_METHOD.test(method)) return 'other';
      expr = p.parent;
    } else if (p.name === 'DictionaryExpression') {
      // `connect_kwargs={"key_filename": KEY}` (fabric).
      const key = expr.prevSibling?.name === ':' ? expr.prevSibling.prevSibling : null;
      return key && KEY_KEYWORD.test(src.fold(key) ?? '') ? 'identity' : 'other';
    } else if (p.name === 'AssignStatement' && p.lastChild && same(p.lastChild, expr) && p.firstChild?.name === 'VariableName' && p.getChildren('AssignOp').length === 1) {
      return depth < 2 ? nameUse(src, src.slice(p.firstChild), depth + 1) : 'other';
    } else return 'other';
  }
  return 'other';
}

// The uses of each name of a file (its own assignments `KEY = …` left out), read in one walk; and the
// answer for each name followed, so twenty credential paths cost one walk of a large file, not twenty.
const usesBySource = new WeakMap<PythonSource, Map<string, SyntaxNode[]>>();
const answersBySource = new WeakMap<PythonSource, Map<string, Use>>();

function usesOf(src: PythonSource, name: string): SyntaxNode[] {
  let index = usesBySource.get(src);
  if (index === undefined) {
    index = new Map();
    const cursor = src.tree.cursor();
    do {
      if (cursor.name !== 'VariableName') continue;
      const node = cursor.node;
      if (node.parent?.name === 'AssignStatement' && node.parent.firstChild && same(node.parent.firstChild, node)) continue;
      const key = src.slice(node);
      const list = index.get(key) ?? [];
      // More than 40 uses is a name used everywhere: enough to say so.
      if (list.length <= 40) list.push(node);
      index.set(key, list);
    } while (cursor.next());
    usesBySource.set(src, index);
  }
  return index.get(name) ?? [];
}

/** How a name is used: 'identity' when at least one use logs in with it and the others only look at the file. */
function nameUse(src: PythonSource, name: string, depth: number): Use {
  let answers = answersBySource.get(src);
  if (answers === undefined) answersBySource.set(src, (answers = new Map()));
  const known = answers.get(name);
  if (known !== undefined) return known;
  // A name met again while it is followed (`A = B`, `B = A`) is not shown to be an identity.
  answers.set(name, 'other');
  const answer = nameUseOnce(src, name, depth);
  answers.set(name, answer);
  return answer;
}

function nameUseOnce(src: PythonSource, name: string, depth: number): Use {
  const uses = usesOf(src, name);
  if (uses.length > 40) return 'other';
  let identity = false;
  for (const use of uses) {
    const kind = useOf(src, use, depth);
    if (kind === 'other') return 'other';
    if (kind === 'identity') identity = true;
  }
  return identity ? 'identity' : 'other';
}

/** True when the credential path `node` (a string of the script) is only ever an SSH identity to log in with. */
export function pythonIdentityOnly(src: PythonSource, node: SyntaxNode): boolean {
  return useOf(src, node, 0) === 'identity';
}
