import { lineLocator } from '../text/line-locator.js';
import { jsDescriptionRanges } from './js-description-ranges.js';
import { JsScope, parseJs, scopeOf, walkJs, type JsNode } from './js-source.js';
import { jsFlowFacts } from './js-flow-facts.js';
import { jsCommandShape } from './shell-command-shape.js';
import { jsCommandLines } from './js-commands.js';
import { credentialUploads } from './credential-uploads.js';
import { jsIdentityOnly } from './js-identity-keys.js';
import { DOTENV_PATH_PATTERN, SECRET_PATH_PATTERN, type ScriptFact } from './script-fact.js';

export const SHELL_EXEC = /^(?:child_process\.(?:exec|execSync)|shelljs\.exec|execa\.execaCommand|execa\.execaCommandSync|zx\.\$)$/;
// execa runs a file with an argument list, as spawn does; with `shell: true` it runs a shell line.
export const SPAWN = /^(?:child_process\.(?:spawn|spawnSync|execFile|execFileSync|fork)|execa(?:\.execa|\.execaSync|\.sync)?)$/;
const EVAL = /^(?:eval|Function|vm\.runInThisContext|vm\.runInNewContext|vm\.runInContext|vm\.Script|vm\.compileFunction)$/;
// A blockchain transaction sent or submitted is a send too: the node relays it and the chain publishes it.
export const NETWORK =
  /^(?:fetch|node-fetch|axios|axios\.\w+|got|got\.\w+|request|undici\.(?:request|fetch)|http\.(?:request|get)|https\.(?:request|get)|http2\.connect|net\.(?:connect|createConnection|Socket)|tls\.connect|dgram\.createSocket|dns\.(?:resolve\w*|lookup)|dns\.promises\.\w+|WebSocket|ws|XMLHttpRequest|navigator\.sendBeacon|superagent\.\w+|nodemailer\.createTransport|(?:[\w$@/.-]+\.)?(?:sendTransaction|sendRawTransaction|sendAndConfirmTransaction|sendAndConfirmRawTransaction|broadcastTransaction|signAndSendTransaction|send_transaction|send_raw_transaction|transact))$/;
const DECODE = /^(?:atob|Buffer\.from|zlib\.\w+Sync|zlib\.\w+|String\.fromCharCode|decodeURIComponent|unescape|TextDecoder)$/;
const DNS_LOOKUP = /^(?:dns\.(?:resolve\w*|lookup)|dns\.promises\.(?:resolve\w*|lookup))$/;
// `process.env.GITHUB_TOKEN`, `process.env['NPM_TOKEN']`: one secret-named variable.
const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;
const SERIALIZERS = /^(?:JSON\.stringify|Object\.entries|Object\.keys|Object\.values|Object\.assign|URLSearchParams|querystring\.stringify|btoa)$/;
const SHELLS = /^(?:\/bin\/|\/usr\/bin\/)?(?:ba|z|da)?sh$|^(?:cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)$/;
const SECRET_ENV_WORD = /^(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|CREDENTIALS|AUTH|API|PRIVATE|API_KEY|ACCESS_KEY|SECRET_KEY)$/i;
const SECRET_ENV_WORD_IN_REGEX = /TOKEN|SECRET|PASSWORD|KEY/i;
const PIPE_TO_SHELL = /\b(?:curl|wget)\b[^|]*\|\s*(?:ba|z)?sh\b/;
const REVERSE_SHELL = /\/dev\/tcp\/|\bnc\s[^|]*-e\s/;

function subtreeHas(node: JsNode, scope: JsScope, test: (name: string) => boolean): boolean {
  let found = false;
  walkJs(node, (n) => {
    if (found) return;
    if (n.type === 'CallExpression' || n.type === 'NewExpression') {
      const name = scope.qualify(n.callee as JsNode);
      if (name !== null && test(name)) found = true;
    }
  });
  return found;
}

/**
 * A decoder that hides what it decodes (round s31): `atob(…)`, `Buffer.from(…, 'base64'|'hex'|'base64url')`,
 * a zlib inflate, `String.fromCharCode(…)`; not `Buffer.from(text)` or `JSON.parse`.
 */
