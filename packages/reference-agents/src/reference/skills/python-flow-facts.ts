import type { PythonSource, SyntaxNode } from './python-source.js';
import { COVERT_STANDING_RULE, persistenceKind, type ScriptFact } from './script-fact.js';
import { isExecutableMode, runsWrittenFile, type WrittenFile } from './written-file.js';

const OPEN = /^(?:open|io\.open|codecs\.open|builtins\.open)$/;
const COPY = /^shutil\.(?:copy|copy2|copyfile|move|copytree)$/;
const JOIN = /^(?:os\.path\.join|posixpath\.join|ntpath\.join|pathlib\.Path|Path|pathlib\.PurePath|PurePath|os\.path\.expanduser|os\.path\.expandvars|os\.path\.abspath|os\.path\.normpath|os\.path\.realpath|str|os\.fspath)$/;
const HOME = /^(?:pathlib\.Path\.home|Path\.home|os\.path\.expanduser|os\.getenv|os\.environ\.get)$/;
const RUN_EXTRA = /^(?:os\.startfile|os\.execv\w*|os\.execl\w*)$/;

export interface PythonCallKinds {
  network: (name: string) => boolean;
  process: (name: string) => boolean;
}

/**
 * Facts about the files a Python script writes: a file fetched from the network and then run (or made
 * executable), and writes to places that persist (agent settings, hooks and memory, shell startup,
 * autostart). Paths are read loosely: string parts of `os.path.join`, `Path(…) / …`, f-strings and
 * the names they are assigned to, with `~` for the home directory.
 */
