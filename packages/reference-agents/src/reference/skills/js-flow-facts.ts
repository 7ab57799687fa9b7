import { walkJs, type JsNode, type JsScope } from './js-source.js';
import { COVERT_STANDING_RULE, persistenceKind, type ScriptFact } from './script-fact.js';
import { isExecutableMode, runsWrittenFile, type WrittenFile } from './written-file.js';

const WRITE = /^(?:fs|fs-extra|graceful-fs)(?:\.promises)?\.(?:writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|outputFile|outputFileSync|outputJson|outputJsonSync|writeJson|writeJsonSync)$|^(?:Bun\.write|fs\.promises\.(?:writeFile|appendFile))$/;
const COPY = /^(?:fs|fs-extra)(?:\.promises)?\.(?:copyFile|copyFileSync|cp|cpSync|copy|copySync|rename|renameSync|move|moveSync|symlink|symlinkSync)$/;
const CHMOD = /^(?:fs|fs-extra)(?:\.promises)?\.(?:chmod|chmodSync)$/;
const JOIN = /^(?:path|path\.posix|path\.win32)\.(?:join|resolve|normalize)$/;
const HOME = /^(?:os\.homedir|os\.userInfo)$/;

export interface JsCallKinds {
  network: (name: string) => boolean;
  process: (name: string) => boolean;
}

/**
 * Facts about the files a JavaScript or TypeScript file writes: a file fetched from the network and
 * then run or made executable, and writes to places that persist (agent settings, hooks and memory,
 * shell startup, autostart). Paths are read loosely: constant parts of `path.join`, templates and
 * the names they are declared as, with `~` for `os.homedir()` and `process.env.HOME`.
 */