function hidingDecoder(call: JsNode, scope: JsScope): boolean {
  const name = scope.qualify(call.callee as JsNode);
  if (name === null) return false;
  if (name === 'atob' || name === 'String.fromCharCode' || /^zlib\.(?:inflate|inflateRaw|gunzip|unzip|brotliDecompress)(?:Sync)?$/.test(name)) return true;
  const args = (call.arguments as JsNode[]) ?? [];
  return name === 'Buffer.from' && args.length >= 2 && /^(?:base64|base64url|hex)$/.test(scope.fold(args[1]) ?? '');
}

function hasShellOption(args: JsNode[]): boolean {
  return args.some((a) => a.type === 'ObjectExpression' && (a.properties as JsNode[]).some((p) => p.type === 'Property' && ((p.key as JsNode).name === 'shell' || (p.key as JsNode).value === 'shell') && (p.value as JsNode).type === 'Literal' && (p.value as JsNode).value !== false));
}

/** Facts of a JavaScript (or, loosely, TypeScript) file from its syntax tree. */
export function jsFacts(text: string, typescript = false): ScriptFact[] {
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  const facts: ScriptFact[] = [];
  const lineAt = lineLocator(text);
  const descriptions = jsDescriptionRanges(root, scope);
  // What a name was declared with, for `const code = atob(x); eval(code)`.
  const declared = new Map<string, JsNode>();
  const functions = new Map<string, JsNode | null>();
  // (round s31 review) How often each name is bound in the file (variables, functions, parameters): a helper name bound
  // more than once (`const d = …` in two functions) is not read, whichever scope a call is in.
  const bindings = new Map<string, number>();
  const bind = (id: JsNode | null | undefined) => {
    if (id?.type === 'Identifier') bindings.set(id.name as string, (bindings.get(id.name as string) ?? 0) + 1);
  };
  walkJs(root, (n) => {
    const id = n.type === 'FunctionDeclaration' ? (n.id as JsNode | null) : null;
    if (id?.type === 'Identifier') functions.set(id.name as string, functions.has(id.name as string) ? null : n);
    if (n.type === 'VariableDeclarator' || n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') bind(n.id as JsNode | null);
    if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') for (const p of (n.params as JsNode[] | undefined) ?? []) bind(p);
    if (n.type === 'VariableDeclarator' && (n.id as JsNode).type === 'Identifier' && n.init && !declared.has((n.id as JsNode).name as string)) declared.set((n.id as JsNode).name as string, n.init as JsNode);
    // `for (const c of chunks)`: the loop variable holds what the iterated value holds.
    if (n.type === 'ForOfStatement' && (n.left as JsNode).type === 'VariableDeclaration') {
      const id = (((n.left as JsNode).declarations as JsNode[])[0]?.id as JsNode | undefined);
      if (id?.type === 'Identifier' && !declared.has(id.name as string)) declared.set(id.name as string, n.right as JsNode);
    }
  });
  // (round s31) Functions of the file by name (declared, or a function bound to a name; a name bound twice is
  // not read): a helper that decodes (`function d(x) { return atob(x) }`) makes a call of it on constants a decoding.
  for (const [name, init] of declared) if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') functions.set(name, functions.has(name) ? null : init);
  for (const [name, count] of bindings) if (count > 1 && functions.has(name)) functions.set(name, null);
  const decodingHelper = (fn: JsNode, depth = 0): boolean => {
    if (depth > 2) return false;
    let found = false;
    // (round s31 review) A parameter whose default is the encoding (`function d(x, e = 'base64') { return Buffer.from(x, e) }`).
    const defaults = new Map<string, unknown>();
    for (const p of (fn.params as JsNode[] | undefined) ?? []) if (p.type === 'AssignmentPattern' && (p.left as JsNode).type === 'Identifier' && (p.right as JsNode).type === 'Literal') defaults.set((p.left as JsNode).name as string, (p.right as JsNode).value);
    walkJs(fn, (n) => {
      if (found || n.type !== 'CallExpression') return;
      const encoding = ((n.arguments as JsNode[]) ?? [])[1];
      if (hidingDecoder(n, scope) || (encoding?.type === 'Identifier' && /^(?:base64|base64url|hex)$/.test(String(defaults.get(encoding.name as string) ?? '')) && scope.qualify(n.callee as JsNode) === 'Buffer.from')) found = true;
      const callee = n.callee as JsNode;
      const inner = callee.type === 'Identifier' ? functions.get(callee.name as string) : undefined;
      if (inner && inner !== fn && decodingHelper(inner, depth + 1)) found = true;
    });
    return found;
  };
  const callsDecodingHelper = (node: JsNode): boolean => {
    let found = false;
    walkJs(node, (n) => {
      if (found || n.type !== 'CallExpression') return;
      const callee = n.callee as JsNode;
      const fn = callee.type === 'Identifier' ? functions.get(callee.name as string) : undefined;
      // A stage written in the file: every argument is a constant (data received and decoded is read as received).
      if (fn && (n.arguments as JsNode[]).length > 0 && (n.arguments as JsNode[]).every((a) => scope.fold(a) !== null) && decodingHelper(fn)) found = true;
    });
    return found;
  };
  const through = (node: JsNode, test: (name: string) => boolean, helpers = false): boolean => {
    let value: JsNode | undefined = node;
    for (let i = 0; i < 3 && value; i++) {
      if (subtreeHas(value, scope, test) || (helpers && functions.size > 0 && callsDecodingHelper(value))) return true;
      value = value.type === 'Identifier' ? declared.get(value.name as string) : undefined;
    }
    return false;
  };
  // A secret environment variable read in the value, or in what the names it uses were declared with (three steps).
  const carriesSecretEnv = (node: JsNode, depth = 0): boolean => {
    let found = false;
    walkJs(node, (n) => {
      if (found) return;
      if (n.type === 'MemberExpression') {
        const q = scope.qualify(n);
        if (q !== null && q.startsWith('process.env.') && SECRET_ENV_NAME.test(q.slice('process.env.'.length))) found = true;
      } else if (n.type === 'Identifier' && depth < 3) {
        const init = declared.get(n.name as string);
        if (init && init !== node && carriesSecretEnv(init, depth + 1)) found = true;
      }
    });
    return found;
  };
  const inDescription = (node: JsNode) => descriptions.some(([from, to]) => node.start >= from && node.end <= to);
  const add = (kind: ScriptFact['kind'], node: JsNode, evidence?: string) => {
    facts.push({ kind, line: lineAt(node.start), evidence: evidence ?? text.slice(node.start, Math.min(node.end, node.start + 300)) });
  };

  let envWalk: JsNode | null = null;
  let secretWords = 0;
  // Credential paths looked at for an identity use (bounded: a stealer's list of paths needs no such look).
  let secretPaths = 0;
  walkJs(root, (node, parent) => {
    if (node.type === 'Literal' && ((typeof node.value === 'string' && SECRET_ENV_WORD.test(node.value)) || (node.regex !== undefined && SECRET_ENV_WORD_IN_REGEX.test(String((node.regex as { pattern: string }).pattern))))) secretWords++;
    if (node.type === 'Literal' || node.type === 'TemplateLiteral' || (node.type === 'BinaryExpression' && node.operator === '+')) {
      if (parent?.type === 'TemplateLiteral' || (parent?.type === 'BinaryExpression' && parent.operator === '+')) return;
      const value = scope.foldLoose(node);
      // A path named in a description is text for the model or the user, not a file the code opens.
      const named = value.length < 500 && !inDescription(node);
      // A public key (`id_ed25519.pub`) is meant to be shown; a key only handed to ssh, scp or rsync as the
      // identity to log in with (`['-i', KEY]`, `rsync -e "ssh -i …"`, GIT_SSH_COMMAND, `privateKeyPath`) is used, not read out.
      if (named && SECRET_PATH_PATTERN.test(value) && !/\.pub$/i.test(value) && !(++secretPaths <= 20 && jsIdentityOnly(root, scope, node))) add('secret-path', node);
      else if (named && DOTENV_PATH_PATTERN.test(value)) add('dotenv-path', node);
      if (REVERSE_SHELL.test(value)) add('reverse-shell', node);
      return;
    }
    if (node.type === 'MemberExpression' && scope.qualify(node) === 'process.env' && parent?.type === 'ForInStatement' && parent.right === node) {
      envWalk ??= parent;
      return;
    }
    if (node.type === 'MemberExpression' && scope.qualify(node) === 'process.env' && parent) {
      if (parent.type === 'CallExpression' || parent.type === 'NewExpression') {
        const callee = scope.qualify(parent.callee as JsNode);
        if (callee !== null && SERIALIZERS.test(callee)) add('env-dump', parent);
      }
      return;
    }
    if (node.type !== 'CallExpression' && node.type !== 'NewExpression' && node.type !== 'TaggedTemplateExpression') return;
    const calleeNode = (node.type === 'TaggedTemplateExpression' ? node.tag : node.callee) as JsNode;
    const name = scope.qualify(calleeNode);
    if (name === null) return;
    const args = node.type === 'TaggedTemplateExpression' ? [node.quasi as JsNode] : ((node.arguments as JsNode[]) ?? []);
    const first = args[0];

    if (NETWORK.test(name)) add('network', node);
    if (DNS_LOOKUP.test(name) && first !== undefined && carriesSecretEnv(first)) add('secret-env-dns', node);
    if (SHELL_EXEC.test(name) || SPAWN.test(name)) {
      add('process', node);
      const command = scope.fold(first);
      const decoded = first !== undefined && through(first, (n) => DECODE.test(n), true);
      if (decoded) add('decoded-exec', node);
      else if (command !== null && PIPE_TO_SHELL.test(command)) add('download-exec', node);
      else if (command !== null && REVERSE_SHELL.test(command)) add('reverse-shell', node);
      else if (SHELL_EXEC.test(name) && first !== undefined && command === null && name !== 'zx.$') {
        const shape = jsCommandShape(scope, first);
        add(shape === 'template' ? 'shell-injection' : shape === 'quoted' ? 'shell-quoted' : 'shell-passthrough', node);
      }
      else if (SPAWN.test(name) && command !== null && SHELLS.test(command.trim())) {
        // spawn('bash', ['-c', cmd]) runs a shell on whatever cmd holds.
        const list = args[1];
        if (list?.type === 'ArrayExpression') {
          const elements = list.elements as JsNode[];
          const script = elements.find((e, i) => i > 0 && /^-c$|^\/c$|^-Command$/i.test(scope.fold(elements[i - 1]) ?? ''));
          if (script && scope.fold(script) === null) add('shell-injection', node);
          const folded = script ? scope.fold(script) : null;
          if (folded !== null && PIPE_TO_SHELL.test(folded)) add('download-exec', node);
        }
      } else if (SPAWN.test(name) && command === null && hasShellOption(args)) add('shell-injection', node);
      return;
    }
    if (EVAL.test(name) && first !== undefined) {
      const body = name === 'Function' ? (args[args.length - 1] as JsNode) : first;
      // A constant that takes decoding to read (`eval(atob(k))`) is hidden code, however well it folds.
      if (through(body, (n) => DECODE.test(n))) {
        add('decoded-exec', node);
        return;
      }
      if (scope.fold(first) !== null && name !== 'Function') return;
      if (name === 'Function' && args.every((a) => scope.fold(a) !== null)) return;
      if (through(body, (n) => NETWORK.test(n))) add('download-exec', node);
      // (round s31) Decoded by a helper of the file (`eval(d(P))`, `function d(x) { return atob(x) }`).
      else if (through(body, (n) => DECODE.test(n), true)) add('decoded-exec', node);
      else add('dynamic-eval', node);
    }
  });
  // `for (const k in process.env)` keeping names like KEY, TOKEN, SECRET is collecting secrets.
  if (envWalk !== null && secretWords >= 1) add('env-dump', envWalk);
  facts.push(...jsFlowFacts(root, scope, text, { network: (n) => NETWORK.test(n), process: (n) => SHELL_EXEC.test(n) || SPAWN.test(n) }, lineAt));
  // Credentials handed to a command that sends them (`execFile("gh", ["gist", "create", key])`), read as the
  // command lines the process calls, copies and archive writes amount to.
  if (facts.some((f) => f.kind === 'process')) facts.push(...credentialUploads(jsCommandLines(root, scope, (n) => SHELL_EXEC.test(n) || SPAWN.test(n), lineAt)));
  return facts;
}