export function pythonFlowFacts(src: PythonSource, kinds: PythonCallKinds, lineAt: (offset: number) => number): ScriptFact[] {
  const assigned = new Map<string, SyntaxNode>();
  const calls: Array<{ node: SyntaxNode; name: string }> = [];
  // The names a local function returns (`return tmp`), to follow a written file out of the function
  // that wrote it (`probe = _fetch()` then `Popen(["sh", probe])`).
  const returns = new Map<string, Set<string>>();
  const cursor = src.tree.cursor();
  do {
    const node = cursor.node;
    if (node.name === 'ReturnStatement') {
      const value = node.lastChild;
      let fn = node.parent;
      while (fn && fn.name !== 'FunctionDefinition') fn = fn.parent;
      const fname = fn?.getChild('VariableName');
      if (value?.name === 'VariableName' && fname) {
        const set = returns.get(src.slice(fname)) ?? new Set<string>();
        set.add(src.slice(value));
        returns.set(src.slice(fname), set);
      }
    } else if (node.name === 'AssignStatement') {
      const target = node.firstChild;
      const value = node.lastChild;
      if (target?.name === 'VariableName' && value && target !== value && !assigned.has(src.slice(target))) assigned.set(src.slice(target), value);
    } else if (node.name === 'CallExpression') {
      const name = src.qualify(node.firstChild) ?? memberCall(src, node);
      if (name !== null) calls.push({ node, name });
    }
  } while (cursor.next());

  const looseOf = (node: SyntaxNode | null | undefined, depth = 0): string => loose(src, assigned, node, depth);
  const facts: ScriptFact[] = [];
  const writes: WrittenFile[] = [];
  let network = false;
  const evidence = (node: SyntaxNode) => src.text.slice(node.from, Math.min(node.to, node.from + 200));
  for (const { node, name } of calls) {
    if (kinds.network(name)) network = true;
    const args = src.args(node);
    const positional = args.filter((a) => a.keyword === null).map((a) => a.value);
    let target: SyntaxNode | undefined;
    let downloaded = false;
    if (OPEN.test(name)) {
      const mode = args.find((a) => a.keyword === 'mode')?.value ?? positional[1];
      if (mode && /[wax]/.test(src.fold(mode) ?? '')) target = positional[0];
    } else if (/\.(?:write_text|write_bytes)$/.test(name) || (/\.open$/.test(name) && /[wax]/.test(src.fold(positional[0]) ?? ''))) {
      target = node.firstChild?.firstChild ?? undefined;
    } else if (COPY.test(name)) target = positional[1];
    else if (/(?:^|\.)urlretrieve$/.test(name)) {
      target = positional[1];
      downloaded = true;
    }
    if (target) {
      const path = looseOf(target);
      const home = /~|\{[^}]*home[^}]*\}|\$HOME|USERPROFILE/i.test(path);
      writes.push({ path, variable: target.name === 'VariableName' ? src.slice(target) : null, downloaded, line: lineAt(node.from), evidence: evidence(node) });
      const kind = persistenceKind(path, home);
      // A project memory file given a covert standing rule (the file's own strings) persists like the agent's settings.
      const covert = kind === 'memory' && COVERT_STANDING_RULE.test(pythonStrings(src));
      if (kind === 'persistence' || kind === 'shell-startup' || covert) facts.push({ kind: 'persistence-write', line: lineAt(node.from), evidence: `${path} ← ${evidence(node)}` });
      else if (kind === 'memory') facts.push({ kind: 'agent-memory-write', line: lineAt(node.from), evidence: `${path} ← ${evidence(node)}` });
    }
  }
  // `fd, tmp = tempfile.mkstemp(…)` then `os.write(fd, data)`, or a file object opened on the descriptor
  // (`os.fdopen(fd, "wb")`, `open(fd, "w")`) and written: the file at `tmp` is written through its descriptor
  // (in-sample: a skill helper wrote a downloaded script so and ran it with bash, held-out set 16).
  for (const m of src.text.matchAll(/^[ \t]*\(?\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*\)?\s*=\s*(?:tempfile\.)?mkstemp\s*\(/gm)) {
    const write = new RegExp(`\\bos\\.write\\(\\s*${m[1]}\\b|\\b(?:os\\.fdopen|io\\.open|open)\\(\\s*${m[1]}\\s*,\\s*(?:mode\\s*=\\s*)?["'][^"']*[wa+]`).exec(src.text);
    if (write === null) continue;
    writes.push({ path: `{${m[2]}}`, variable: m[2]!, downloaded: false, line: lineAt(write.index), evidence: src.text.slice(m.index, m.index + 120).trim() });
  }
  // `with tempfile.NamedTemporaryFile(…, delete=False) as f:` … `f.write(…)`: the file is `f.name`, read as `{f}`
  // (a name assigned `f.name` names it too).
  for (const m of src.text.matchAll(/\bwith\s+(?:tempfile\.)?NamedTemporaryFile\s*\([^)\n]*\)\s+as\s+([A-Za-z_]\w*)\s*:/g)) {
    const handle = m[1]!;
    if (!new RegExp(`\\b${handle}\\.write\\(`).test(src.text)) continue;
    writes.push({ path: `{${handle}}`, variable: handle, downloaded: false, line: lineAt(m.index), evidence: m[0].trim() });
    for (const a of src.text.matchAll(new RegExp(`^[ \\t]*([A-Za-z_]\\w*)\\s*=\\s*${handle}\\.name\\b`, 'gm'))) writes.push({ path: `{${a[1]}}`, variable: a[1]!, downloaded: false, line: lineAt(m.index), evidence: m[0].trim() });
  }
  // `x = f()` where `f` returns the name a written file was given: `x` names that file too.
  for (const [name, value] of assigned) {
    if (value.name !== 'CallExpression') continue;
    const names = returns.get(src.slice(value.firstChild ?? value));
    if (names === undefined) continue;
    for (const w of [...writes]) if (w.variable !== null && names.has(w.variable)) writes.push({ ...w, variable: name });
  }
  // A file the script wrote counts as downloaded when the script also talks to the network.
  const fetched = writes.filter((w) => w.downloaded || network);
  if (fetched.length === 0) return facts;
  // A name reads as `{name}` and its value; `f.name` of a temporary file handle as `{f}`.
  const word = (c: SyntaxNode) => (c.name === 'VariableName' ? `{${src.slice(c)}}${looseOf(c)}` : c.name === 'MemberExpression' && /^[A-Za-z_]\w*\.name$/.test(src.slice(c)) ? `{${src.slice(c).slice(0, -5)}}` : looseOf(c));
  for (const { node, name } of calls) {
    const positional = src.args(node).filter((a) => a.keyword === null).map((a) => a.value);
    let program: string[] = [];
    if (name === 'os.chmod') {
      if (!positional[1] || !isExecutableMode(src.slice(positional[1]), 'decimal')) continue;
      program = positional[0] ? [word(positional[0])] : [];
    } else if (kinds.process(name) || RUN_EXTRA.test(name)) {
      const first = positional[0];
      if (!first) continue;
      if (first.name === 'ArrayExpression' || first.name === 'TupleExpression') {
        for (let c = first.firstChild; c && program.length < 3; c = c.nextSibling) if (!['[', ']', '(', ')', ','].includes(c.name)) program.push(word(c));
      } else program = word(first).trim().split(/\s+/).slice(0, 3);
    } else continue;
    const written = runsWrittenFile(program, fetched);
    if (written) facts.push({ kind: 'download-exec', line: lineAt(node.from), evidence: `${written.evidence} … ${evidence(node)}` });
  }
  return facts;
}