export function jsFlowFacts(root: JsNode, scope: JsScope, text: string, kinds: JsCallKinds, lineAt: (offset: number) => number): ScriptFact[] {
  const declared = new Map<string, JsNode>();
  // `for (const f of ['CLAUDE.md', 'AGENTS.md'])`: each value the loop variable takes.
  const loopValues = new Map<string, JsNode[]>();
  const calls: Array<{ node: JsNode; name: string }> = [];
  walkJs(root, (node) => {
    if (node.type === 'ForOfStatement' && (node.left as JsNode).type === 'VariableDeclaration') {
      const id = (((node.left as JsNode).declarations as JsNode[])[0] as JsNode | undefined)?.id as JsNode | undefined;
      let right = node.right as JsNode;
      if (right.type === 'Identifier' && scope.constantInit(right.name as string)) right = scope.constantInit(right.name as string) as JsNode;
      if (id?.type === 'Identifier' && right.type === 'ArrayExpression') loopValues.set(id.name as string, ((right.elements as Array<JsNode | null>) ?? []).filter((e): e is JsNode => e !== null).slice(0, 20));
    }
    if (node.type === 'VariableDeclarator' && (node.id as JsNode).type === 'Identifier' && node.init) {
      const name = (node.id as JsNode).name as string;
      if (!declared.has(name)) declared.set(name, node.init as JsNode);
    } else if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const name = scope.qualify(node.callee as JsNode);
      if (name !== null) calls.push({ node, name });
    }
  });
  const looseOf = (node: JsNode | undefined, depth = 0): string => loose(scope, declared, text, node, depth);
  // The path a write names, once per value of each loop variable in it.
  const pathsOf = (target: JsNode): string[] => {
    const used = new Set<string>();
    walkJs(target, (n) => {
      if (n.type === 'Identifier' && loopValues.has(n.name as string)) used.add(n.name as string);
    });
    const [loopName] = [...used];
    if (loopName === undefined) return [looseOf(target)];
    const saved = declared.get(loopName);
    const paths = (loopValues.get(loopName) ?? []).map((value) => {
      declared.set(loopName, value);
      return looseOf(target);
    });
    if (saved) declared.set(loopName, saved);
    else declared.delete(loopName);
    return paths;
  };
  const word = (node: JsNode | undefined) => (node?.type === 'Identifier' ? `{${node.name as string}}${looseOf(node)}` : looseOf(node));
  const evidence = (node: JsNode) => text.slice(node.start, Math.min(node.end, node.start + 200));
  const facts: ScriptFact[] = [];
  const writes: WrittenFile[] = [];
  let network = false;
  for (const { node, name } of calls) {
    if (kinds.network(name)) network = true;
    const args = (node.arguments as JsNode[]) ?? [];
    const target = WRITE.test(name) ? args[0] : COPY.test(name) ? args[1] : undefined;
    if (!target) continue;
    for (const path of pathsOf(target)) {
      const home = /~|\{[^}]*home[^}]*\}|\$HOME|USERPROFILE/i.test(path);
      writes.push({ path, variable: target.type === 'Identifier' ? (target.name as string) : null, downloaded: false, line: lineAt(node.start), evidence: evidence(node) });
      const kind = persistenceKind(path, home);
      // A project memory file given a covert standing rule persists like the agent's own settings.
      const covert = kind === 'memory' && WRITE.test(name) && args[1] !== undefined && COVERT_STANDING_RULE.test(looseOf(args[1]));
      if (kind === 'persistence' || kind === 'shell-startup' || covert) facts.push({ kind: 'persistence-write', line: lineAt(node.start), evidence: `${path} ← ${evidence(node)}` });
      else if (kind === 'memory') facts.push({ kind: 'agent-memory-write', line: lineAt(node.start), evidence: `${path} ← ${evidence(node)}` });
    }
  }
  if (!network || writes.length === 0) return facts;
  for (const { node, name } of calls) {
    const args = (node.arguments as JsNode[]) ?? [];
    let program: string[];
    if (CHMOD.test(name)) {
      if (!args[1] || !isExecutableMode(text.slice(args[1].start, args[1].end), 'decimal')) continue;
      program = [word(args[0])];
    } else if (kinds.process(name) && args[0]) {
      const list = args[1]?.type === 'ArrayExpression' ? (args[1].elements as JsNode[]).slice(0, 2) : [];
      program = /\.(?:spawn|spawnSync|execFile|execFileSync|fork)$/.test(name) ? [word(args[0]), ...list.map(word)] : word(args[0]).trim().split(/\s+/).slice(0, 3);
    } else continue;
    const written = runsWrittenFile(program, writes);
    if (written) facts.push({ kind: 'download-exec', line: lineAt(node.start), evidence: `${written.evidence} … ${evidence(node)}` });
  }
  return facts;
}

function loose(scope: JsScope, declared: Map<string, JsNode>, text: string, node: JsNode | undefined, depth: number): string {
  if (!node || depth > 6) return '*';
  const again = (n: JsNode | undefined) => loose(scope, declared, text, n, depth + 1);
  const exact = scope.fold(node);
  if (exact !== null) return exact;
  switch (node.type) {
    case 'Identifier': {
      const value = declared.get(node.name as string);
      return value ? again(value) : `{${node.name as string}}`;
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as JsNode[];
      const exprs = node.expressions as JsNode[];
      let out = '';
      for (let i = 0; i < quasis.length; i++) {
        out += String(((quasis[i] as JsNode).value as { cooked?: string }).cooked ?? '');
        const e = exprs[i];
        if (e) out += e.type === 'Identifier' ? `{${e.name as string}}${again(e)}` : again(e);
      }
      return out;
    }
    case 'BinaryExpression':
      return node.operator === '+' ? again(node.left as JsNode) + again(node.right as JsNode) : '*';
    case 'AwaitExpression':
      return again(node.argument as JsNode);
    case 'MemberExpression': {
      const name = scope.qualify(node);
      return name === 'process.env.HOME' || name === 'process.env.USERPROFILE' ? '~' : '*';
    }
    case 'CallExpression': {
      const name = scope.qualify(node.callee as JsNode) ?? '';
      const args = (node.arguments as JsNode[]) ?? [];
      if (HOME.test(name)) return '~';
      if (JOIN.test(name)) return args.map(again).join('/');
      return '*';
    }
    default:
      return '*';
  }
}
