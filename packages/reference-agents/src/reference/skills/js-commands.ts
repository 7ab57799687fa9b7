import { boundedRender, bytesIn, CommandSheet, contentOf, firstWord, MAX_VALUES, nameWords, shellWord as word } from './command-lines.js';
import { walkJs, type JsNode, type JsScope } from './js-source.js';
import { templateText } from './js-template-text.js';
import type { CommandLineOptions } from './python-commands.js';

/**
 * A JavaScript file's process calls, copies and archive writes written as the shell command lines they
 * amount to, one entry per source line (0-based index), for the shell readers that follow files from
 * command to command (`credential-uploads.ts`): `execFile("gh", ["gist", "create", key, hist])` reads as
 * `gh gist create <key> <hist>`, `fs.copyFileSync(key, dst)` as `cp <key> <dst>`,
 * `fs.writeFileSync(dst, fs.readFileSync(key))` as `echo "$(cat <key>)" > <dst>`, node-tar's
 * `tar.c({ file: out }, [paths])` as `tar cf <out> <paths>`. Values are read loosely: constants, `path.join`,
 * templates and `+`, `os.homedir()` as `~`, a name's declaration, each value of a `for … of` array;
 * a name whose value is unknown reads as `$name`, so that the same name matches itself from line to line.
 */
const HOME = /^(?:os\.homedir|os\.userInfo)$/;
const JOIN = /^(?:path|path\.posix|path\.win32)\.(?:join|resolve|normalize)$/;
const READ = /^(?:fs|fs-extra|graceful-fs)(?:\.promises)?\.(?:readFileSync|readFile)$/;
const COPY = /^(?:fs|fs-extra)(?:\.promises)?\.(?:copyFile|copyFileSync|cp|cpSync|copy|copySync|rename|renameSync|move|moveSync)$/;
const WRITE = /^(?:fs|fs-extra|graceful-fs)(?:\.promises)?\.(?:writeFile|writeFileSync|appendFile|appendFileSync|outputFile|outputFileSync)$|^Bun\.write$/;
const TAR = /^(?:tar|node-tar)\.(?:c|create)$/;
const SPAWN = /\.(?:spawn|spawnSync|execFile|execFileSync|fork)$|^execa(?:\.execa|\.execaSync|\.sync)?$/;
// (round s31) Requests with a body: the URL first, the body in an options object or (axios) the second argument.
const FETCH = /^(?:fetch|node-fetch|undici\.fetch|undici\.request|got|got\.(?:post|put|patch)|ky\.(?:post|put|patch)|axios\.(?:post|put|patch))$/;
const AXIOS_DATA = /^axios\.(?:post|put|patch)$/;
// Streams a request reads its body from: `https.request(URL)`, `got.stream.post(URL)`.
const REQUEST_STREAM = /^(?:https?\.request|got\.stream(?:\.(?:post|put|patch))?|request\.(?:post|put))$/;
// Files opened for reading as a stream or blob (their bytes, as `readFileSync` gives them).
const OPEN_FILE = /(?:^|\.)(?:createReadStream|openAsBlob|fileFrom|fileFromSync|blobFrom|blobFromSync)$|^Bun\.file$/;
// Archives built in memory: archiver's, adm-zip's.
const ARCHIVER = /^archiver(?:\.create)?$|^adm-zip$|^AdmZip$/;