// `Path(x).write_text(…)`, `p.expanduser()`: a method on a value whose name does not resolve.
function memberCall(src: PythonSource, call: SyntaxNode): string | null {
  const callee = call.firstChild;
  if (callee?.name !== 'MemberExpression') return null;
  const prop = callee.lastChild;
  return prop?.name === 'PropertyName' ? `*.${src.slice(prop)}` : null;
}

function loose(src: PythonSource, assigned: Map<string, SyntaxNode>, node: SyntaxNode | null | undefined, depth: number): string {
  if (!node || depth > 6) return '*';
  const again = (n: SyntaxNode | null | undefined) => loose(src, assigned, n, depth + 1);
  switch (node.name) {
    case 'String':
    case 'ContinuedString':
      return src.fold(node) ?? '*';
    case 'FormatString': {
      const raw = src.slice(node).replace(/^[rRbBuUfF]*(['"]{1,3})|(['"]{1,3})$/g, '');
      // `{home}` stays readable; a name assigned a path is spelled out.
      return raw.replace(/\{([A-Za-z_]\w*)\}/g, (m, name: string) => (assigned.has(name) ? m + again(assigned.get(name)) : m));
    }
    case 'VariableName': {
      const name = src.slice(node);
      const value = assigned.get(name);
      return value ? again(value) : `{${name}}`;
    }
    case 'ParenthesizedExpression':
      return again(node.firstChild?.nextSibling);
    case 'BinaryExpression': {
      const op = src.slice(node.firstChild?.nextSibling ?? node).trim();
      const left = again(node.firstChild);
      const right = again(node.lastChild);
      return op === '/' ? `${left}/${right}` : op === '+' ? left + right : '*';
    }
    case 'MemberExpression': {
      const text = src.slice(node);
      if (/environ\s*\[\s*['"](?:HOME|USERPROFILE)['"]/.test(text)) return '~';
      return '*';
    }
    case 'CallExpression': {
      const name = src.qualify(node.firstChild) ?? memberCall(src, node) ?? '';
      const parts = src.args(node).filter((a) => a.keyword === null).map((a) => a.value);
      if (HOME.test(name) && (parts.length === 0 || /^['"](?:~|HOME|USERPROFILE)['"]$/.test(src.slice(parts[0] as SyntaxNode)))) return '~';
      if (JOIN.test(name)) return parts.map(again).join('/');
      const callee = node.firstChild;
      if (callee?.name === 'MemberExpression' && /\.(?:joinpath|expanduser|resolve|absolute|with_name)$/.test(name)) {
        return [again(callee.firstChild), ...parts.map(again)].join('/');
      }
      return '*';
    }
    default:
      return '*';
  }
}

/** The file's string literals, one per line. */
function pythonStrings(src: PythonSource): string {
  const out: string[] = [];
  const cursor = src.tree.cursor();
  do {
    if (cursor.name === 'String') out.push(src.text.slice(cursor.from, cursor.to));
  } while (cursor.next() && out.length < 5000);
  return out.join('\n');
}
