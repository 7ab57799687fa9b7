import type { SyntaxNode } from '@lezer/common';
import { CLI_CREDENTIAL_COMMAND } from './cli-credential-commands.js';
import { CLIPBOARD_READ, CREDENTIAL_PATH, IMAGE_PATH, IMAGE_READ, KEY_MATERIAL_NAME, REFLECTED_API, SECRET_ARGUMENT_NAME, SECRET_ENV_NAME, SIGNATURE_CALL, SIGNED_AWAY_LABELS, SIGNING_SECRET_ENV_NAME, clockOrChanceGate, SENSITIVE_NAMES, emptyFacts, type CallFact, type CodeFacts, type DataLabel } from './code-facts.js';
import { decodePythonConstant, PYTHON_DECODERS } from './python-decoders.js';
import { pushInvisiblePayloads } from './invisible-payload.js';
import { importedConstantsOf, importedWrappersOf } from '../common/linked-constants-store.js';
import { lineIndex } from './line-index.js';
import { namedChildren, parsePython, pythonStringValue } from './parse-python.js';
import { pythonCommandShape } from './python-command-shape.js';
import { pythonInlineBody, staticMethodClass } from './python-inline.js';
import { pythonPaths } from './python-paths.js';
import { enclosingFunction, paramNamesOf, pythonScopes } from './python-scopes.js';

