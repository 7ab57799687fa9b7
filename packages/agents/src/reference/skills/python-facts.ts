import { lineLocator } from '../text/line-locator.js';
import { pythonDescriptionRanges } from './python-description-ranges.js';
import { PythonSource, type SyntaxNode } from './python-source.js';
import { DOTENV_PATH_PATTERN, SECRET_PATH_PATTERN, type ScriptFact } from './script-fact.js';

const SHELL_ALWAYS = /^(?:os\.system|os\.popen|commands\.getoutput|commands\.getstatusoutput|subprocess\.getoutput|subprocess\.getstatusoutput|pty\.spawn)$/;
const SUBPROCESS = /^(?:subprocess\.(?:run|call|Popen|check_output|check_call)|asyncio\.create_subprocess_shell|asyncio\.create_subprocess_exec|os\.exec\w*|os\.spawn\w*)$/;
const EVAL = /^(?:eval|exec|compile|builtins\.eval|builtins\.exec)$/;
const NETWORK =
  /^(?:requests\.\w+|requests\.Session|httpx\.\w+|urllib\.request\.(?:urlopen|Request|urlretrieve)|urllib2\.urlopen|urlopen|http\.client\.HTTPS?Connection|socket\.socket|socket\.create_connection|aiohttp\.ClientSession|aiohttp\.request|smtplib\.SMTP(?:_SSL)?|ftplib\.FTP|paramiko\.SSHClient|websocket\.create_connection|websockets\.connect|dns\.resolver\.(?:resolve|query))$/;
const DECODE = /(?:^|\.)(?:b64decode|b32decode|b16decode|a85decode|decodebytes|decompress|loads|unhexlify|fromhex|decode)$/;
const SERIALIZERS = /^(?:json\.dumps|json\.dump|dict|str|repr|list|pickle\.dumps|base64\.b64encode)$/;
const PIPE_TO_SHELL = /\b(?:curl|wget)\b[^|]*\|\s*(?:ba|z)?sh\b/;
const REVERSE_SHELL = /\/dev\/tcp\/|\bnc\s[^|]*-e\s/;

/** Facts of a Python file from its syntax tree (@lezer/python). */
export function pythonFacts(text: string): ScriptFact[] {
  const src = new PythonSource(text);
  const facts: ScriptFact[] = [];
  const lineAt = lineLocator(text);
  const descriptions = pythonDescriptionRanges(src);
  const inDescription = (node: SyntaxNode) => descriptions.some(([from, to]) => node.from >= from && node.to <= to);
  const add = (kind: ScriptFact['kind'], node: SyntaxNode) => {
    facts.push({ kind, line: lineAt(node.from), evidence: text.slice(node.from, Math.min(node.to, node.from + 300)) });
  };
  const callsIn = (node: SyntaxNode, test: (name: string) => boolean): boolean => {
    let found = false;
    const cursor = node.cursor();
    do {
      if (cursor.name === 'CallExpression') {
        const name = src.qualify(cursor.node.firstChild);
        if (name !== null && test(name)) found = true;
      }
    } while (!found && cursor.next() && cursor.from < node.to);
    return found;
  };
  let socketUsed = false;
  let dupUsed: SyntaxNode | null = null;

  const cursor = src.tree.cursor();
  do {
    const node = cursor.node;
    if (node.name === 'String' || node.name === 'FormatString') {
      const value = src.slice(node);
      const unquoted = value.replace(/^[rRbBuUfF]*(['"]{1,3})|(['"]{1,3})$/g, '');
      // A path named in a docstring or description is text for the model or the user, not a file the code opens.
      const named = value.length < 500 && !inDescription(node);
      if (named && SECRET_PATH_PATTERN.test(unquoted)) add('secret-path', node);
      else if (named && DOTENV_PATH_PATTERN.test(unquoted)) add('dotenv-path', node);
      if (REVERSE_SHELL.test(value)) add('reverse-shell', node);
      continue;
    }
    if (node.name === 'MemberExpression' && src.qualify(node) === 'os.environ') {
      const parent = node.parent;
      const call = parent?.name === 'ArgList' ? parent.parent : null;
      const callee = call ? src.qualify(call.firstChild) : null;
      const member = parent?.name === 'MemberExpression' ? parent.getChild('PropertyName') : null;
      if ((callee !== null && SERIALIZERS.test(callee)) || (member && src.slice(member) === 'items' && parent?.parent?.name === 'CallExpression' && parent.parent.parent?.name !== 'ForStatement')) {
        add('env-dump', call ?? node);
      }
      continue;
    }
    if (node.name !== 'CallExpression') continue;
    const name = src.qualify(node.firstChild);
    if (name === null) continue;
    const args = src.args(node);
    const first = args.find((a) => a.keyword === null)?.value;
    if (NETWORK.test(name)) {
      add('network', node);
      if (name === 'socket.socket' || name === 'socket.create_connection') socketUsed = true;
    }
    if (name === 'os.dup2') dupUsed ??= node;
    const shellKw = args.some((a) => a.keyword === 'shell' && src.slice(a.value) !== 'False');
    const shellish = SHELL_ALWAYS.test(name) || name === 'asyncio.create_subprocess_shell' || (SUBPROCESS.test(name) && shellKw);
    if (SHELL_ALWAYS.test(name) || SUBPROCESS.test(name)) {
      add('process', node);
      if (!first) continue;
      const command = src.fold(first);
      if (callsIn(first, (n) => DECODE.test(n))) add('decoded-exec', node);
      else if (command !== null && PIPE_TO_SHELL.test(command)) add('download-exec', node);
      else if (command !== null && REVERSE_SHELL.test(command)) add('reverse-shell', node);
      else if (shellish && command === null) add('shell-injection', node);
      else if (first.name === 'ArrayExpression' || first.name === 'TupleExpression') {
        // ['bash', '-c', cmd]: a shell on whatever cmd holds.
        const items: SyntaxNode[] = [];
        for (let c = first.firstChild; c; c = c.nextSibling) if (!['[', ']', '(', ')', ','].includes(c.name)) items.push(c);
        const head = src.fold(items[0]);
        const flag = src.fold(items[1]);
        if (head !== null && /(?:^|\/)(?:ba|z|da)?sh$/.test(head) && flag === '-c' && items[2]) {
          const script = src.fold(items[2]);
          if (script === null) add('shell-injection', node);
          else if (PIPE_TO_SHELL.test(script)) add('download-exec', node);
        }
      }
      continue;
    }
    if (EVAL.test(name) && first) {
      if (src.fold(first) !== null) continue;
      if (callsIn(first, (n) => DECODE.test(n))) add('decoded-exec', node);
      else if (callsIn(first, (n) => NETWORK.test(n))) add('download-exec', node);
      else add('dynamic-eval', node);
    }
  } while (cursor.next());
  if (socketUsed && dupUsed) add('reverse-shell', dupUsed);
  return facts;
}
