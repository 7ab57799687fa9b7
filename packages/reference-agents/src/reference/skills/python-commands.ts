import { boundedRender, bytesIn, CommandSheet, contentOf, firstWord, MAX_VALUES, nameWords, shellWord as word } from './command-lines.js';
import type { PythonSource, SyntaxNode } from './python-source.js';

/**
 * A Python script's process calls, copies and archive writes written as the shell command lines they
 * amount to, one entry per source line (0-based index), for the shell readers that follow files from
 * command to command (`credential-uploads.ts`): `subprocess.run(["gh", "gist", "create", *files])` reads
 * as `gh gist create <each file>`, `shutil.copy(key, tmp)` as `cp <key> $tmp`, a `tarfile` handle's
 * `add(p)` as `tar cf <archive> <p>`, `open(d, "w").write(open(s).read())` as `echo "$(cat <s>)" > <d>`.
 * Values are read loosely: constant strings, `os.path.join`/`Path`/`/` joins and f-strings with `~` for
 * the home directory, a name's first assignment, each value a `for` loop gives its variable; a name whose
 * value is unknown reads as `$name`, so that the same name matches itself from line to line.
 */
const HOME = /^(?:pathlib\.Path\.home|Path\.home|os\.path\.expanduser|os\.getenv|os\.environ\.get)$/;
const JOIN = /^(?:os\.path\.join|posixpath\.join|ntpath\.join|pathlib\.Path|Path|pathlib\.PurePath|PurePath|os\.path\.expanduser|os\.path\.expandvars|os\.path\.abspath|os\.path\.normpath|os\.path\.realpath|str|os\.fspath|glob\.glob|glob\.iglob)$/;
const READ = /(?:^|\.)(?:read_text|read_bytes)$/;
const COPY = /^shutil\.(?:copy|copy2|copyfile|move|copytree)$/;
const OPEN = /^(?:open|io\.open|codecs\.open|builtins\.open)$/;
// (round s31) Requests that send a body: `requests`/`httpx` calls, a session's or client's `post`/`put`/`patch`, urllib's `Request`.
const HTTP_SEND = /^(?:requests|httpx)\.(?:post|put|patch|request)$|^(?:urllib\.request\.)?Request$|^(?:urllib\.request\.)?urlopen$/;
const HTTP_METHOD = /^(?:post|put|patch)$/;
const S3_UPLOAD = /^(?:upload_file|upload_fileobj)$/;

export interface CommandLineOptions {
  /**
   * (round s31) Also write the requests that send a file as the `curl` upload they amount to
   * (`requests.post(URL, files={"f": open(p, "rb")})` as `curl --data-binary @p URL`, boto3's `upload_file(p, "b", k)` as
   * `aws s3 cp p s3://b/`): for the reader of folder archives sent out (`folderArchiveUploads`).
   */
  sends?: boolean;
}

