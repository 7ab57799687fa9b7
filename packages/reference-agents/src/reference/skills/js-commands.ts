import { boundedRender, bytesIn, CommandSheet, contentOf, firstWord, MAX_VALUES, nameWords, shellWord as word } from './command-lines.js';
import { walkJs, type JsNode, type JsScope } from './js-source.js';
import { templateText } from './js-template-text.js';

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

export function jsCommandLines(root: JsNode, scope: JsScope, isProcess: (name: string) => boolean, lineAt: (offset: number) => number): string[] {
  const declared = new Map<string, JsNode>();
  const loops = new Map<string, JsNode>();
  const calls: Array<{ node: JsNode; name: string }> = [];
  walkJs(root, (node) => {
    if (node.type === 'VariableDeclarator' && (node.id as JsNode).type === 'Identifier' && node.init) {
      const name = (node.id as JsNode).name as string;
      if (!declared.has(name)) declared.set(name, node.init as JsNode);
    } else if (node.type === 'ForOfStatement' && (node.left as JsNode).type === 'VariableDeclaration') {
      const id = ((((node.left as JsNode).declarations as JsNode[])[0] as JsNode | undefined)?.id as JsNode | undefined);
      if (id?.type === 'Identifier' && !loops.has(id.name as string)) loops.set(id.name as string, node.right as JsNode);
    } else if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const name = scope.qualify(node.callee as JsNode);
      if (name !== null && calls.length < 5000) calls.push({ node, name });
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
    } else if (COPY.test(name) && args[1]) add(node, `cp -r ${render(args[0]).map(word).join(' ')} ${firstWord(render(args[1]))}`);
    else if (WRITE.test(name) && args[1]) add(node, `echo ${word(contentOf(render(args[1])))} > ${firstWord(render(args[0]))}`);
    else if (TAR.test(name) && args[0]?.type === 'ObjectExpression') {
      const file = (args[0].properties as JsNode[]).find((p) => p.type === 'Property' && ((p.key as JsNode).name === 'file' || (p.key as JsNode).value === 'file'));
      const cwd = (args[0].properties as JsNode[]).find((p) => p.type === 'Property' && (p.key as JsNode).name === 'cwd');
      if (file && args[1]) add(node, `tar cf ${firstWord(render(file.value as JsNode))}${cwd ? ` -C ${firstWord(render(cwd.value as JsNode))}` : ''} ${render(args[1]).map(word).join(' ')}`);
    }
  }
  return sheet.written();
}