export function jsCommandLines(root: JsNode, scope: JsScope, isProcess: (name: string) => boolean, lineAt: (offset: number) => number, options: CommandLineOptions = {}): string[] {
  const declared = new Map<string, JsNode>();
  const loops = new Map<string, JsNode>();
  const calls: Array<{ node: JsNode; name: string }> = [];
  /** (round s31) The pipes of each in-memory archive (`pipedOn`), found when first asked. */
  let archivePipes: Map<JsNode, JsNode[]> | null = null;
  /** (round s31) Values appended to a form (`form.append("f", stream)`), by the form's name. */
  const forms = new Map<string, JsNode[]>();
  walkJs(root, (node) => {
    if (options.sends === true && node.type === 'CallExpression' && (node.callee as JsNode).type === 'MemberExpression') {
      const callee = node.callee as JsNode;
      const form = callee.object as JsNode;
      if (form.type === 'Identifier' && /^(?:append|set)$/.test(String((callee.property as JsNode).name ?? '')) && (node.arguments as JsNode[])[1]) {
        const list = forms.get(form.name as string) ?? [];
        if (list.length < MAX_VALUES) list.push((node.arguments as JsNode[])[1] as JsNode);
        forms.set(form.name as string, list);
      }
    }
    if (node.type === 'VariableDeclarator' && (node.id as JsNode).type === 'Identifier' && node.init) {
      const name = (node.id as JsNode).name as string;
      if (!declared.has(name)) declared.set(name, node.init as JsNode);
    } else if (node.type === 'ForOfStatement' && (node.left as JsNode).type === 'VariableDeclaration') {
      const id = ((((node.left as JsNode).declarations as JsNode[])[0] as JsNode | undefined)?.id as JsNode | undefined);
      if (id?.type === 'Identifier' && !loops.has(id.name as string)) loops.set(id.name as string, node.right as JsNode);
    } else if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const name = scope.qualify(node.callee as JsNode);
      // (round s31) A call on a call's result (`tar.c({…}, ["."]).pipe(req)`) too, when requests are read.
      if ((name !== null || options.sends === true) && calls.length < 5000) calls.push({ node, name: name ?? '' });
    }
  });

  const render = boundedRender<JsNode>((node, again, one) => {
    const exact = scope.fold(node);
    if (exact !== null) return [exact];
    switch (node.type) {
      case 'Identifier': {
        const name = node.name as string;
        return nameWords(name, declared.get(name), loops.get(name), again);
      }
      case 'ArrayExpression': {
        const out: string[] = [];
        for (const e of ((node.elements as Array<JsNode | null>) ?? []).slice(0, MAX_VALUES)) if (e) out.push(...again(e.type === 'SpreadElement' ? (e.argument as JsNode) : e));
        return out.slice(0, MAX_VALUES);
      }
      case 'ObjectExpression': {
        // `{ key: readFileSync(k) }`: the values.
        const out: string[] = [];
        for (const p of ((node.properties as JsNode[]) ?? []).slice(0, MAX_VALUES)) out.push(...again(p.type === 'Property' ? (p.value as JsNode) : (p.argument as JsNode)));
        return out.length === 0 ? ['%'] : out.slice(0, MAX_VALUES);
      }
      case 'SpreadElement':
        return again(node.argument as JsNode);
      case 'TemplateLiteral':
        return [templateText(node, (e) => again(e).join(' '))];
      case 'BinaryExpression':
        return node.operator === '+' ? [one(node.left as JsNode) + one(node.right as JsNode)] : ['%'];
      case 'AwaitExpression':
        return again(node.argument as JsNode);
      case 'MemberExpression': {
        const name = scope.qualify(node);
        return name === 'process.env.HOME' || name === 'process.env.USERPROFILE' ? ['~'] : ['%'];
      }
      case 'CallExpression': {
        const name = scope.qualify(node.callee as JsNode) ?? '';
        const args = (node.arguments as JsNode[]) ?? [];
        if (HOME.test(name)) return ['~'];
        // (round s31) The working folder: the project the script runs in.
        if (name === 'process.cwd') return ['.'];
        if (JOIN.test(name)) return [args.map(one).join('/')];
        if (READ.test(name)) return [`$(cat ${one(args[0])})`];
        const callee = node.callee as JsNode;
        // `names.join(" ")`: the items, one word each.
        if (callee.type === 'MemberExpression' && (callee.property as JsNode).name === 'join') return again(callee.object as JsNode);
        if (callee.type === 'MemberExpression' && /^(?:toString|trim)$/.test(String((callee.property as JsNode).name))) return again(callee.object as JsNode);
        // `Buffer.from(readFileSync(k)).toString("base64")`, `JSON.stringify({…})`: an encoder of the bytes still carries them.
        return [bytesIn(args.flatMap((a) => again(a))) ?? '%'];
      }
      default:
        return ['%'];
    }
  });

  const sheet = new CommandSheet(lineAt);
  const add = (node: JsNode, command: string) => sheet.add(node.start, command);
  for (const { node, name } of calls) {
    const args = (node.arguments as JsNode[]) ?? [];
    if (isProcess(name) && args[0]) {
      let list: JsNode | undefined = args[1];
      for (let i = 0; i < 3 && list?.type === 'Identifier'; i++) list = declared.get(list.name as string);
      const command = SPAWN.test(name) ? [firstWord(render(args[0])), ...(list?.type === 'ArrayExpression' ? render(list).map(word) : [])].join(' ') : render(args[0]).join(' ');
      // `execFileSync(cmd, args, { input: data })`: what the process reads.
      const options = args.find((a) => a.type === 'ObjectExpression');
      const input = (options?.properties as JsNode[] | undefined)?.find((p) => p.type === 'Property' && ((p.key as JsNode).name === 'input' || (p.key as JsNode).value === 'input'));
      add(node, input ? `${command} <<< ${firstWord(render(input.value as JsNode))}` : command);
    } else if (options.sends === true && sendCommand(node, name, args)) {
      // (round s31) Written by sendCommand: an in-memory archive's sources, where it is written, a request sending a file.
    } else if (COPY.test(name) && args[1]) add(node, `cp -r ${render(args[0]).map(word).join(' ')} ${firstWord(render(args[1]))}`);
    else if (WRITE.test(name) && args[1]) add(node, `echo ${word(contentOf(render(args[1])))} > ${firstWord(render(args[0]))}`);
    else if (TAR.test(name) && args[0]?.type === 'ObjectExpression') {
      const file = (args[0].properties as JsNode[]).find((p) => p.type === 'Property' && ((p.key as JsNode).name === 'file' || (p.key as JsNode).value === 'file'));
      const cwd = (args[0].properties as JsNode[]).find((p) => p.type === 'Property' && (p.key as JsNode).name === 'cwd');
      if (file && args[1]) add(node, `tar cf ${firstWord(render(file.value as JsNode))}${cwd ? ` -C ${firstWord(render(cwd.value as JsNode))}` : ''} ${render(args[1]).map(word).join(' ')}`);
      // (round s31) With no file, node-tar returns the archive as a stream: named after the call.
      else if (options.sends === true && args[1]) add(node, `tar cf ${archiveName(node)}${cwd ? ` -C ${firstWord(render(cwd.value as JsNode))}` : ''} ${render(args[1]).map(word).join(' ')}`);
    }
  }
  return sheet.written();

  /** The value a name was declared with, through up to three names. */
  function valueOf(node: JsNode | undefined): JsNode | undefined {
    let n = node;
    for (let i = 0; i < 3 && n?.type === 'Identifier'; i++) n = declared.get(n.name as string);
    for (let i = 0; i < 3 && n?.type === 'AwaitExpression'; i++) n = n.argument as JsNode;
    return n;
  }
  function property(object: JsNode | undefined, key: string): JsNode | undefined {
    if (object?.type !== 'ObjectExpression') return undefined;
    const p = (object.properties as JsNode[]).find((q) => q.type === 'Property' && ((q.key as JsNode).name === key || (q.key as JsNode).value === key));
    return p?.value as JsNode | undefined;
  }
  /** An archive made in memory (archiver, adm-zip, node-tar with no file): a name for it, the same wherever it is met. */
  function archiveOf(node: JsNode | undefined): JsNode | null {
    const v = valueOf(node);
    if (v === undefined || (v.type !== 'CallExpression' && v.type !== 'NewExpression')) return null;
    const name = scope.qualify(v.callee as JsNode) ?? '';
    if (ARCHIVER.test(name)) return v;
    if (TAR.test(name) && !property((v.arguments as JsNode[])[0], 'file')) return v;
    return null;
  }
  function archiveName(node: JsNode): string {
    return `$archive${String(node.start)}`;
  }
  /** The files a request's body sends: a file's bytes or stream, an in-memory archive, a form's appended values. */
  function sentFiles(node: JsNode | undefined, depth = 0): string[] {
    if (!node || depth > 4) return [];
    const archive = archiveOf(node);
    if (archive !== null) return [archiveName(archive)];
    switch (node.type) {
      case 'AwaitExpression':
        return sentFiles(node.argument as JsNode, depth + 1);
      case 'Identifier': {
        const value = declared.get(node.name as string);
        const appended = forms.get(node.name as string) ?? [];
        return [...(value === undefined ? [] : sentFiles(value, depth + 1)), ...appended.flatMap((a) => sentFiles(a, depth + 1))];
      }
      case 'ObjectExpression':
        return ((node.properties as JsNode[]) ?? []).slice(0, MAX_VALUES).flatMap((p) => sentFiles(p.type === 'Property' ? (p.value as JsNode) : (p.argument as JsNode), depth + 1));
      case 'ArrayExpression':
        return ((node.elements as Array<JsNode | null>) ?? []).slice(0, MAX_VALUES).flatMap((e) => (e ? sentFiles(e, depth + 1) : []));
      case 'NewExpression':
        // `new Blob([bytes])`, `new File([bytes], name)`.
        return sentFiles((node.arguments as JsNode[])[0], depth + 1);
      case 'CallExpression': {
        const name = scope.qualify(node.callee as JsNode) ?? '';
        const args = (node.arguments as JsNode[]) ?? [];
        if (OPEN_FILE.test(name)) return [render(args[0])[0] ?? '%'];
        const callee = node.callee as JsNode;
        // `zip.toBuffer()`, `archive.toBuffer()`: the archive's bytes; `Buffer.concat([...])`, `Readable.from(x)`: what they wrap.
        if (callee.type === 'MemberExpression') {
          const inner = archiveOf(callee.object as JsNode);
          if (inner !== null) return [archiveName(inner)];
        }
        if (/^(?:Buffer\.(?:from|concat)|Readable\.from|stream\.Readable\.from)$/.test(name)) return sentFiles(args[0], depth + 1);
        break;
      }
      default:
        break;
    }
    return render(node).flatMap((v) => [...v.matchAll(/\$\(cat ([^)]+)\)/g)].map((m) => m[1] as string)).slice(0, MAX_VALUES);
  }
  /**
   * `stream.pipe(fs.createWriteStream(out))`: the stream written there, as a copy; `stream.pipe(https.request(URL))`: sent.
   * Written at `at`: the pipe itself, or (an archive's pipe is set up before its sources are added) each source added.
   */
  function pipeCommand(at: JsNode, from: readonly string[], target: JsNode): boolean {
    const to = valueOf(target);
    const toName = to?.type === 'CallExpression' ? (scope.qualify(to.callee as JsNode) ?? '') : '';
    const toArgs = to?.type === 'CallExpression' ? ((to.arguments as JsNode[]) ?? []) : [];
    if (/(?:^|\.)createWriteStream$/.test(toName) && toArgs[0]) for (const f of from.slice(0, 4)) add(at, `cp ${word(f)} ${firstWord(render(toArgs[0]))}`);
    else if (REQUEST_STREAM.test(toName) && toArgs[0]) for (const f of from.slice(0, 4)) add(at, `curl --data-binary @${word(f)} ${firstWord(render(toArgs[0]))}`);
    else return false;
    return true;
  }
  /** The pipes an in-memory archive is written through, written again where a source is added to it. */
  function pipedOn(at: JsNode, archive: JsNode): void {
    if (archivePipes === null) {
      // Found once per file: the pipe calls of every in-memory archive, by the archive's node.
      archivePipes = new Map();
      for (const c of calls) {
        const callee = c.node.callee as JsNode;
        const target = ((c.node.arguments as JsNode[]) ?? [])[0];
        if (callee.type !== 'MemberExpression' || String((callee.property as JsNode).name ?? '') !== 'pipe' || target === undefined) continue;
        const piped = archiveOf(callee.object as JsNode);
        if (piped === null) continue;
        const list = archivePipes.get(piped) ?? [];
        if (list.length < 4) list.push(target);
        archivePipes.set(piped, list);
      }
    }
    for (const target of archivePipes.get(archive) ?? []) pipeCommand(at, [archiveName(archive)], target);
  }
  /** What a call amounts to for the reader of archives sent out: written on the sheet, true when it was such a call. */
  function sendCommand(node: JsNode, name: string, args: JsNode[]): boolean {
    const callee = node.callee as JsNode;
    const receiver = callee.type === 'MemberExpression' ? (callee.object as JsNode) : undefined;
    const method = callee.type === 'MemberExpression' ? String((callee.property as JsNode).name ?? '') : '';
    const archive = receiver === undefined ? null : archiveOf(receiver);
    if (archive !== null && /^(?:directory|file|addLocalFolder|addLocalFile)$/.test(method) && args[0]) {
      add(node, `tar cf ${archiveName(archive)} ${render(args[0]).map(word).join(' ')}`);
      pipedOn(node, archive);
      return true;
    }
    if (archive !== null && method === 'glob' && args[1]) {
      const cwd = property(args[1], 'cwd');
      add(node, `tar cf ${archiveName(archive)} ${cwd ? firstWord(render(cwd)) : '.'}`);
      pipedOn(node, archive);
      return true;
    }
    if (archive !== null && method === 'writeZip' && args[0]) {
      add(node, `cp ${archiveName(archive)} ${firstWord(render(args[0]))}`);
      return true;
    }
    if (method === 'pipe' && receiver !== undefined && args[0]) return pipeCommand(node, sentFiles(receiver), args[0]);
    if (FETCH.test(name) || /^axios(?:\.request)?$/.test(name)) {
      const config = /^axios(?:\.request)?$/.test(name) && args[0]?.type === 'ObjectExpression' ? args[0] : undefined;
      const url = config !== undefined ? property(config, 'url') : args[0];
      const body = config !== undefined ? property(config, 'data') : AXIOS_DATA.test(name) ? args[1] : (property(args[1], 'body') ?? property(args[1], 'data') ?? property(args[1], 'json'));
      const files = sentFiles(body);
      for (const f of files.slice(0, 4)) add(node, `curl --data-binary @${word(f)} ${firstWord(render(url))}`);
      return files.length > 0;
    }
    return false;
  }
}