export function pythonCommandLines(src: PythonSource, isProcess: (name: string) => boolean, lineAt: (offset: number) => number, options: CommandLineOptions = {}): string[] {
  const assigned = new Map<string, SyntaxNode>();
  const loops = new Map<string, SyntaxNode>();
  // Archive and file handles: `with tarfile.open(out, "w:gz") as tar`, `z = zipfile.ZipFile(out, "w")`, `with open(d, "w") as f`.
  const handles = new Map<string, { kind: 'tar' | 'zip' | 'file'; target: SyntaxNode }>();
  // Files opened for reading: `with open(p) as f` … `f.read()` reads p's bytes.
  const reading = new Map<string, SyntaxNode>();
  const calls: SyntaxNode[] = [];
  // (round s31) What a function of the module returns (its first `return` with a value): a call of it reads as that value.
  const returns = new Map<string, SyntaxNode | null>();
  const defined = new Map<string, number>();
  const cursor = src.tree.cursor();
  let steps = 0;
  do {
    const node = cursor.node;
    if (++steps > 200_000) break;
    if (node.name === 'AssignStatement') {
      const target = node.firstChild;
      const value = node.lastChild;
      if (target?.name === 'VariableName' && value && target !== value) {
        const name = src.slice(target);
        if (!assigned.has(name)) assigned.set(name, value);
        const handle = handleOf(src, value);
        if (handle !== null) handles.set(name, handle);
        const read = readOf(src, value);
        if (read !== null) reading.set(name, read);
      }
    } else if (node.name === 'ForStatement') {
      const variable = node.getChild('VariableName');
      // (round s31) The iterable follows `in`: `for root, dirs, files in os.walk(d)` gives `root` the walk.
      let iterable = variable?.nextSibling;
      while (iterable && iterable.name !== 'in' && iterable.name !== 'Body') iterable = iterable.nextSibling;
      iterable = iterable?.name === 'in' ? iterable.nextSibling : null;
      if (variable && iterable && !loops.has(src.slice(variable))) loops.set(src.slice(variable), iterable);
    } else if (node.name === 'WithStatement') {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.name !== 'as') continue;
        const opened = c.prevSibling;
        const name = c.nextSibling;
        const handle = opened ? handleOf(src, opened) : null;
        if (handle !== null && name?.name === 'VariableName') handles.set(src.slice(name), handle);
        const read = opened ? readOf(src, opened) : null;
        if (read !== null && name?.name === 'VariableName') reading.set(src.slice(name), read);
      }
    } else if (node.name === 'CallExpression') calls.push(node);
    else if (node.name === 'FunctionDefinition') {
      // (round s31 review) A name defined twice returns nothing known, whichever definition a call reaches.
      const name = node.getChild('VariableName');
      if (name) {
        const key = src.slice(name);
        defined.set(key, (defined.get(key) ?? 0) + 1);
        if ((defined.get(key) ?? 0) > 1) returns.set(key, null);
      }
    } else if (node.name === 'ReturnStatement' && node.lastChild && node.lastChild.name !== 'return') {
      // The innermost function around it: its first return with a value.
      let fn = node.parent;
      while (fn && fn.name !== 'FunctionDefinition') fn = fn.parent;
      const name = fn?.getChild('VariableName');
      if (fn && name && !returns.has(src.slice(name))) returns.set(src.slice(name), node.lastChild);
    }
  } while (cursor.next());

  const render = boundedRender<SyntaxNode>((node, again, one) => {
    switch (node.name) {
      case 'String':
      case 'ContinuedString':
        return [src.fold(node) ?? '%'];
      case 'FormatString': {
        const folded = src.fold(node);
        if (folded !== null) return [folded];
        let out = '';
        let at = node.from;
        const raw = src.slice(node);
        const quote = /^[rRbBuUfF]*(['"]{1,3})/.exec(raw)?.[0].length ?? 0;
        at += quote;
        for (let c = node.firstChild; c; c = c.nextSibling) {
          if (c.name !== 'FormatReplacement') continue;
          out += src.text.slice(at, c.from);
          out += one(c.firstChild?.nextSibling);
          at = c.to;
        }
        out += src.text.slice(at, node.to).replace(/['"]{1,3}$/, '');
        return [out];
      }
      case 'VariableName': {
        const name = src.slice(node);
        const value = assigned.get(name);
        return nameWords(name, value === node ? undefined : value, loops.get(name), again);
      }
      case 'ParenthesizedExpression':
        return again(node.firstChild?.nextSibling);
      case 'ArrayExpression':
      case 'TupleExpression':
      case 'SetExpression': {
        const out: string[] = [];
        for (let c = node.firstChild; c && out.length < MAX_VALUES; c = c.nextSibling) if (!['[', ']', '(', ')', '{', '}', ',', '*'].includes(c.name)) out.push(...again(c));
        return out.slice(0, MAX_VALUES);
      }
      case 'DictionaryExpression': {
        // `{"key": open(k).read()}`: the values.
        const out: string[] = [];
        for (let c = node.firstChild; c && out.length < MAX_VALUES; c = c.nextSibling) if (c.prevSibling?.name === ':') out.push(...again(c));
        return out.length === 0 ? ['%'] : out.slice(0, MAX_VALUES);
      }
      case 'ArrayComprehensionExpression':
        // `[os.path.join(d, f) for f in names]`: the element, the loop's values put in.
        return again(node.firstChild?.nextSibling);
      case 'BinaryExpression': {
        const op = src.slice(node.firstChild?.nextSibling ?? node).trim();
        const left = one(node.firstChild);
        const right = one(node.lastChild);
        return op === '/' ? [`${left}/${right}`] : op === '+' ? [left + right] : ['%'];
      }
      case 'MemberExpression': {
        const text = src.slice(node);
        if (/environ\s*\[\s*['"](?:HOME|USERPROFILE)['"]/.test(text)) return ['~'];
        // `f.name` of a temporary file handle.
        if (/^[A-Za-z_]\w*\.name$/.test(text)) return [`$${text.slice(0, -5)}`];
        return ['%'];
      }
      case 'CallExpression': {
        const name = src.qualify(node.firstChild) ?? '';
        const callee = node.firstChild;
        const parts = src.args(node).filter((a) => a.keyword === null).map((a) => a.value);
        if (HOME.test(name) && (parts.length === 0 || /^['"](?:~|HOME|USERPROFILE)['"]$/.test(src.slice(parts[0] as SyntaxNode)))) return ['~'];
        // (round s31) The folder a walk starts at (its first value, the root of each step); the working folder.
        if (name === 'os.walk') return [one(parts[0])];
        if (/^(?:os\.getcwd|pathlib\.Path\.cwd|Path\.cwd)$/.test(name)) return ['.'];
        if (JOIN.test(name)) return [parts.map(one).join('/')];
        const method = callee?.name === 'MemberExpression' ? src.slice(callee.lastChild ?? callee) : '';
        const receiver = callee?.name === 'MemberExpression' ? callee.firstChild : null;
        // `open(p).read()`, `Path(p).read_text()`, `p.read_bytes()`: the file's bytes.
        if ((method === 'read' || method === 'readlines') && receiver?.name === 'CallExpression' && OPEN.test(src.qualify(receiver.firstChild) ?? '')) {
          const opened = src.args(receiver).find((a) => a.keyword === null)?.value;
          return [`$(cat ${one(opened)})`];
        }
        if (READ.test(method) && receiver) return [`$(cat ${one(receiver)})`];
        if ((method === 'read' || method === 'readlines') && receiver?.name === 'VariableName' && reading.has(src.slice(receiver))) return [`$(cat ${one(reading.get(src.slice(receiver)))})`];
        if (/^(?:joinpath|expanduser|resolve|absolute|with_name|glob|rglob)$/.test(method) && receiver) return [[one(receiver), ...parts.map(one)].join('/')];
        if (/^(?:decode|encode|strip|hex)$/.test(method) && receiver) return again(receiver);
        // `" ".join(paths)`: the items as one command-line string.
        if (method === 'join' && receiver?.name === 'String' && parts[0]) return [again(parts[0]).join(src.fold(receiver) ?? ' ')];
        if (name === 'shutil.make_archive') return [`${one(parts[0])}.${(one(parts[1]) === 'gztar' ? 'tar.gz' : one(parts[1]))}`];
        // (round s31) A function of the module: the value it returns (its parameters unknown).
        const returned = callee?.name === 'VariableName' ? returns.get(src.slice(callee)) : undefined;
        if (returned) return again(returned);
        // An encoder or wrapper of the bytes (`base64.b64encode(open(k, "rb").read())`, `json.dumps({…})`) still carries them.
        return [bytesIn(parts.flatMap((p) => again(p))) ?? '%'];
      }
      default:
        return ['%'];
    }
  });

  const sheet = new CommandSheet(lineAt);
  const add = (node: SyntaxNode, command: string) => sheet.add(node.from, command);
  for (const node of calls.slice(0, 5000)) {
    const name = src.qualify(node.firstChild) ?? '';
    const callee = node.firstChild;
    const method = callee?.name === 'MemberExpression' ? src.slice(callee.lastChild ?? callee) : '';
    const receiver = callee?.name === 'MemberExpression' && callee.firstChild?.name === 'VariableName' ? src.slice(callee.firstChild) : null;
    const args = src.args(node);
    const positional = args.filter((a) => a.keyword === null).map((a) => a.value);
    if (isProcess(name) && positional[0]) {
      const first = positional[0];
      let list: SyntaxNode | undefined = first;
      for (let i = 0; i < 3 && list?.name === 'VariableName'; i++) list = assigned.get(src.slice(list));
      let command: string;
      if (list && (list.name === 'ArrayExpression' || list.name === 'TupleExpression')) command = render(list).map(word).join(' ');
      else command = render(first).join(' ');
      // What the process reads: `input=data`, `stdin=open(p)`.
      const input = args.find((a) => a.keyword === 'input')?.value;
      const stdin = args.find((a) => a.keyword === 'stdin')?.value;
      if (input) command += ` <<< ${firstWord(render(input))}`;
      else if (stdin?.name === 'CallExpression' && OPEN.test(src.qualify(stdin.firstChild) ?? '')) command += ` < ${firstWord(render(src.args(stdin)[0]?.value))}`;
      add(node, command);
    } else if (COPY.test(name) && positional[1]) {
      add(node, `cp -r ${render(positional[0]).map(word).join(' ')} ${firstWord(render(positional[1]))}`);
    } else if (name === 'os.chdir' && positional[0]) {
      // (round s31 review) The working folder changed: a later archive of `.` is of that folder.
      add(node, `cd ${firstWord(render(positional[0]))}`);
    } else if (name === 'shutil.make_archive' && positional[0]) {
      const root = args.find((a) => a.keyword === 'root_dir')?.value ?? positional[2];
      const base = args.find((a) => a.keyword === 'base_dir')?.value;
      // (round s31) With no root folder the archive is of the working folder (its `base_dir` in it).
      const from = root === undefined ? (base === undefined ? '.' : (render(base)[0] ?? '%')) : base === undefined ? (render(root)[0] ?? '%') : `${render(root)[0]}/${render(base)[0]}`;
      add(node, `tar cf ${firstWord(render(node))} ${word(from)}`);
    } else if (receiver !== null && handles.has(receiver) && /^(?:add|write|writestr|writelines)$/.test(method) && positional[0]) {
      const handle = handles.get(receiver)!;
      const target = firstWord(render(handle.target));
      const value = positional[handle.kind === 'zip' && method === 'writestr' ? 1 : 0];
      if (handle.kind === 'tar') add(node, `tar cf ${target} ${render(value).map(word).join(' ')}`);
      else if (handle.kind === 'zip' && method === 'write') add(node, `zip ${target} ${render(value).map(word).join(' ')}`);
      else add(node, `echo ${word(contentOf(render(value)))} > ${target}`);
    } else if (/^(?:write_text|write_bytes)$/.test(method) && callee?.name === 'MemberExpression' && positional[0]) {
      add(node, `echo ${word(contentOf(render(positional[0])))} > ${firstWord(render(callee.firstChild))}`);
    } else if (options.sends === true && (HTTP_SEND.test(name) || (callee?.name === 'MemberExpression' && (HTTP_METHOD.test(method) || S3_UPLOAD.test(method))))) {
      // (round s31) A request sending a file, as the upload it amounts to.
      const keyword = (k: string) => args.find((a) => a.keyword === k)?.value;
      if (S3_UPLOAD.test(method)) {
        const file = keyword('Filename') ?? keyword('Fileobj') ?? positional[0];
        const bucket = keyword('Bucket') ?? positional[1];
        for (const f of sentFiles(file).slice(0, 4)) add(node, `aws s3 cp ${word(f)} s3://${firstWord(render(bucket))}/`);
        continue;
      }
      const isRequest = /(?:^|\.)request$/.test(name) && !/Request$/.test(name);
      const urlNode = keyword('url') ?? positional[isRequest ? 1 : 0];
      const bodies = ['files', 'data', 'content', 'json', 'body'].map(keyword).filter((b): b is SyntaxNode => b !== undefined);
      if (!isRequest && positional[1]) bodies.push(positional[1]);
      const url = firstWord(render(urlNode));
      for (const f of bodies.flatMap((b) => sentFiles(b)).slice(0, 4)) add(node, `curl --data-binary @${word(f)} ${url}`);
    } else if (/^(?:json|pickle|yaml|toml|marshal)\.dump$/.test(name) && positional[1]) {
      // `json.dump(data, open(p, "w"))`, `json.dump(data, fh)` with `fh` a handle opened for writing.
      const fh = positional[1];
      const target = fh.name === 'VariableName' ? handles.get(src.slice(fh))?.target : (handleOf(src, fh)?.target ?? undefined);
      if (target) add(node, `echo ${word(contentOf(render(positional[0])))} > ${firstWord(render(target))}`);
    }
  }
  return sheet.written();

  /** (round s31) The files a request's body sends: an opened file, a handle of one, a file's bytes, an in-memory archive, in a dict or tuple. */
  function sentFiles(node: SyntaxNode | undefined, depth = 0): string[] {
    if (!node || depth > 4) return [];
    switch (node.name) {
      case 'ParenthesizedExpression':
        return sentFiles(node.firstChild?.nextSibling ?? undefined, depth + 1);
      case 'DictionaryExpression':
      case 'TupleExpression':
      case 'ArrayExpression': {
        const out: string[] = [];
        for (let c = node.firstChild; c && out.length < MAX_VALUES; c = c.nextSibling) {
          if (['[', ']', '(', ')', '{', '}', ',', ':'].includes(c.name) || (node.name === 'DictionaryExpression' && c.nextSibling?.name === ':')) continue;
          out.push(...sentFiles(c, depth + 1));
        }
        return out;
      }
      case 'VariableName': {
        const name = src.slice(node);
        const read = reading.get(name);
        if (read !== undefined) return [firstWordOf(render(read))];
        const value = assigned.get(name);
        const inner = value === undefined || value === node ? [] : sentFiles(value, depth + 1);
        return inner.length > 0 ? inner : [firstWordOf(render(node))];
      }
      case 'CallExpression': {
        const name = src.qualify(node.firstChild) ?? '';
        const callee = node.firstChild;
        if (OPEN.test(name)) return [firstWordOf(render(src.args(node).find((a) => a.keyword === null)?.value))];
        const method = callee?.name === 'MemberExpression' ? src.slice(callee.lastChild ?? callee) : '';
        const receiver = callee?.name === 'MemberExpression' ? callee.firstChild : null;
        if (receiver && /^(?:read|read_bytes|read_text|getvalue|getbuffer)$/.test(method)) {
          if (receiver.name === 'CallExpression' && OPEN.test(src.qualify(receiver.firstChild) ?? '')) return [firstWordOf(render(src.args(receiver).find((a) => a.keyword === null)?.value))];
          if (receiver.name === 'VariableName' && reading.has(src.slice(receiver))) return [firstWordOf(render(reading.get(src.slice(receiver))))];
          return [firstWordOf(render(receiver))];
        }
        break;
      }
      default:
        break;
    }
    return render(node).flatMap((v) => [...v.matchAll(/\$\(cat ([^)]+)\)/g)].map((m) => m[1] as string)).slice(0, MAX_VALUES);
  }
}

/** The first of some values, unquoted (a path as the shell reader compares it). */
function firstWordOf(values: readonly string[]): string {
  return values[0] ?? '%';
}

/** The file a handle reads: `open(p)`, `open(p, "rb")`. */
function readOf(src: PythonSource, value: SyntaxNode): SyntaxNode | null {
  if (value.name !== 'CallExpression' || !OPEN.test(src.qualify(value.firstChild) ?? '')) return null;
  const args = src.args(value);
  const positional = args.filter((a) => a.keyword === null).map((a) => a.value);
  const mode = src.fold(args.find((a) => a.keyword === 'mode')?.value ?? positional[1]) ?? 'r';
  return /[wax]/.test(mode) ? null : (positional[0] ?? null);
}

/** The file or archive a handle writes: `tarfile.open(out, "w:gz")`, `zipfile.ZipFile(out, "w")`, `open(d, "w")`. */
function handleOf(src: PythonSource, value: SyntaxNode): { kind: 'tar' | 'zip' | 'file'; target: SyntaxNode } | null {
  if (value.name !== 'CallExpression') return null;
  const name = src.qualify(value.firstChild) ?? '';
  const args = src.args(value);
  const positional = args.filter((a) => a.keyword === null).map((a) => a.value);
  const mode = src.fold(args.find((a) => a.keyword === 'mode')?.value ?? positional[1]) ?? '';
  // (round s31) Also an archive written into a buffer (`tarfile.open(fileobj=buf, mode="w:gz")`).
  const target = args.find((a) => a.keyword === 'name' || a.keyword === 'file' || a.keyword === 'fileobj')?.value ?? positional[0];
  if (!target || !/[wax]/.test(mode)) return null;
  if (/^tarfile\.(?:open|TarFile)$/.test(name)) return { kind: 'tar', target };
  if (/^zipfile\.ZipFile$/.test(name)) return { kind: 'zip', target };
  if (OPEN.test(name)) return { kind: 'file', target };
  return null;
}