const NETWORK_PREFIXES = ['requests', 'httpx', 'urllib.request', 'urllib3', 'http.client', 'socket', 'aiohttp', 'ftplib', 'smtplib', 'websocket', 'websockets', 'dns.resolver', 'pycurl', 'aiodns', 'urllib2', 'urllib.urlopen', 'urllib.urlretrieve', 'httplib'];
const COMMAND_BASES = new Set(['install', 'develop', 'egg_info', 'build_py', 'build_ext', 'sdist', 'bdist_wheel', 'bdist_egg', 'install_lib', 'install_scripts', 'build', 'easy_install']);
const HOSTINFO = /^(socket\.gethostname|getpass\.getuser|os\.getlogin|platform\.node|platform\.uname|os\.uname|socket\.getfqdn|os\.getcwd|os\.getcwdb|pathlib\.Path\.home|pathlib\.Path\.cwd)$/;
/** A query of a Chromium profile's saved passwords, cookies or cards (the rows are credentials). */
const CREDENTIAL_QUERY = /\bselect\b[^;]*\b(password_value|encrypted_value|card_number_encrypted)\b[^;]*\bfrom\s+(logins|cookies|credit_cards)\b/i;
/** Resolver classes: an instance's `query`/`resolve` is the class's. */
const RESOLVER_CLASS = /^(dns\.resolver\.Resolver|aiodns\.DNSResolver)$/;
/** Functions whose result is a path inside the installed packages (another package's files). */
const PACKAGE_PATH = /^(importlib\.util\.find_spec|site\.getsitepackages|site\.getusersitepackages|sysconfig\.get_paths|sysconfig\.get_path|distutils\.sysconfig\.get_python_lib|pkg_resources\.get_distribution|importlib\.metadata\.(files|distribution))$/;
/** Module attributes whose replacement at run time (monkey-patching) intercepts what other code sends, reads or runs. */
const PATCHABLE = /^(requests|urllib3?|http|httpx|aiohttp|socket|ssl|subprocess|os|builtins|getpass|smtplib|ftplib|paramiko|boto3|botocore|keyring|hashlib|hmac|json|pickle|sys|importlib|pip|setuptools|cryptography|web3|eth_account|solana|bitcoinlib)(\.|$)/;
/** A literal http(s) URL in code. */
const HARD_CODED_URL = /["']https?:\/\/[\w.-]+/;
const DECODERS = PYTHON_DECODERS;
/**
 * What a socket or a response says about itself, not data it received: its addresses and port
 * (`s.getsockname()[1]`, the free-port idiom of test fixtures), its descriptor, its settings, an HTTP
 * status. Only what is read from a socket or a response (`recv`, `read`, `makefile`, `json()`, `text`) is network data.
 */
const CHANNEL_METADATA_METHOD = /^(?:getsockname|getpeername|fileno|gettimeout|settimeout|setblocking|getblocking|setsockopt|getsockopt|bind|listen|close|shutdown|detach|connect|connect_ex|set_inheritable|get_inheritable|getcode|raise_for_status)$/;
const CHANNEL_METADATA_ATTRIBUTE = /^(?:status_code|ok|elapsed|family|proto|is_redirect|is_permanent_redirect)$/;
/** (round s31) The longest value a helper read in place gives. */
const MAX_INLINED = 64 * 1024;
/** Replacements of an f-string read at most. */
const MAX_FORMAT_PARTS = 200;
/** One-way digests: `hashlib.sha256(…)`, `….hexdigest()`, `uuid.uuid5(…)`. */
const DIGEST_CALL = /^hashlib\.\w+$|(?:^|\.)(?:hexdigest|digest|sha1|sha224|sha256|sha384|sha512|md5|blake2[bs])$|^uuid\.uuid[35]$/;
/** Deletions whose target path is resolved from the file's location (`argPath`). */
const PY_DELETE = /^(?:shutil\.rmtree|os\.(?:remove|unlink|rmdir|removedirs)|send2trash\.send2trash)$/;
/** Calls that start a process: computed parts of their command that are paths from the file's location are followed (`commandPaths`). */
const PY_PROCESS = /^(?:os\.(?:system|popen|exec\w*|spawn\w*)|subprocess\.\w+|commands\.getoutput|pty\.spawn|Popen|check_output|check_call)$/;

export function isPythonNetworkCallee(callee: string): boolean {
  return NETWORK_PREFIXES.some((p) => callee === p || callee.startsWith(`${p}.`));
}

/** The facts of one Python file (see code-facts.ts), from a @lezer/python tree; nothing is executed. */
// A string (plain, f-, raw or byte) that starts a URL on this machine.
const LOOPBACK_URL_START = /^[rRbBfFuU]{0,2}(['"])https?:\/\/(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(?=[:/'"]|\1)/;

export function pythonFacts(text: string): CodeFacts {
  const facts = emptyFacts('python');
  const tree = parsePython(text);
  facts.parse = 'strict';
  const lineOf = lineIndex(text);
  const src = (n: SyntaxNode) => text.slice(n.from, n.to);
  const aliases = new Map<string, string>();
  const constants = new Map<string, string>();
  const imported = importedConstantsOf(text);
  const wrappers = importedWrappersOf(text);
  const decodedConstants = new Set<string>();
  const labels = new Map<string, Set<DataLabel>>();
  const returnMemo = new Map<number, Set<DataLabel>>();
  const decodeMemo = new Map<number, boolean>();
  /** Helpers being read in place (`inlineCall`): their bound names, innermost last, and their definitions. */
  const frames: Map<string, string>[] = [];
  const inlining = new Set<number>();

  // Imports first (they bind names used everywhere).
  const importRe = /^\s*(?:from\s+([\w.]+)\s+)?import\s+([^#\n]+)/;
  const assigns: SyntaxNode[] = [];
  const calls: SyntaxNode[] = [];
  /** Text and node of the first value bound to each name (conditions read through one name; indirections kept by a name). */
  const valueTexts = new Map<string, string>();
  const assignedValues = new Map<string, SyntaxNode>();
  /** Imported modules whose `__file__`/`__path__` is taken: where those packages are installed. */
  const located = new Set<string>();
  const strings: SyntaxNode[] = [];
  const classes: SyntaxNode[] = [];
  /** Local functions and lambdas by name, to see through `_ = lambda x: b64decode(x); exec(_(…))`. */
  const localFunctions = new Map<string, SyntaxNode>();
  const memberAssigns: SyntaxNode[] = [];
  const containerCalls: SyntaxNode[] = [];
  /** Parameter names of every function and lambda (a parameter binds its name once more). */
  const params: string[] = [];
  const paramLists: SyntaxNode[] = [];
  /** `global`/`nonlocal` statements, and each function's `return`/`yield` values (what a call of it gives back). */
  const scopeStatements: SyntaxNode[] = [];
  const returned = new Map<number, SyntaxNode[]>();
  const cursor = tree.cursor();
  do {
    const n = cursor.node;
    switch (cursor.name) {
      case 'ImportStatement': {
        const m = importRe.exec(src(n).replace(/[()\\\n]/g, ' '));
        if (m === null) break;
        const from = m[1];
        for (const part of (m[2] ?? '').split(',')) {
          const [name, alias] = part.trim().split(/\s+as\s+/);
          if (name === undefined || name === '' || name === '*') continue;
          const full = from === undefined ? name : `${from}.${name}`;
          facts.imports.push({ module: from ?? name, line: lineOf(n.from) });
          aliases.set(alias?.trim() ?? (from === undefined ? name.split('.')[0]! : name), alias === undefined && from === undefined ? name.split('.')[0]! : full);
        }
        break;
      }
      case 'AssignStatement': {
        assigns.push(n);
        const kids = namedChildren(n);
        const value = kids[kids.length - 1];
        if (kids[0]?.name === 'VariableName' && value?.name === 'LambdaExpression') localFunctions.set(src(kids[0]), value);
        if (kids[0]?.name === 'MemberExpression') memberAssigns.push(n);
        break;
      }
      case 'FunctionDefinition': {
        const name = namedChildren(n).find((k) => k.name === 'VariableName');
        if (name !== undefined) localFunctions.set(src(name), n);
        break;
      }
      case 'ParamList':
        for (const p of paramNamesOf(n, src)) params.push(p);
        paramLists.push(n);
        break;
      case 'ScopeStatement':
        scopeStatements.push(n);
        break;
      case 'ReturnStatement':
      case 'YieldStatement': {
        const value = namedChildren(n)[0];
        const fn = enclosingFunction(n);
        if (value !== undefined && fn !== null) returned.set(fn.from, [...(returned.get(fn.from) ?? []), value].slice(0, 16));
        break;
      }
      // `while (cmd := s.recv(1024)):` binds like an assignment.
      case 'NamedExpression':
        assigns.push(n);
        break;
      case 'UpdateStatement':
      case 'ForStatement':
      case 'WithStatement':
        assigns.push(n);
        break;
      case 'CallExpression': {
        calls.push(n);
        // `msg.set_content(data)`, `parts.append(data)`: the receiver now carries the data.
        const callee = n.firstChild;
        if (callee?.name === 'MemberExpression' && callee.firstChild?.name === 'VariableName' && /^\.?(set_content|set_payload|attach|add_attachment|append|extend|update|add_header|write|writelines|insert)$/.test(text.slice(callee.lastChild?.from ?? 0, callee.to))) containerCalls.push(n);
        // `s.headers.update({...})`, `s.cookies.update(…)`: the client owning them carries the data.
        else if (callee?.name === 'MemberExpression' && /^[A-Za-z_]\w*\.(?:headers|cookies|params|auth)\.update$/.test(text.slice(callee.from, callee.to))) containerCalls.push(n);
        break;
      }
      case 'String':
        strings.push(n);
        break;
      case 'FormatString': {
        // `f"https://github.com/{repo}/…"`: the host is constant even when the path is not.
        const head = /^[a-zA-Z]*["']{1,3}((?:https?|wss?|ftp):\/\/[\w.-]+\.[a-z]{2,}(?::\d+)?\/)[^{]*/i.exec(src(n));
        if (head !== null) facts.strings.push({ value: head[1]!, line: lineOf(n.from), decoded: false });
        break;
      }
      case 'ClassDefinition':
        classes.push(n);
        break;
      case 'WhileStatement': {
        const test = namedChildren(n)[0];
        if (test !== undefined && !insideDefinition(n) && !insideMainGuard(n, text) && (src(test) === 'True' || src(test) === '1') && !/\b(break|return|raise)\b/.test(src(n))) facts.endlessTopLevelLoops.push(lineOf(n.from));
        break;
      }
      default:
        break;
    }
  } while (cursor.next());

  /** A name or attribute that stands for a constant of another module (`S0`, `consts.S0`), not one built here. */
  function isImportedName(n: SyntaxNode): boolean {
    if (imported.size === 0) return false;
    if (n.name === 'VariableName') return !constants.has(src(n)) && (imported.has(src(n)) || imported.has(qualify(n) ?? ''));
    return n.name === 'MemberExpression' && namedChildren(n).at(-1)?.name === 'PropertyName' && imported.has(qualify(n) ?? '');
  }

  // Every assignment of `name` in the file puts a loopback URL in it (`url = "http://127.0.0.1:%d" % port`,
  // `f"http://localhost:{port}"`): one assignment elsewhere (`url = "http://c2.example"`) undoes it.
  const loopbackNames = new Map<string, boolean>();
  function loopbackName(name: string): boolean {
    let known = loopbackNames.get(name);
    if (known === undefined) {
      const values = [...text.matchAll(new RegExp(`^[ \\t]*${name}[ \\t]*=(?!=)[ \\t]*([^\\n]{0,200})`, 'gm'))].map((m) => m[1] ?? '');
      known = values.length > 0 && values.length <= 20 && values.every((v) => LOOPBACK_URL_START.test(v));
      loopbackNames.set(name, known);
    }
    return known;
  }
  /** The URL of a request starts with a loopback address: a literal, an f-string, `%` or `+` on one, or a name only ever so assigned. */
  function loopbackRequest(url: SyntaxNode | undefined): boolean {
    if (url === undefined) return false;
    if (LOOPBACK_URL_START.test(src(url))) return true;
    const first = url.name === 'BinaryExpression' ? namedChildren(url)[0] : url;
    if (first === undefined) return false;
    if (first !== url && LOOPBACK_URL_START.test(src(first))) return true;
    return first.name === 'VariableName' && /^\w{1,64}$/.test(src(first)) && loopbackName(src(first));
  }

  function fold(n: SyntaxNode | null | undefined, st: { decoded: boolean } = { decoded: false }, depth = 0): string | undefined {
    if (n === null || n === undefined || depth > 20) return undefined;
    switch (n.name) {
      case 'String':
        return pythonStringValue(src(n));
      case 'ContinuedString': {
        let out = '';
        for (const c of namedChildren(n)) {
          const v = fold(c, st, depth + 1);
          if (v === undefined) return undefined;
          out += v;
        }
        return out;
      }
      case 'Number':
        return src(n);
      case 'FormatString': {
        // `f"{HOST}/api"` with every replacement a constant.
        const f = formatParts(n, st, depth);
        return f?.complete === true ? f.text : undefined;
      }
      case 'VariableName': {
        // A parameter or local of a helper being read in place (`inlineCall`).
        const frame = frames.at(-1);
        if (frame !== undefined && frame.has(src(n))) return frame.get(src(n));
        const v = constants.get(src(n));
        if (v !== undefined && decodedConstants.has(src(n))) st.decoded = true;
        // `from .consts import S0`: a constant of another module of the artifact.
        return v ?? (imported.size === 0 ? undefined : (imported.get(src(n)) ?? imported.get(qualify(n) ?? '')));
      }
      case 'ParenthesizedExpression':
        return fold(namedChildren(n)[0], st, depth + 1);
      case 'MemberExpression': {
        if (imported.size > 0 && namedChildren(n).at(-1)?.name === 'PropertyName') return imported.get(qualify(n) ?? '');
        // `'metsys'[::-1]`: a reversed constant.
        if (!/\[\s*:\s*:\s*-\s*1\s*\]$/.test(src(n))) return undefined;
        const v = fold(namedChildren(n)[0], st, depth + 1);
        if (v === undefined) return undefined;
        st.decoded = true;
        return [...v].reverse().join('');
      }
      case 'BinaryExpression': {
        const [l, r] = namedChildren(n).filter((c) => c.name !== 'ArithOp');
        if (!/\+/.test(namedChildren(n).find((c) => c.name === 'ArithOp') ? src(namedChildren(n).find((c) => c.name === 'ArithOp')!) : '')) return undefined;
        const a = fold(l, st, depth + 1);
        const b = a === undefined ? undefined : fold(r, st, depth + 1);
        return a === undefined || b === undefined ? undefined : a + b;
      }
      case 'CallExpression': {
        const [callee, argList] = namedChildren(n);
        if (callee === undefined || argList === undefined) return undefined;
        const args = namedChildren(argList);
        const q = qualify(callee);
        if (q !== undefined && DECODERS.test(q)) {
          const v = fold(args[0], st, depth + 1);
          if (v === undefined) return undefined;
          st.decoded = true;
          return decodePythonConstant(q, v, fold(args[1]));
        }
        // `str(4444)`: a number's text.
        if (q === 'str' && args.length === 1 && args[0]!.name === 'Number') return src(args[0]!);
        // (round s31) `_d(P)`, `def _d(x): return base64.b64decode(x)`: a small helper of the file read in place.
        const helper = localFunctionOf(callee);
        if (helper !== undefined) return inlineCall(helper, args, st, depth);
        if (q === 'chr') {
          const v = Number(fold(args[0], st, depth + 1));
          if (!Number.isInteger(v)) return undefined;
          st.decoded = true;
          return String.fromCodePoint(v);
        }
        if (callee.name === 'MemberExpression') {
          const parts = namedChildren(callee);
          const method = parts[parts.length - 1];
          const obj = parts[0];
          const m = method === undefined ? '' : src(method);
          // `''.join(chr(c) for c in [112, …])`, `''.join([chr(c) for c in …])`, `''.join(map(chr, […]))`.
          if (m === 'join' && args.length > 0) {
            const charCodes = charCodeList(args);
            const sep = charCodes === undefined ? undefined : fold(obj, st, depth + 1);
            if (charCodes !== undefined && sep !== undefined) {
              st.decoded = true;
              return charCodes.join(sep);
            }
          }
          // `''.join(reversed('metsys'))`.
          if (m === 'join' && args.length === 1 && args[0]!.name === 'CallExpression' && qualify(namedChildren(args[0]!)[0]) === 'reversed') {
            const sep = fold(obj, st, depth + 1);
            const v = fold(namedChildren(namedChildren(args[0]!)[1] ?? args[0]!)[0], st, depth + 1);
            if (sep === undefined || v === undefined) return undefined;
            st.decoded = true;
            return [...v].reverse().join(sep);
          }
          if (m === 'join' && args[0] !== undefined && (args[0].name === 'ArrayExpression' || args[0].name === 'TupleExpression')) {
            const sep = fold(obj, st, depth + 1);
            const items = namedChildren(args[0]).map((c) => fold(c, st, depth + 1));
            if (sep === undefined || items.some((i) => i === undefined)) return undefined;
            st.decoded = true;
            return items.join(sep);
          }
          if (m === 'decode' || m === 'strip' || m === 'lower') return fold(obj, st, depth + 1);
          // `"/dev/{}/{}/{}".format(proto, host, port)`: positional fields filled with constants.
          if (m === 'format' && args.every((a) => a.name !== 'KeywordArgument' && !src(a).startsWith('*'))) {
            const template = fold(obj, st, depth + 1);
            const values = args.map((a) => fold(a, st, depth + 1));
            if (template === undefined || values.some((v) => v === undefined)) return undefined;
            let next = 0;
            let bad = false;
            const out = template.replace(/\{\{|\}\}|\{(\d*)\}/g, (all, index: string | undefined) => {
              if (all === '{{') return '{';
              if (all === '}}') return '}';
              const v = values[index === undefined || index === '' ? next++ : Number(index)];
              if (v === undefined) bad = true;
              return v ?? '';
            });
            return bad || /\{[^}]*\}/.test(out) ? undefined : out;
          }
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /**
   * What a call of a small helper of the file gives for constant arguments (`pythonInlineBody`): its
   * parameters bound to the folded arguments, its locals folded in order, then its return value folded.
   * A helper already being read (recursion), a keyword or starred argument, or a count that differs
   * from its parameters' leaves the call unfolded.
   */
  function inlineCall(fn: SyntaxNode, args: SyntaxNode[], st: { decoded: boolean }, depth: number): string | undefined {
    if (inlining.has(fn.from) || frames.length >= 4) return undefined;
    const body = pythonInlineBody(fn, src);
    if (body === undefined || body.params.length !== args.length || args.some((a) => a.name === 'AssignOp' || /^\*/.test(src(a)))) return undefined;
    const frame = new Map<string, string>();
    for (let i = 0; i < args.length; i++) {
      const v = fold(args[i], st, depth + 1);
      if (v === undefined) return undefined;
      frame.set(body.params[i]!, v);
    }
    inlining.add(fn.from);
    frames.push(frame);
    try {
      for (const step of body.steps) {
        const v = fold(step.value, st, depth + 1);
        if (v === undefined) return undefined;
        frame.set(step.name, v);
      }
      const out = fold(body.result, st, depth + 1);
      // A helper that repeats its argument (`x + x`) read inside another is not let grow without bound.
      return out === undefined || out.length > MAX_INLINED ? undefined : out;
    } finally {
      frames.pop();
      inlining.delete(fn.from);
    }
  }

  /** The characters of `chr(c) for c in [numbers]` (bare, bracketed) or `map(chr, [numbers])`, else undefined. */
  function charCodeList(args: SyntaxNode[]): string[] | undefined {
    let parts = args;
    if (parts.length === 1 && parts[0]!.name === 'ArrayComprehensionExpression') parts = namedChildren(parts[0]!);
    let list: SyntaxNode | undefined;
    if (parts.length === 1 && parts[0]!.name === 'CallExpression' && qualify(namedChildren(parts[0]!)[0]) === 'map') {
      const inner = namedChildren(namedChildren(parts[0]!)[1] ?? parts[0]!);
      if (inner.length === 2 && src(inner[0]!) === 'chr') list = inner[1];
    } else if (parts.length >= 3 && parts[0]!.name === 'CallExpression' && qualify(namedChildren(parts[0]!)[0]) === 'chr') list = parts[parts.length - 1];
    if (list === undefined || (list.name !== 'ArrayExpression' && list.name !== 'TupleExpression')) return undefined;
    const out: string[] = [];
    for (const item of namedChildren(list)) {
      const v = item.name === 'Number' ? Number(src(item)) : NaN;
      if (!Number.isInteger(v) || v < 0 || v > 0x10ffff) return undefined;
      out.push(String.fromCodePoint(v));
    }
    return out;
  }

  /** A replacement's value when it folds (a plain expression, no `!r` conversion or format spec), else undefined. */
  function replacementValue(rep: SyntaxNode, st: { decoded: boolean } = { decoded: false }, depth = 0): string | undefined {
    const kids = namedChildren(rep);
    return kids.length === 1 ? fold(kids[0], st, depth + 1) : undefined;
  }

  /**
   * An f-string's text with each replacement that does not fold written `?` (the mark callees and paths use
   * for an unknown part), its text before the first replacement (`head`), and whether every replacement folded.
   */
  function formatParts(n: SyntaxNode, st: { decoded: boolean } = { decoded: false }, depth = 0): { text: string; head: string; complete: boolean } | undefined {
    const literal = src(n);
    const open = /^([a-zA-Z]{1,2})('''|"""|'|")/.exec(literal);
    if (open === null || depth > 20) return undefined;
    const quote = open[2]!;
    const raw = /r/i.test(open[1]!);
    const bodyEnd = literal.length >= open[0].length + quote.length && literal.endsWith(quote) ? n.to - quote.length : n.to;
    // Literal text between replacements: escapes as in a plain string, `{{`/`}}` as single braces.
    const piece = (from: number, to: number) => (from >= to ? '' : pythonStringValue(`${raw ? 'r' : ''}"${text.slice(from, to)}"`).replace(/\{\{/g, '{').replace(/\}\}/g, '}'));
    let pos = n.from + open[0].length;
    let out = '';
    let head: string | undefined;
    let complete = true;
    const reps = namedChildren(n).filter((k) => k.name === 'FormatReplacement');
    // A command or a path has a few parts: a text of hundreds is not read (each part is folded).
    if (reps.length > MAX_FORMAT_PARTS) return undefined;
    for (const rep of reps) {
      out += piece(pos, rep.from);
      head ??= out;
      const v = replacementValue(rep, st, depth);
      if (v === undefined) complete = false;
      out += v ?? '?';
      pos = rep.to;
      if (out.length > 65536) return undefined;
    }
    out += piece(pos, bodyEnd);
    return { text: out, head: head ?? out, complete };
  }

  // A thin wrapper of another module (`from .helpers import run`) names the call it makes.
  function qualify(n: SyntaxNode | null | undefined, depth = 0): string | undefined {
    const q = qualifyName(n, depth);
    return q === undefined || wrappers.size === 0 ? q : (wrappers.get(q) ?? q);
  }

  function qualifyName(n: SyntaxNode | null | undefined, depth = 0): string | undefined {
    if (n === null || n === undefined || depth > 12) return undefined;
    if (n.name === 'VariableName') {
      const name = src(n);
      return aliases.get(name) ?? name;
    }
    if (n.name === 'MemberExpression') {
      const parts = namedChildren(n);
      const base = qualify(parts[0], depth + 1);
      const last = parts[parts.length - 1];
      if (last === undefined || parts.length < 2) return undefined;
      // `f.__call__` is `f`; `os.__dict__['system']` is `os.system`.
      if (last.name === 'PropertyName' && src(last) === '__call__' && base !== undefined) return base;
      if (last.name !== 'PropertyName' && base !== undefined && (base === '__dict__' || base.endsWith('.__dict__'))) {
        const key = fold(last);
        const owner = base.slice(0, -'.__dict__'.length);
        if (key !== undefined) return base === '__dict__' || owner === 'builtins' || owner === '__builtins__' ? key : `${owner}.${key}`;
      }
      const prop = last.name === 'PropertyName' ? src(last) : `[${fold(last) ?? '?'}]`;
      // `__builtins__.exec`, `builtins.getattr` are the built-ins themselves.
      // (round s31) `__builtins__['exec']` (the dict form of a module that is not `__main__`) is `exec` too.
      if (base === '__builtins__' || base === 'builtins') return last.name === 'PropertyName' ? prop : (fold(last) ?? prop);
      // `sys.modules['builtins']` is the module it names.
      if (base === 'sys.modules' && last.name !== 'PropertyName') return fold(last) ?? `${base}.${prop}`;
      return `${base ?? '?'}.${prop}`;
    }
    if (n.name === 'CallExpression') {
      const [callee, argList] = namedChildren(n);
      const q = qualify(callee, depth + 1);
      const args = argList === undefined ? [] : namedChildren(argList);
      if (q === 'getattr' && args.length >= 2) {
        const base = qualify(args[0], depth + 1);
        const name = fold(args[1]);
        // (round s31) `getattr(builtins, 'ex' + 'ec')` is `exec` itself, as `builtins.exec` is.
        if (name !== undefined && (base === 'builtins' || base === '__builtins__')) return name;
        return name === undefined ? undefined : `${base ?? '?'}.${name}`;
      }
      // (round s31) `globals()`, `locals()`, `vars()` are the module's namespace: `globals()['__builtins__']`
      // is `__builtins__`, `globals()['exec']` (through `__builtins__`) is `exec`.
      if ((q === 'globals' || q === 'locals' || q === 'vars') && args.length === 0) return '__dict__';
      if ((q === '__import__' || q === 'importlib.import_module') && args[0] !== undefined) return fold(args[0]);
      // `vars(m)` is `m.__dict__`: `vars(__import__('builtins'))['exec']` is `exec`.
      if (q === 'vars' && args.length === 1) {
        const base = qualify(args[0], depth + 1);
        return base === undefined ? undefined : `${base}.__dict__`;
      }
      if (q !== undefined && RESOLVER_CLASS.test(q)) return q;
      // `os.__getattribute__('system')` is `os.system`.
      if (q?.endsWith('.__getattribute__') === true && args[0] !== undefined) {
        const name = fold(args[0]);
        return name === undefined ? undefined : `${q.slice(0, -'.__getattribute__'.length)}.${name}`;
      }
      return undefined;
    }
    return undefined;
  }

  /**
   * How a callee reaches its function indirectly: `getattr(m, 'name')`, `m.__getattribute__('name')`,
   * `m.__dict__['name']`, an attribute of `__import__('m')`, possibly behind `.__call__`.
   */
  function indirection(callee: SyntaxNode | null | undefined, depth = 0): string | undefined {
    if (callee === null || callee === undefined || depth > 8) return undefined;
    if (callee.name === 'ParenthesizedExpression') return indirection(namedChildren(callee)[0], depth + 1);
    // `runner = vars(__import__('builtins'))['exec']; runner(x)`: the name keeps the indirection it was bound to.
    if (callee.name === 'VariableName') {
      const bound = assignedValues.get(src(callee));
      return bound === undefined || bound.name === 'VariableName' ? undefined : indirection(bound, depth + 1);
    }
    if (callee.name === 'CallExpression') {
      const q = qualify(namedChildren(callee)[0]);
      if (q === 'getattr') return 'getattr';
      if (q?.endsWith('.__getattribute__') === true) return '__getattribute__';
      return undefined;
    }
    if (callee.name !== 'MemberExpression') return undefined;
    const parts = namedChildren(callee);
    const last = parts[parts.length - 1];
    if (last?.name === 'PropertyName' && src(last) === '__call__') return indirection(parts[0], depth + 1);
    if (last?.name !== 'PropertyName' && (/\.?__dict__$/.test(src(parts[0]!)) || (parts[0]?.name === 'CallExpression' && qualify(namedChildren(parts[0])[0]) === 'vars'))) return '__dict__';
    const obj = parts[0];
    if (obj?.name === 'CallExpression' && /^(__import__|importlib\.import_module)$/.test(qualify(namedChildren(obj)[0]) ?? '')) return '__import__';
    // A feature probe (round s30, real false alarms): `getattr(urllib, 'request', urllib).urlopen(u)`, or the
    // name bound to it, picks a module by a written name with a fallback (the Python 2/3 idiom); the method
    // called on it is written plainly, so nothing is hidden. `getattr(os, 'system', None)(c)` still is.
    if (last?.name === 'PropertyName' && (featureProbe(obj) || (obj?.name === 'VariableName' && featureProbe(assignedValues.get(src(obj)))))) return undefined;
    return indirection(obj, depth + 1);
  }

  /** `getattr(m, 'name', fallback)` on a plain or dotted name, with a written attribute name (see `indirection`). */
  function featureProbe(n: SyntaxNode | null | undefined): boolean {
    if (n?.name !== 'CallExpression') return false;
    const [callee, argList] = namedChildren(n);
    if (qualify(callee) !== 'getattr' || argList === undefined) return false;
    const args = namedChildren(argList);
    return args.length === 3 && args[1]?.name === 'String' && (args[0]?.name === 'VariableName' || args[0]?.name === 'MemberExpression');
  }

  function labelsOf(n: SyntaxNode | null | undefined, depth = 0): Set<DataLabel> {
    const out = new Set<DataLabel>();
    if (n === null || n === undefined || depth > 16) return out;
    const add = (s: Iterable<DataLabel>) => {
      for (const l of s) out.add(l);
    };
    switch (n.name) {
      case 'VariableName':
        add(labels.get(scopes.key(n)) ?? []);
        break;
      case 'MemberExpression': {
        // `self.secret = os.environ.get(…)` in one method, `self.secret` sent in another.
        if (/^self\.\w+$/.test(src(n))) add(labels.get(src(n)) ?? []);
        const q = qualify(n);
        // `data[data.rfind(b"IEND") + 8:]`: bytes cut out after a marker (an image's end chunk, a
        // separator) are how a payload rides inside an asset.
        if (n.getChild('[') !== null && /\.(?:r?find|r?index)\(\s*b['"]/.test(src(n))) out.add('imagedata');
        if (q === 'os.environ') out.add('env');
        else if (q?.startsWith('os.environ.[') === true) {
          if (SECRET_ENV_NAME.test(q)) out.add('envtoken');
          if (SIGNING_SECRET_ENV_NAME.test(q)) out.add('keymaterial');
        } else {
          const parts = namedChildren(n);
          const last = parts[parts.length - 1];
          if (last?.name === 'PropertyName' && KEY_MATERIAL_NAME.test(src(last))) out.add('keymaterial');
          // `requests.__file__`, `find_spec('x').origin`: where another installed package lives.
          if (last?.name === 'PropertyName' && (src(last) === '__file__' || src(last) === '__path__') && parts[0]?.name === 'VariableName' && aliases.has(src(parts[0]))) {
            out.add('pkgpath');
            located.add(aliases.get(src(parts[0]))!.split('.')[0]!);
          }
          const metadata = last?.name === 'PropertyName' && CHANNEL_METADATA_ATTRIBUTE.test(src(last));
          for (const l of labelsOf(parts[0], depth + 1)) if (l !== 'channel' && !(metadata && l === 'remote')) out.add(l);
        }
        break;
      }
      case 'CallExpression': {
        const [callee, argList] = namedChildren(n);
        const q = qualify(callee) ?? '';
        const args = argList === undefined ? [] : namedChildren(argList);
        if (HOSTINFO.test(q)) out.add('hostinfo');
        if (/(^|\.)(execute|executemany)$/.test(q) && args.some((a) => CREDENTIAL_QUERY.test(fold(a) ?? ''))) out.add('secret');
        if ((q === 'os.getenv' || q === 'os.environ.get') && SECRET_ENV_NAME.test(fold(args[0]) ?? '')) out.add('envtoken');
        if ((q === 'os.getenv' || q === 'os.environ.get') && SIGNING_SECRET_ENV_NAME.test(fold(args[0]) ?? '')) out.add('keymaterial');
        if (q === 'os.environ.copy' || q === 'os.environ.items') out.add('env');
        if ((q === 'open' || q.endsWith('.read_text') || q.endsWith('.open')) && stringsIn(n).some((s) => CREDENTIAL_PATH.test(s))) out.add('secret');
        // The output of a command printing a CLI's stored token (`check_output(["gh", "auth", "token"])`) is the token (r16).
        if (args.length > 0 && /(?:^|\.)(?:check_output|getoutput|getstatusoutput|run|popen|Popen|communicate|read)$|^\?$/.test(q) && CLI_CREDENTIAL_COMMAND.test(stringsIn(n).join(' '))) out.add('secret');
        if (isPythonNetworkCallee(q)) {
          // A reply of a server on this machine (a test fixture polling the moto or localstack it started)
          // is not data from the network: no command channel runs on loopback.
          if (!loopbackRequest(args[0])) out.add('remote');
          out.add('channel');
        }
        if (DECODERS.test(q)) out.add('decoded');
        // Bytes cut at a marker (`blob.partition(b"--X--")`): a marker of three or more characters, not a line,
        // field or record separator (`st.split(b'\n')` splits a command's output into lines).
        if (/(^|\.)(split|rsplit|partition|rpartition)$/.test(q) && args.some((a) => /^b['"]/.test(src(a)) && pythonStringValue(src(a)).trim().length >= 3)) out.add('imagedata');
        if (CLIPBOARD_READ.test(q)) out.add('clipboard');
        if (PACKAGE_PATH.test(q)) out.add('pkgpath');
        if (IMAGE_READ.test(q) && (/^(stegano|judyb|lsb|steggy|stegpy|steganography)(\.|$)/i.test(q) || stringsIn(n).some((s) => IMAGE_PATH.test(s.trim())))) out.add('imagedata');
        if (/^(stegano|judyb|lsb|stegpy|steganography)(\.|$)/i.test(q) && /(reveal|decode|extract)/i.test(q)) out.add('decoded');
        // A local function or lambda that decodes (`_ = lambda s: zlib.decompress(b64decode(s))`) yields decoded text.
        const local = callee === undefined ? undefined : localFunctionOf(callee);
        if (local !== undefined && decodesInside(local)) out.add('decoded');
        // A function of the file gives back what its `return`s carry (`def fetch(): return requests.get(u).text`).
        const def = callee === undefined ? undefined : definitionCalled(callee);
        if (def !== undefined) add(returnLabels(def, depth));
        // `os.environ.get('X')` reads one variable: it does not carry the whole environment.
        const oneVariable = /^os\.environ\.(get|setdefault|pop|__getitem__)$/.test(q);
        const metadata = callee?.name === 'MemberExpression' && CHANNEL_METADATA_METHOD.test(src(namedChildren(callee).at(-1) ?? callee));
        if (callee?.name === 'MemberExpression' && !oneVariable) for (const l of labelsOf(namedChildren(callee)[0], depth + 1)) if (!(metadata && (l === 'remote' || l === 'channel'))) out.add(l);
        for (const a of args) add(labelsOf(a, depth + 1));
        // What a file holds is not where it lives: `(Path.home() / ".tool" / "id").read_text()` is the file's text,
        // not the user's home (a telemetry install id read from under home was sent as "host identity").
        if (q === 'open' || /\.(?:open|read_text|read_bytes)$/.test(q)) out.delete('hostinfo');
        // A signature or digest of a key (`hmac.new(key, msg, sha256).hexdigest()`, `jwt.encode`) is not the key.
        const called = q.split('.').pop() ?? '';
        if ((SIGNATURE_CALL.test(called) && !/^(?:assign|design|consign|resign|signal)/i.test(called)) || /^(jwt\.encode|hmac\.new|hmac\.digest|hashlib\.\w+)$/.test(q)) for (const l of SIGNED_AWAY_LABELS) out.delete(l);
        break;
      }
      default:
        for (const c of namedChildren(n)) if (c.name !== 'Body' && c.name !== 'ParamList') add(labelsOf(c, depth + 1));
        break;
    }
    return out;
  }

  /** The `def` of the file a callee names: `helper`, or `self.helper` for a method of the file's classes. */
  function definitionCalled(callee: SyntaxNode): SyntaxNode | undefined {
    let name: string | undefined;
    if (callee.name === 'VariableName') name = src(callee);
    else if (callee.name === 'MemberExpression' && /^self\.\w+$/.test(src(callee))) name = src(callee).slice(5);
    const def = name === undefined ? undefined : localFunctions.get(name);
    return def?.name === 'FunctionDefinition' && (callee.name === 'VariableName') === (def.parent?.parent?.name !== 'ClassDefinition') ? def : undefined;
  }

  /** The parameters a call's arguments fill: positional in order (after `self` for a method), keywords by name; `*args` and `**kw` stop it. */
  function bindArguments(def: SyntaxNode, args: SyntaxNode[], method: boolean): { param: string; value: SyntaxNode }[] {
    const list = def.getChild('ParamList');
    if (list === null) return [];
    const names = paramNamesOf(list, src).slice(method ? 1 : 0);
    const out: { param: string; value: SyntaxNode }[] = [];
    let k = 0;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a.name === 'VariableName' && args[i + 1]?.name === 'AssignOp') {
        const value = args[i + 2];
        if (value !== undefined && names.includes(src(a))) out.push({ param: src(a), value });
        i += 2;
        continue;
      }
      if (/^\*/.test(src(a))) break;
      const param = names[k++];
      if (param !== undefined) out.push({ param, value: a });
    }
    return out;
  }

  /** What a function's `return`s and `yield`s carry, read once per round of the label fixpoint. */
  function returnLabels(def: SyntaxNode, depth: number): Set<DataLabel> {
    const memo = returnMemo.get(def.from);
    if (memo !== undefined) return memo;
    const out = new Set<DataLabel>();
    // Recursion reads the labels found so far.
    returnMemo.set(def.from, out);
    for (const v of returned.get(def.from) ?? []) {
      const l = labelsOf(v, depth + 1);
      // A helper that returns a one-way digest of the host's identity (`sha256(f"{hostname}-{user}").hexdigest()`)
      // returns an identifier of its own: the identity cannot be read back from it.
      if (v.name === 'CallExpression' && DIGEST_CALL.test(qualify(namedChildren(v)[0]) ?? '')) l.delete('hostinfo');
      for (const x of l) out.add(x);
    }
    return out;
  }

  /** The lambda or def a callee names (`_`, `(_)`, or a lambda written in place). */
  function localFunctionOf(callee: SyntaxNode): SyntaxNode | undefined {
    let c: SyntaxNode | undefined = callee;
    while (c?.name === 'ParenthesizedExpression') c = namedChildren(c)[0];
    if (c?.name === 'LambdaExpression') return c;
    // (round s31) `K.d(P)`: a `@staticmethod` of a class of the file, called through the class.
    const member = c?.name === 'MemberExpression' ? /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/.exec(src(c)) : null;
    if (member !== null) {
      const def = localFunctions.get(member[2]!);
      return def !== undefined && staticMethodClass(def, src) === member[1] ? def : undefined;
    }
    return c?.name === 'VariableName' ? localFunctions.get(src(c)) : undefined;
  }

  /** True when a function or lambda body calls a decoder (base64, zlib, marshal…), possibly through another local function. */
  function decodesInside(fn: SyntaxNode, depth = 0): boolean {
    if (depth > 3) return false;
    // Read once per round of the label fixpoint (a function's calls are read again for every call of it).
    const memo = depth === 0 ? decodeMemo.get(fn.from) : undefined;
    if (memo !== undefined) return memo;
    const found = decodesInsideOnce(fn, depth);
    if (depth === 0) decodeMemo.set(fn.from, found);
    return found;
  }

  function decodesInsideOnce(fn: SyntaxNode, depth: number): boolean {
    const c = fn.cursor();
    do {
      if (c.name === 'CallExpression') {
        const callee = namedChildren(c.node)[0];
        const q = qualify(callee);
        if (q !== undefined && DECODERS.test(q)) return true;
        const inner = callee === undefined ? undefined : localFunctionOf(callee);
        if (inner !== undefined && inner !== fn && decodesInside(inner, depth + 1)) return true;
      }
    } while (c.next() && c.from < fn.to);
    return false;
  }

  function stringsIn(n: SyntaxNode): string[] {
    const out: string[] = [];
    const c = n.cursor();
    do {
      if (c.name === 'String') out.push(pythonStringValue(src(c.node)));
      // An f-string that starts with constant text gives it, `?` for each computed part (`moto_server -p ?`).
      else if (c.name === 'FormatString') {
        const f = formatParts(c.node);
        if (f !== undefined && (f.complete || f.head.trim() !== '')) out.push(f.text);
      }
      if (out.length > 32) break;
    } while (c.next() && c.from < n.to);
    const whole = fold(n);
    if (whole !== undefined) out.push(whole);
    return out;
  }

  function assignParts(a: SyntaxNode): { targets: SyntaxNode[]; value: SyntaxNode | undefined } {
    const kids = namedChildren(a);
    if (a.name === 'ForStatement') {
      // `for k, v in os.environ.items():` binds the loop names to what the iterable carries.
      const body = kids.findIndex((k) => k.name === 'Body');
      const value = kids[body - 1];
      return { targets: kids.slice(0, Math.max(0, body - 1)).filter((k) => k.name === 'VariableName'), value };
    }
    if (a.name === 'UpdateStatement') return { targets: kids.slice(0, 1), value: kids[2] };
    // `with smtplib.SMTP(host) as s:` binds s like an assignment.
    if (a.name === 'WithStatement') return { targets: kids.slice(1, 2).filter((k) => k.name === 'VariableName'), value: kids[0] };
    const opIndex = kids.map((k) => k.name).lastIndexOf('AssignOp');
    return { targets: kids.slice(0, opIndex).filter((k) => k.name !== 'AssignOp' && k.name !== 'TypeDef'), value: kids[opIndex + 1] };
  }

  // Labels are kept per scope (round s28): a name a function binds is its own (python-scopes.ts). What a call
  // of a function of the file passes reaches its parameters, and what the function returns reaches the call.
  const bindingNodes: SyntaxNode[] = [];
  for (const a of assigns) for (const t of assignParts(a).targets) if (t.name === 'VariableName') bindingNodes.push(t);
  const scopes = pythonScopes(src, bindingNodes, paramLists, scopeStatements);
  // Calls of functions of the file, with the definition they call and the parameters their arguments fill.
  const localCalls: { def: SyntaxNode; args: { param: string; value: SyntaxNode }[] }[] = [];
  for (const c of calls) {
    const [callee, argList] = namedChildren(c);
    if (callee === undefined || argList === undefined) continue;
    const q = qualify(callee) ?? '';
    // `Thread(target=handle, args=(conn, addr))`: the thread calls `handle(conn, addr)`.
    if (/(?:^|\.)(?:Thread|Process)$/.test(q)) {
      const kids = namedChildren(argList);
      const kw = (name: string) => kids[kids.findIndex((k, i) => k.name === 'VariableName' && src(k) === name && kids[i + 1]?.name === 'AssignOp') + 2];
      const target = kw('target');
      const def = target === undefined ? undefined : definitionCalled(target);
      const tuple = kw('args');
      if (def !== undefined && tuple !== undefined) localCalls.push({ def, args: bindArguments(def, tuple.name === 'TupleExpression' || tuple.name === 'ArrayExpression' ? namedChildren(tuple) : [], false) });
      continue;
    }
    const def = definitionCalled(callee);
    if (def !== undefined) localCalls.push({ def, args: bindArguments(def, namedChildren(argList), callee.name === 'MemberExpression') });
    if (localCalls.length > 2000) break;
  }
  function flowIntoParameters(): boolean {
    let changed = false;
    for (const { def, args } of localCalls) {
      for (const { param, value } of args) {
        const l = labelsOf(value);
        if (l.size === 0) continue;
        const key = scopes.paramKey(def, param);
        const cur = labels.get(key) ?? new Set<DataLabel>();
        const before = cur.size;
        for (const x of l) cur.add(x);
        labels.set(key, cur);
        if (cur.size !== before) changed = true;
      }
    }
    return changed;
  }

  for (let round = 0; round < 4; round++) {
    let changed = false;
    returnMemo.clear();
    decodeMemo.clear();
    for (const a of assigns) {
      const { targets, value } = assignParts(a);
      if (value === undefined) continue;
      for (const t of targets) {
        const owner = t.name === 'MemberExpression' ? /^([A-Za-z_]\w*)\.(?:headers|cookies|params)\s*\[/.exec(src(t)) : null;
        if (owner !== null) {
          // `s.headers["X-Key"] = key`: the client owning the headers carries it.
          let root: SyntaxNode | null = t;
          while (root !== null && root.name !== 'VariableName') root = root.firstChild;
          const key = root === null ? owner[1]! : scopes.key(root);
          const cur = labels.get(key) ?? new Set<DataLabel>();
          const before = cur.size;
          for (const x of labelsOf(value)) if (x !== 'channel') cur.add(x);
          labels.set(key, cur);
          if (cur.size !== before) changed = true;
          continue;
        }
        if (t.name === 'MemberExpression' && /^self\.\w+$/.test(src(t))) {
          const cur = labels.get(src(t)) ?? new Set<DataLabel>();
          const before = cur.size;
          for (const x of labelsOf(value)) if (x !== 'channel') cur.add(x);
          labels.set(src(t), cur);
          if (cur.size !== before) changed = true;
          continue;
        }
        if (t.name !== 'VariableName') continue;
        const name = src(t);
        const q = qualify(value);
        if (q !== undefined && value.name !== 'String' && a.name === 'AssignStatement' && !aliases.has(name)) {
          aliases.set(name, q);
          changed = true;
        }
        if (!constants.has(name) && a.name === 'AssignStatement') {
          const st = { decoded: false };
          const v = fold(value, st);
          if (v !== undefined) {
            constants.set(name, v);
            if (st.decoded) decodedConstants.add(name);
            changed = true;
          }
        }
        const l = labelsOf(value);
        const key = scopes.key(t);
        const cur = labels.get(key) ?? new Set<DataLabel>();
        const before = cur.size;
        for (const x of l) cur.add(x);
        labels.set(key, cur);
        if (cur.size !== before) changed = true;
      }
    }
    if (flowIntoParameters()) changed = true;
    for (const call of containerCalls) {
      const [callee, argList] = namedChildren(call);
      const root = callee?.firstChild?.name === 'MemberExpression' ? callee.firstChild.firstChild : callee?.firstChild;
      const name = root === null || root === undefined ? undefined : scopes.key(root);
      if (name === undefined || argList === undefined) continue;
      const cur = labels.get(name) ?? new Set<DataLabel>();
      const before = cur.size;
      for (const arg of namedChildren(argList)) for (const l of labelsOf(arg)) if (l !== 'channel') cur.add(l);
      labels.set(name, cur);
      if (cur.size !== before) changed = true;
    }
    if (!changed) break;
  }
  returnMemo.clear();
  decodeMemo.clear();

  // Conditions on the calendar or on chance that calls run under (time bombs, sabotage by chance).
  const guardTexts = (c: SyntaxNode): string[] => {
    const out: string[] = [];
    let child: SyntaxNode = c;
    for (let p = c.parent; p !== null && out.length < 8; child = p, p = p.parent) {
      if (p.name === 'IfStatement') {
        const head = src(p).slice(0, 400);
        const colon = head.indexOf(':');
        if (colon !== -1 && c.from > p.from + colon) out.push(head.slice(0, colon));
      } else if (p.name === 'Body' || p.name === 'Script') {
        for (let st = p.firstChild; st !== null && st.from < child.from; st = st.nextSibling) {
          if (st.name !== 'IfStatement') continue;
          const body = st.getChild('Body');
          if (body !== null && /^\s*:?\s*(return|raise|sys\.exit)\b/.test(src(body))) out.push(src(st).slice(0, Math.max(0, src(st).indexOf(':'))));
        }
      }
    }
    return out;
  };
  const gateOfTexts = (texts: string[]): 'date' | 'chance' | undefined => {
    for (const t of texts) {
      let code = t;
      for (const m of t.match(/[A-Za-z_]\w*/g) ?? []) {
        const v = valueTexts.get(m);
        if (v !== undefined) code += ` ${v}`;
      }
      const g = clockOrChanceGate(code);
      if (g !== undefined) return g;
    }
    return undefined;
  };
  for (const a of assigns) {
    const { targets, value } = assignParts(a);
    if (value === undefined) continue;
    for (const t of targets) {
      if (t.name !== 'VariableName') continue;
      if (value.to - value.from < 300) valueTexts.set(src(t), src(value));
      if (!assignedValues.has(src(t))) assignedValues.set(src(t), value);
    }
  }
  // Names bound exactly once (assignments, parameters, loops, `as`, `:=`): a path is followed through those only.
  const bindCount = new Map<string, number>();
  for (const a of assigns) for (const t of assignParts(a).targets) if (t.name === 'VariableName') bindCount.set(src(t), (bindCount.get(src(t)) ?? 0) + 1);
  for (const p of params) bindCount.set(p, (bindCount.get(p) ?? 0) + 1);
  const reboundAt = new Map<string, boolean>();
  const paths = pythonPaths({
    src,
    qualify: (n) => qualify(n),
    fold: (n) => fold(n),
    boundOnce: (name) => {
      if (bindCount.get(name) !== 1 || !/^[A-Za-z_]\w*$/.test(name)) return undefined;
      let rebound = reboundAt.get(name);
      if (rebound === undefined) {
        rebound = new RegExp(`\\b(?:as|for|global|nonlocal)[ \\t]+(?:[\\w \\t,]{0,200},[ \\t]*)?${name}\\b|\\b${name}[ \\t]*:=`).test(text);
        reboundAt.set(name, rebound);
      }
      return rebound ? undefined : assignedValues.get(name);
    },
  });
  const shapeContext = { src, qualify: (n: SyntaxNode | undefined) => qualify(n), fold: (n: SyntaxNode | undefined) => fold(n), pathOf: paths.pathOf };
  const gatedDefs = new Map<string, 'date' | 'chance'>();
  const directGates = new Map<SyntaxNode, 'date' | 'chance'>();
  const gatesPossible = /\b(?:datetime|date\.today|time\.time|localtime|random|randint|randrange|randbelow)\b/.test(text);
  const PY_GATED_SINK = /^(?:os\.(?:remove|unlink|rmdir|removedirs|system|popen|kill|truncate|_exit)|shutil\.(?:rmtree|move)|subprocess\.\w+|open|sys\.exit|\?\.(?:unlink|rmdir|write_text|write_bytes|truncate))$/;
  for (const c of gatesPossible ? calls : []) {
    const head = namedChildren(c)[0];
    if (head?.name !== 'VariableName' && !PY_GATED_SINK.test(qualify(head) ?? '')) continue;
    const texts = guardTexts(c);
    if (texts.length === 0) continue;
    const g = gateOfTexts(texts);
    if (g === undefined) continue;
    directGates.set(c, g);
    const callee = namedChildren(c)[0];
    if (callee?.name === 'VariableName') gatedDefs.set(src(callee), g);
  }
  const enclosingDef = (c: SyntaxNode): string | undefined => {
    for (let p = c.parent; p !== null; p = p.parent) if (p.name === 'FunctionDefinition') return p.getChild('VariableName') === null ? undefined : src(p.getChild('VariableName')!);
    return undefined;
  };

  // Names bound to an HTTP client object: `s = requests.Session()`, `c = httpx.Client(…)`.
  const httpClients = new Set<string>();
  for (const a of assigns) {
    const { targets, value } = assignParts(a);
    if (value?.name !== 'CallExpression' || !/^(requests\.(Session|session)|httpx\.(Client|AsyncClient)|aiohttp\.ClientSession|urllib3\.PoolManager)$/.test(qualify(namedChildren(value)[0]) ?? '')) continue;
    for (const t of targets) if (t.name === 'VariableName') httpClients.add(src(t));
  }
  const factOf = new Map<SyntaxNode, { fact: CallFact; positional: SyntaxNode[] }>();
  for (const c of calls) {
    const [callee, argList] = namedChildren(c);
    const q = qualify(callee) ?? '?';
    const gate = gatesPossible ? (directGates.get(c) ?? (gatedDefs.size > 0 ? gatedDefs.get(enclosingDef(c) ?? '') : undefined)) : undefined;
    const args = argList === undefined ? [] : namedChildren(argList);
    const positional: (string | null)[] = [];
    const positionalNodes: SyntaxNode[] = [];
    const options: Record<string, string> = {};
    const argLabels = new Set<DataLabel>();
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a.name === 'VariableName' && args[i + 1]?.name === 'AssignOp') {
        const v = args[i + 2];
        const folded = fold(v) ?? (v === undefined ? undefined : src(v));
        if (folded !== undefined) options[src(a)] = folded;
        for (const l of labelsOf(v)) argLabels.add(l);
        i += 2;
        continue;
      }
      positional.push(fold(a) ?? null);
      positionalNodes.push(a);
      for (const l of labelsOf(a)) argLabels.add(l);
    }
    argLabels.delete('channel');
    const receiverLabels = callee?.name === 'MemberExpression' ? labelsOf(namedChildren(callee)[0]) : new Set<DataLabel>();
    // HTTP verbs count on a client object the file made (`s = requests.Session()`), not on any value that came from the network.
    const receiverName = callee?.name === 'MemberExpression' && namedChildren(callee)[0]?.name === 'VariableName' ? src(namedChildren(callee)[0]!) : undefined;
    const onChannel = receiverLabels.has('channel') && (/\.(send|sendall|sendto|write|post|put|request|connect|sendmail|send_message|storbinary|storlines)$/.test(q) || (receiverName !== undefined && httpClients.has(receiverName) && /\.(get|patch|delete|head|options)$/.test(q)));
    // A client's headers, cookies or auth set earlier (`s.headers.update({...})`) travel with every request it makes.
    if (onChannel) for (const l of receiverLabels) if (l === 'keymaterial' || l === 'secret' || l === 'env' || l === 'envtoken' || l === 'hostinfo') argLabels.add(l);
    let first = args[0];
    // exec(compile(b64decode(…), '<string>', 'exec')) decodes as directly as exec(b64decode(…)).
    if (first?.name === 'CallExpression' && /^(builtins\.)?compile$/.test(qualify(namedChildren(first)[0]) ?? '')) first = namedChildren(namedChildren(first)[1] ?? first)[0];
    const firstCallee = first?.name === 'CallExpression' ? qualify(namedChildren(first)[0]) : undefined;
    const firstLocal = first?.name === 'CallExpression' ? localFunctionOf(namedChildren(first)[0]!) : undefined;
    const firstFold = { decoded: false };
    // A call of a function named for decoding (`decode(x)`, `decrypt(x)`, `_unhex(x)`) decodes as surely as base64 does.
    const namedDecoder = firstCallee !== undefined && /(^|[._])(decode|decrypt|decompress|unhex|deobfuscate|unscramble|b64d\w*)$/i.test(firstCallee);
    const directDecode = namedDecoder || (first !== undefined && fold(first, firstFold) !== undefined && firstFold.decoded) || (firstLocal !== undefined && decodesInside(firstLocal)) || (firstCallee !== undefined && (DECODERS.test(firstCallee) || (/\.decode$/.test(firstCallee) && first !== undefined && /b64decode|fromhex|unhexlify|decompress/.test(src(first)))));
    const fact: CallFact = {
      callee: q,
      line: lineOf(c.from),
      args: positional,
      argLabels: [...argLabels],
      argStrings: argList === undefined ? [] : stringsIn(argList),
      options,
      unref: false,
      isNew: false,
      topLevel: !insideDefinition(c),
      onChannel,
      directDecode,
      ...(gate === undefined ? {} : { gate }),
    };
    // A deletion's target resolved from the file's location (`shutil.rmtree(BASE_DIR)`, BASE_DIR = `os.path.dirname(__file__)`).
    if (PY_DELETE.test(q)) {
      const path = paths.pathOf(positionalNodes[0]);
      if (path !== undefined) fact.argPath = path;
    }
    if (PY_PROCESS.test(q)) {
      const parts = paths.commandPaths(positionalNodes);
      if (parts !== undefined) fact.commandPaths = parts;
      Object.assign(fact, pythonCommandShape(shapeContext, q, positionalNodes));
    }
    facts.calls.push(fact);
    factOf.set(c, { fact, positional: positionalNodes });
    if (REFLECTED_API.test(q) || (q.includes('.') && isPythonNetworkCallee(q))) {
      const via = indirection(callee);
      if (via !== undefined) facts.reflectiveCalls.push({ callee: q, line: fact.line, via, expression: src(callee!).slice(0, 120) });
    }
    if (/^(dict|str|repr|json\.dumps|list)$/.test(q) && args[0] !== undefined && qualify(args[0]) === 'os.environ') facts.envDumps.push({ line: fact.line, expression: src(c).slice(0, 120) });
    if (q === 'os.environ.copy' || q === 'os.environ.items') facts.envDumps.push({ line: fact.line, expression: src(c).slice(0, 120) });
    const calleeParts = callee === undefined ? [] : namedChildren(callee);
    if ((callee?.name === 'VariableName' && (src(callee) === 'getattr' || src(callee) === '__import__')) || calleeParts.length === 0) {
      const nameArg = src(callee ?? c) === 'getattr' ? args[1] : src(callee ?? c) === '__import__' ? args[0] : undefined;
      // A constant imported from another module is a value written there, not one built here.
      if (nameArg !== undefined && nameArg.name !== 'String' && !isImportedName(nameArg)) {
        const name = fold(nameArg);
        if (name !== undefined && SENSITIVE_NAMES.has(name)) facts.hiddenNames.push({ name, line: fact.line, expression: src(c).slice(0, 120) });
      }
    }
  }
  // `def _purge(p): shutil.rmtree(p)`: a function of the file that deletes the path it is given deletes, at
  // each call, the path its caller passes (one level, as the JavaScript reader follows a writer).
  const deleters = new Map<string, { callee: string; param: number }>();
  for (const [c, { fact, positional }] of factOf) {
    if (!PY_DELETE.test(fact.callee) || positional[0]?.name !== 'VariableName') continue;
    let def: SyntaxNode | null = c.parent;
    while (def !== null && def.name !== 'FunctionDefinition' && def.name !== 'ClassDefinition') def = def.parent;
    const name = def?.name === 'FunctionDefinition' ? def.getChild('VariableName') : null;
    const paramList = def?.getChild('ParamList');
    if (name === null || name === undefined || paramList === null || paramList === undefined) continue;
    const k = paramNamesOf(paramList, src).indexOf(src(positional[0]));
    if (k >= 0 && !deleters.has(src(name))) deleters.set(src(name), { callee: fact.callee, param: k });
  }
  if (deleters.size > 0) {
    for (const [, { fact, positional }] of factOf) {
      const w = deleters.get(fact.callee);
      const arg = w === undefined ? undefined : positional[w.param];
      if (w === undefined || arg === undefined) continue;
      const labels = labelsOf(arg);
      labels.delete('channel');
      const path = paths.pathOf(arg);
      facts.calls.push({ ...fact, callee: w.callee, args: [fold(arg) ?? null], argLabels: [...labels], argStrings: stringsIn(arg), ...(path === undefined ? {} : { argPath: path }) });
    }
  }
  for (const c of facts.calls) {
    const name = /^os\.(getenv|environ\.get|environ\.setdefault|environ\.pop)$/.test(c.callee) ? c.args[0] : /^os\.environ\.\[(.+)\]$/.exec(c.callee)?.[1];
    if (typeof name === 'string' && SECRET_ENV_NAME.test(name)) facts.secretEnvNames.push({ name, line: c.line });
  }
  // Names read through a variable (`for k in ("ETH_PRIVATE_KEY", "MNEMONIC"): os.environ.get(k)`): the
  // file's own literal names of secret variables are what the getter is handed.
  const getters = facts.calls.filter((c) => /^os\.(getenv|environ\.get)$/.test(c.callee) && c.args[0] === null);
  if (getters.length > 0) {
    for (const s of facts.strings) if (/^[A-Z][A-Z0-9_]{2,}$/.test(s.value) && SECRET_ENV_NAME.test(s.value) && !facts.secretEnvNames.some((e) => e.name === s.value)) facts.secretEnvNames.push({ name: s.value, line: s.line });
  }
  const subscript = /os\.environ\s*\[\s*(?:f?["']([A-Za-z_][A-Za-z0-9_]*)["'])\s*\]/g;
  for (let m = subscript.exec(text); m !== null; m = subscript.exec(text)) if (SECRET_ENV_NAME.test(m[1]!)) facts.secretEnvNames.push({ name: m[1]!, line: lineOf(m.index) });
  // Functions defined in the file, by name, with their source (for what a replacement does).
  // Read only when a library's class attribute is assigned a name (most files assign none).
  let defsRead: Map<string, string> | null = null;
  const localDefs = (): Map<string, string> => {
    if (defsRead !== null) return defsRead;
    defsRead = new Map();
    for (const m of text.matchAll(/^([ \t]*)(?:async\s+)?def\s+(\w+)\s*\([^\n]*\n((?:\1[ \t]+[^\n]*\n|[ \t]*\n)*)/gm)) if (!defsRead.has(m[2]!)) defsRead.set(m[2]!, m[3]!);
    return defsRead;
  };
  // Network calls, and calls that put data on a chain through a blockchain client (`w3.eth.send_transaction(…)`).
  const PY_SEND = /\b(?:urlopen|urllib\.request|requests\.(?:post|get|put|request|Session)|httpx\.|http\.client|HTTPS?Connection|aiohttp|socket\.(?:socket|create_connection)|smtplib|\.sendall?\()|\.(?:send_transaction|send_raw_transaction|sendTransaction|submit_and_wait|make_request)\(/;
  const defSends = (name: string, depth = 0, seen = new Set<string>()): boolean => {
    const body = localDefs().get(name);
    if (body === undefined || depth > 2 || seen.has(name)) return false;
    seen.add(name);
    if (PY_SEND.test(body)) return true;
    // Functions it calls or hands to a thread (`Thread(target=_send, …)`).
    for (const m of body.matchAll(/\b(?:target\s*=\s*)?(\w+)\s*[(,)]/g)) if (m[1] !== name && localDefs().has(m[1]!) && defSends(m[1]!, depth + 1, seen)) return true;
    return false;
  };
  // Monkey-patching: `requests.Session.send = spy`, `setattr(builtins, 'input', spy)`.
  // Beyond the listed modules: a method of a class of any imported library (`lib.Client.__init__ = f`,
  // `lib.api.Session.request = f`) replaced by a function of this file.
  // Imported under its own root or through an alias (`import requests.sessions as _s` makes `_s.Session` `requests.sessions.Session`).
  const importedRoots = new Set([...aliases.keys(), ...[...aliases.values()].map((v) => v.split('.')[0]!)]);
  for (const a of memberAssigns) {
    const target = qualify(namedChildren(a)[0]);
    if (target === undefined || !target.includes('.') || !importedRoots.has(target.split('.')[0]!)) continue;
    let value = namedChildren(a).at(-1);
    // `staticmethod(f)`, `classmethod(f)`: the function they wrap is the replacement.
    if (value?.name === 'CallExpression' && /^(staticmethod|classmethod)$/.test(src(namedChildren(value)[0]!))) value = namedChildren(namedChildren(value)[1] ?? value)[0];
    const replacement = value?.name === 'VariableName' ? src(value) : null;
    const classMethod = /\.[A-Z]\w*\.(?:__\w+__|\w+)$/.test(target);
    if (!PATCHABLE.test(target) && !(classMethod && replacement !== null && localDefs().has(replacement))) continue;
    // A network method wrapped (retries, timeouts) sends by nature: judged by the rules for those.
    // A wrapper of a network method that also posts to a fixed address of its own sends what it intercepts.
    const elsewhere = replacement !== null && HARD_CODED_URL.test(localDefs().get(replacement) ?? '');
    const sends = replacement !== null && (!PY_SEND.test(`${target}(`) || elsewhere) && localDefs().has(replacement) && defSends(replacement);
    // What it forwards is a key or a secret when the patched method or the replacement's parameters say so.
    const params = replacement === null ? '' : (new RegExp(`^[ \\t]*(?:async\\s+)?def\\s+${replacement}\\s*\\(([^)]*)\\)`, 'm').exec(text)?.[1] ?? '');
    const secretArgs = sends && (SECRET_ARGUMENT_NAME.test(target.split('.').pop() ?? '') || params.split(',').some((p) => SECRET_ARGUMENT_NAME.test(p.split(/[:=]/)[0]!.replace(/\*/g, '').trim())));
    facts.hooks.push({ target, line: lineOf(a.from), ...(sends ? { sends: true } : {}), ...(secretArgs ? { secretArgs: true } : {}) });
  }
  for (const c of facts.calls) {
    if (c.callee !== 'setattr') continue;
    const call = calls.find((n) => lineOf(n.from) === c.line && qualify(namedChildren(n)[0]) === 'setattr');
    const args = call === undefined ? [] : namedChildren(namedChildren(call)[1] ?? call);
    const base = qualify(args[0]);
    const name = fold(args[1]);
    if (base === undefined || name === undefined || !importedRoots.has(base.split('.')[0]!)) continue;
    // `setattr(lib.Class, "method", f)` is the assignment `lib.Class.method = f`, judged the same way.
    const replacement = args[2]?.name === 'VariableName' ? src(args[2]) : null;
    const target = `${base}.${name}`;
    const classMethod = /\.[A-Z]\w*$/.test(base);
    if (!PATCHABLE.test(base) && !(classMethod && replacement !== null && localDefs().has(replacement))) continue;
    const elsewhere = replacement !== null && HARD_CODED_URL.test(localDefs().get(replacement) ?? '');
    const sends = replacement !== null && (!PY_SEND.test(`${target}(`) || elsewhere) && localDefs().has(replacement) && defSends(replacement);
    const params = replacement === null ? '' : (new RegExp(`^[ \\t]*(?:async\\s+)?def\\s+${replacement}\\s*\\(([^)]*)\\)`, 'm').exec(text)?.[1] ?? '');
    const secretArgs = sends && (SECRET_ARGUMENT_NAME.test(name) || params.split(',').some((p) => SECRET_ARGUMENT_NAME.test(p.split(/[:=]/)[0]!.replace(/\*/g, '').trim())));
    facts.hooks.push({ target, line: c.line, ...(sends ? { sends: true } : {}), ...(secretArgs ? { secretArgs: true } : {}) });
  }
  for (const s of strings) {
    if (s.parent?.name === 'ContinuedString') continue;
    const value = pythonStringValue(src(s));
    if (value.length >= 4) {
      facts.strings.push({ value, line: lineOf(s.from), decoded: false });
      pushInvisiblePayloads(facts.strings, value, lineOf(s.from));
    }
  }
  // Folded expressions (concatenations, decoders) add the strings they produce.
  for (const c of [...calls, ...assigns.map((a) => assignParts(a).value).filter((v): v is SyntaxNode => v !== undefined)]) {
    const st = { decoded: false };
    const v = fold(c, st);
    if (v !== undefined && v.length >= 4 && (st.decoded || c.name === 'BinaryExpression')) facts.strings.push({ value: v, line: lineOf(c.from), decoded: st.decoded });
  }
  const dictSpread = /\{\s*\*\*\s*os\.environ\s*\}/g;
  for (let m = dictSpread.exec(text); m !== null; m = dictSpread.exec(text)) facts.envDumps.push({ line: lineOf(m.index), expression: m[0] });
  for (const cls of classes) {
    const kids = namedChildren(cls);
    const name = kids.find((k) => k.name === 'VariableName');
    const bases = kids.find((k) => k.name === 'ArgList');
    if (name === undefined || bases === undefined) continue;
    for (const b of namedChildren(bases)) {
      const q = qualify(b) ?? src(b);
      const last = q.split('.').pop() ?? q;
      if (COMMAND_BASES.has(last) || COMMAND_BASES.has(last.replace(/^_/, ''))) facts.commandOverrides.push({ base: last, name: src(name), line: lineOf(cls.from) });
    }
  }
  if (located.size > 0) facts.locatedModules = [...located];
  return facts;
}

/** Inside `if __name__ == '__main__':`, which runs when the file is a script, never when it is imported. */
function insideMainGuard(n: SyntaxNode, text: string): boolean {
  for (let p = n.parent; p !== null; p = p.parent) {
    if (p.name === 'IfStatement' && /^if\s*\(?\s*(__name__\s*==\s*["']__main__["']|["']__main__["']\s*==\s*__name__)/.test(text.slice(p.from, p.from + 80))) return true;
  }
  return false;
}

function insideDefinition(n: SyntaxNode): boolean {
  for (let p = n.parent; p !== null; p = p.parent) if (p.name === 'FunctionDefinition' || p.name === 'ClassDefinition' || p.name === 'LambdaExpression') return true;
  return false;
}
