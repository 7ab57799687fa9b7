import { pythonSourceOf } from './python-source-cache.js';
import { PythonSource, type SyntaxNode } from '../skills/python-source.js';
import { SECRET_PATH_PATTERN } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';
import { CRONTAB_LISTED, HIDDEN_SHARED_TEMP, HUGE, METADATA_SERVICE, PERSISTENCE_PATH, SYSTEM_FILE, SYSTEM_LOCATION, hostOf, numberValue } from './effect-patterns.js';
import { handlerEffectList, type HandlerEffect, type HandlerEffectKind } from './handler-effect.js';
import { credentialElsewhere, environmentReads, expectedService, serverServiceWords } from './expected-service.js';

const NETWORK = /^(?:requests|httpx|urllib\.request|urllib3|http\.client|aiohttp|smtplib|ftplib|socket|websocket|websockets|paramiko|pycurl)\.|^(?:urlopen|urlretrieve)$/;
// Database modules whose `connect` opens a local file (`sqlite3.connect('notes.db')`), not a connection.
const LOCAL_DATABASE = /^(?:sqlite3|aiosqlite|duckdb|dbm|shelve|apsw|sqlcipher3|pysqlite2\.dbapi2)\./;
const NETWORK_SKIP = /\.(?:exceptions?|codes|utils|adapters|structures|Timeout|HTTPError|RequestException|ConnectionError|status_codes|AF_INET|SOCK_STREAM|gethostname|getfqdn|inet_\w+|htons|ntohs|error|timeout)$/;
const PROCESS = /^(?:subprocess\.\w+|os\.(?:system|popen|exec\w*|spawn\w*|posix_spawn\w*|startfile)|pty\.spawn|asyncio\.create_subprocess_\w+|commands\.\w+|sh\.\w+|pexpect\.\w+)$/;
const EVAL = /^(?:eval|exec|compile|builtins\.(?:eval|exec)|execfile)$/;
const DESERIALIZE = /^(?:pickle|cPickle|_pickle|dill|cloudpickle|marshal|shelve|jsonpickle)\.(?:loads?|Unpickler|open|decode)$|^yaml\.(?:unsafe_load|unsafe_load_all|full_load|load_all|load)$|^(?:importlib\.import_module|__import__|imp\.load_source|imp\.load_module|runpy\.run_\w+|importlib\.util\.spec_from_file_location|importlib\.machinery\.SourceFileLoader)$/;
const IMPORTS = /^(?:importlib\.import_module|__import__|imp\.load_source|imp\.load_module|runpy\.run_\w+|importlib\.machinery\.SourceFileLoader)$/;
// A globals mapping whose `__builtins__` is empty or None: eval/exec without open, __import__ and the rest.
const EMPTIED_BUILTINS = /['"]__builtins__['"]\s*:\s*(?:None|\{\s*\}|dict\(\s*\))/;
// Query engines a file imports, and the methods that run a query on each.
const QUERY_ENGINES: ReadonlyArray<[engine: 'sql' | 'ldap' | 'xpath' | 'mongo', imports: RegExp, methods: RegExp]> = [
  ['sql', /^\s*(?:import|from)\s+(?:sqlite3|aiosqlite|psycopg2?|pymysql|MySQLdb|mysql\.connector|asyncpg|duckdb|pyodbc|cx_Oracle|oracledb|sqlalchemy)\b/m, /^(?:execute|executemany|executescript|exec_driver_sql|fetch|fetchrow|fetchval)$/],
  ['ldap', /^\s*(?:import|from)\s+ldap3?\b/m, /^(?:search|search_s|search_st|search_ext|search_ext_s|paged_search)$/],
  ['xpath', /^\s*(?:import|from)\s+(?:lxml|elementpath|xml\.etree|defusedxml)\b/m, /^(?:xpath|XPath|XPathEvaluator|iterfind|findall|find)$/],
  ['mongo', /^\s*(?:import|from)\s+(?:pymongo|motor|mongoengine)\b/m, /^(?:find|find_one|find_one_and_\w+|aggregate|count_documents|delete_one|delete_many|update_one|update_many|replace_one|distinct)$/],
];
// MongoDB operators that run JavaScript or patterns: an input placed under one is an injection.
const MONGO_CODE_OPERATOR = /^['"]\$(?:where|regex|function|accumulator|expr)['"]$/;
const ESCAPES = /escape|quote|saniti[sz]|parametri[sz]/i;
// A whole web address written as a literal (not an f-string or a template with placeholders).
const URL_LITERAL = /(?<![\w'"])(['"])https?:\/\/[^'"\s{}]+\1/;
const FILLS = /^(?:update|append|extend|insert|add|setdefault)$/;
const TEMPLATE = /(?:^|\.)(?:jinja2\.(?:Template|environment\.Template)|mako\.template\.Template|Cheetah\.Template\.Template|django\.template\.(?:Template|Engine)|tornado\.template\.Template|chevron\.render|pystache\.render|string\.Template|genshi\.template\.MarkupTemplate)$/;
const TEMPLATE_METHODS = new Set(['from_string', 'render_string', 'format', 'format_map', 'safe_substitute', 'substitute']);
const HOST_ENUM = /^(?:pwd\.getpwall|grp\.getgrall|spwd\.\w+|psutil\.(?:process_iter|pids|net_connections|net_if_addrs|users|disk_partitions|Process)|netifaces\.\w+|socket\.if_nameindex|os\.getgroups|os\.getgrouplist|win32net\.\w+|winreg\.\w+)$/;
const FILE_READ = /^(?:os\.(?:listdir|scandir|walk)|glob\.i?glob|os\.path\.getsize)$/;
const FILE_WRITE = /^(?:shutil\.(?:copy|copy2|copyfile|copytree|move|copyfileobj)|os\.(?:rename|replace|makedirs|mkdir|truncate|mkfifo|mknod))$/;
const FILE_DELETE = /^(?:os\.(?:remove|unlink|rmdir|removedirs)|shutil\.rmtree)$/;
const PERMISSIONS = /^(?:os\.(?:chmod|lchmod|fchmod|chown|lchown|fchown|setuid|setgid|seteuid|setegid|setreuid|setresuid)|shutil\.chown)$/;
const LINK = /^os\.(?:symlink|link)$/;
// Calls that decode data: what they return was hidden until run time.
const DECODED = /\b(?:b64decode|b32decode|b85decode|a85decode|urlsafe_b64decode|decodebytes|unhexlify|fromhex|decompress|marshal\.loads)\s*\(/;
// Methods of a logger that write a record.
const LOG_METHOD = /^(?:debug|info|warning|warn|error|critical|exception|log|fatal)$/;
const SPAWN_IN_LOOP = /^(?:os\.fork|threading\.Thread|multiprocessing\.Process|subprocess\.Popen|socket\.socket|socket\.create_connection|open|mmap\.mmap)$/;

// Calls of the handler into the file's own functions are followed this deep, over at most this many functions.
const MAX_DEPTH = 5;
const MAX_FUNCTIONS = 60;

interface Frame {
  fn: SyntaxNode;
  /** Names that hold the tool's input. */
  tainted: Set<string>;
  depth: number;
}

function* descendants(node: SyntaxNode): Generator<SyntaxNode> {
  const cursor = node.cursor();
  if (!cursor.firstChild()) return;
  do yield cursor.node;
  while (cursor.next() && cursor.from < node.to);
}

interface FileIndex {
  text: string;
  src: PythonSource;
  lineAt: (offset: number) => number;
  functions: Map<string, SyntaxNode[]>;
  attributes: Map<string, SyntaxNode[]>;
  definitions: SyntaxNode[];
  decoding: Set<string>;
  linkAttributes: Set<string>;
}

// The tools of one file are read one after another: parse and index the file once for all of them.
let lastIndex: FileIndex | null = null;

function indexOf(text: string): FileIndex {
  if (lastIndex !== null && lastIndex.text === text) return lastIndex;
  const src = pythonSourceOf(text);
  const functions = new Map<string, SyntaxNode[]>();
  const attributes = new Map<string, SyntaxNode[]>();
  const definitions: SyntaxNode[] = [];
  const cursor = src.tree.cursor();
  do {
    const n = cursor.node;
    if (n.name === 'FunctionDefinition') {
      definitions.push(n);
      const name = n.getChild('VariableName');
      if (name) functions.set(src.slice(name), [...(functions.get(src.slice(name)) ?? []), n]);
    } else if (n.name === 'AssignStatement' && n.parent && (n.parent.name === 'Body' || n.parent.name === 'Script') && n.parent.parent?.name !== 'FunctionDefinition') {
      const target = n.firstChild;
      if (target?.name === 'VariableName') attributes.set(src.slice(target), [...(attributes.get(src.slice(target)) ?? []), n]);
    }
  } while (cursor.next());
  // Functions that return what they decode: a call to one is decoded data, as a decode call is.
  const decoding = new Set<string>();
  for (const [name, defs] of functions) {
    if (defs.some((d) => [...descendants(d)].some((r) => r.name === 'ReturnStatement' && DECODED.test(src.slice(r))))) decoding.add(name);
  }
  // Constants (module or class level) that hold web links.
  const linkAttributes = new Set<string>();
  for (const [name, assigns] of attributes) if (assigns.some((a) => URL_LITERAL.test(src.slice(a).slice(0, 20_000)))) linkAttributes.add(name);
  lastIndex = { text, src, lineAt: lineLocator(text), functions, attributes, definitions, decoding, linkAttributes };
  return lastIndex;
}

/**
 * What the handler of one Python tool does: the effects of its body and of every function or
 * method of the same file it calls (by name, up to five calls deep), with the flow of the tool's
 * input (its parameters) through assignments and into the functions it calls.
 */
export function pythonHandlerEffects(text: string, handler: [number, number], inputNames: readonly string[], runners: ReadonlySet<string> = new Set()): HandlerEffect[] {
  const { src, lineAt, functions, attributes, definitions, decoding, linkAttributes } = indexOf(text);
  const root: SyntaxNode | null = definitions.find((n) => n.from >= handler[0] && n.to <= handler[1]) ?? null;
  if (root === null) return [];

  const list = handlerEffectList(text, lineAt);
  const { effects } = list;
  const add = (kind: HandlerEffectKind, node: SyntaxNode, fromInput: boolean, extra: Partial<HandlerEffect> = {}) => list.add(kind, node.from, node.to, fromInput, extra);
  const visited = new Set<string>();
  const readNames = new Set<string>();
  // Names holding a credential from the environment, with its variables (see js-handler-effects.ts, round s28).
  const credentialNames = new Map<string, string[]>();
  const serverWords = serverServiceWords(text);
  const credentialsIn = (nodes: ReadonlyArray<SyntaxNode | null | undefined>): string[] => {
    const out = new Set<string>();
    for (const node of nodes) {
      if (!node) continue;
      for (const e of environmentReads(src.slice(node).slice(0, 2000), 'python').credentials) out.add(e);
      if (node.name === 'VariableName') for (const e of credentialNames.get(src.slice(node)) ?? []) out.add(e);
      for (const d of descendants(node)) if (d.name === 'VariableName') for (const e of credentialNames.get(src.slice(d)) ?? []) out.add(e);
    }
    return [...out];
  };
  const decodedNames = new Set<string>();
  const queue: Frame[] = [{ fn: root, tainted: new Set(inputNames), depth: 0 }];
  // Query injection needs the input composed into the query text (or parsed into a filter), and no escaping on the way.
  const engines = QUERY_ENGINES.filter(([, imports]) => imports.test(text));
  const querySinks: Array<{ node: SyntaxNode; engine: string }> = [];
  let composedInput = false;
  let structuredInput = false;
  let escapedInput = false;
  // Names bound to tarfile objects, and their extractions without a member filter.
  const tarNames = new Set<string>();
  const tarExtracts = new Set<number>();
  // Names holding a fixed link (a literal URL, or an item of a constant that holds links).
  const linkNames = new Set<string>();
  const carriesLink = (node: SyntaxNode | null | undefined): boolean => {
    if (!node) return false;
    const t = src.slice(node).slice(0, 4000);
    if (URL_LITERAL.test(t) || mentions(node, linkNames)) return true;
    for (const d of descendants(node)) if ((d.name === 'PropertyName' || d.name === 'VariableName') && linkAttributes.has(src.slice(d))) return true;
    return linkAttributes.has(src.slice(node));
  };
  // Path traversal: the input joined onto a fixed base directory, with no normalise-then-compare check
  // anywhere the handler reaches (a prefix test on an unnormalised path lets `../` through).
  const joins: SyntaxNode[] = [];
  let normalised = false;
  let compared = false;
  let stripped = false;
  const constantOf = (node: SyntaxNode | undefined): string | null => {
    if (!node) return null;
    const folded = node.name === 'String' ? src.fold(node) : null;
    if (folded !== null) return folded;
    const name = node.name === 'VariableName' ? src.slice(node) : node.name === 'MemberExpression' && node.lastChild?.name === 'PropertyName' ? src.slice(node.lastChild) : null;
    const assigned = name === null ? undefined : attributes.get(name)?.[0]?.lastChild;
    return assigned?.name === 'String' ? src.fold(assigned) : null;
  };
  const usedAttributes = new Set<string>();

  const mentions = (node: SyntaxNode | null | undefined, names: ReadonlySet<string>): boolean => {
    if (!node || names.size === 0) return false;
    if (node.name === 'VariableName') return names.has(src.slice(node));
    for (const d of descendants(node)) if (d.name === 'VariableName' && names.has(src.slice(d))) return true;
    return false;
  };
  const calleeName = (call: SyntaxNode): { q: string | null; method: string | null } => {
    const callee = call.firstChild;
    const q = src.qualify(callee);
    let method: string | null = null;
    if (callee?.name === 'MemberExpression') {
      const prop = callee.lastChild;
      if (prop?.name === 'PropertyName') method = src.slice(prop);
    } else if (callee?.name === 'VariableName') method = src.slice(callee);
    return { q, method };
  };
  // The object a method is called on (`sock` of `sock.connect(…)`), not the whole callee: the
  // callee `sqlite3.connect` contains "conn" though it opens a local file.
  const receiverText = (call: SyntaxNode): string => {
    const callee = call.firstChild;
    return callee?.name === 'MemberExpression' ? src.slice(callee.firstChild ?? callee) : '';
  };
  // A mode chosen at run time (a parameter): the file is written when the handle it gives is.
  const writtenThroughHandle = (open: SyntaxNode): boolean => {
    const holder = open.parent?.name === 'WithStatement' || open.parent?.name === 'AssignStatement' ? open.parent : null;
    if (!holder) return false;
    let handle: string | null = null;
    for (let c = holder.firstChild; c && c.name !== 'Body'; c = c.nextSibling) if (c.name === 'VariableName' && (holder.name === 'AssignStatement' ? c.from < open.from : c.from > open.to)) handle = src.slice(c);
    if (handle === null) return false;
    const scopeText = src.slice(holder.name === 'WithStatement' ? holder : (holder.parent ?? holder));
    const h = handle.replace(/[^\w]/g, '');
    return new RegExp(`\\b${h}\\.(?:write|writelines|truncate)\\s*\\(|\\b(?:dump|write)\\s*\\([^()]*(?:\\([^()]*\\)[^()]*)*,\\s*${h}\\s*[,)]`).test(scopeText);
  };
  const inLoop = (node: SyntaxNode, fn: SyntaxNode): SyntaxNode | null => {
    for (let p = node.parent; p && p !== fn; p = p.parent) if (p.name === 'WhileStatement' || p.name === 'ForStatement') return p;
    return null;
  };
  const loopUnbounded = (loop: SyntaxNode, tainted: ReadonlySet<string>): boolean => {
    if (loop.name === 'WhileStatement') {
      const test = loop.getChild('Boolean') ?? loop.firstChild?.nextSibling;
      return test !== null && test !== undefined && /^(?:True|1)$/.test(src.slice(test));
    }
    // for _ in range(count): a count from the tool's input, or a huge constant.
    const iter = [...descendants(loop)].find((d) => d.name === 'CallExpression' && src.qualify(d.firstChild) === 'range');
    if (!iter || iter.from > (loop.getChild('Body')?.from ?? loop.to)) return false;
    const args = src.args(iter);
    const bound = args[args.length > 1 ? 1 : 0]?.value;
    return mentions(bound, tainted) || numberValue(bound ? src.slice(bound) : '') >= HUGE;
  };

  while (queue.length > 0) {
    const frame = queue.shift() as Frame;
    const key = `${frame.fn.from}`;
    if (visited.has(key) || visited.size >= MAX_FUNCTIONS) continue;
    visited.add(key);
    const { fn, tainted } = frame;
    const body = fn.getChild('Body');
    if (!body) continue;
    // Default values of the parameters are the function's constants too (`path: str = "/var/run/docker.sock"`).
    const paramList = fn.getChild('ParamList');
    const nodes = [...(paramList ? [...descendants(paramList)].filter((d) => d.name === 'String') : []), ...descendants(body)];
    // Taint and read values flow through assignments, in two passes (a loop may assign late).
    for (let pass = 0; pass < 2; pass++) {
      for (const n of nodes) {
        // A container filled with the input carries it: `criteria["uid"] = username`, `filters.update(parsed)`.
        const container = n.name === 'AssignStatement' && n.firstChild?.name === 'MemberExpression' ? n.firstChild.firstChild : n.name === 'CallExpression' && n.firstChild?.name === 'MemberExpression' && FILLS.test(src.slice(n.firstChild.lastChild ?? n)) ? n.firstChild.firstChild : null;
        if (container?.name === 'VariableName' && mentions(n.name === 'AssignStatement' ? n.lastChild : n.getChild('ArgList'), tainted)) tainted.add(src.slice(container));
        if (n.name !== 'AssignStatement' && n.name !== 'UpdateStatement' && n.name !== 'ForStatement' && n.name !== 'WithStatement') continue;
        const value = n.name === 'ForStatement' ? n.getChild('in')?.nextSibling : n.name === 'WithStatement' ? n.firstChild?.nextSibling : n.lastChild;
        const targets: SyntaxNode[] = [];
        if (n.name === 'ForStatement' || n.name === 'WithStatement') {
          for (let c = n.firstChild; c && c.name !== 'Body'; c = c.nextSibling) if (c.name === 'VariableName' && c !== value) targets.push(c);
        } else for (let c = n.firstChild; c && c !== n.lastChild; c = c.nextSibling) if (c.name === 'VariableName') targets.push(c);
        if (!value) continue;
        const fromInput = mentions(value, tainted);
        const vText = src.slice(value);
        // The whole environment is what a handler reads; one variable is configuration, or a credential (kept apart).
        const env = environmentReads(vText.slice(0, 400), 'python');
        const read = mentions(value, readNames) || /\b(?:open|read|read_text|read_bytes|readlines|load|getpass|getuser|gethostname|check_output|getoutput)\b/.test(vText.slice(0, 400)) || env.whole;
        const credentials = credentialsIn([value]);
        const decoded = mentions(value, decodedNames) || DECODED.test(vText.slice(0, 400)) || (value.name === 'CallExpression' && decoding.has(calleeName(value).method ?? ''));
        // A link is carried by literals, items and copies, not by what a call (a request) returns.
        if (/^tarfile\.(?:open|TarFile)\b/.test(vText)) for (const t of targets) tarNames.add(src.slice(t));
        const link = (value.name !== 'CallExpression' || /^(?:random\.(?:choice|sample|choices)|copy\.(?:copy|deepcopy)|dict|list|enumerate|zip)$/.test(src.qualify(value.firstChild) ?? '') || /^(?:items|values|keys|copy|get)$/.test(calleeName(value).method ?? '')) && carriesLink(value);
        for (const t of targets) {
          if (link) linkNames.add(src.slice(t));
          if (fromInput) tainted.add(src.slice(t));
          if (read) readNames.add(src.slice(t));
          if (credentials.length > 0) credentialNames.set(src.slice(t), [...new Set([...(credentialNames.get(src.slice(t)) ?? []), ...credentials])]);
          if (decoded) decodedNames.add(src.slice(t));
        }
      }
    }
    for (const n of nodes) {
      if (n.name === 'ContinuedString') {
        // Adjacent literals ("a" f"b" "c") are one text to the model.
        let returned = false;
        for (let p = n.parent; p && p !== fn && !returned; p = p.parent) returned = p.name === 'ReturnStatement';
        const joined = [...descendants(n)].filter((c) => c.name === 'String' || c.name === 'FormatString').map((c) => src.slice(c).replace(/^[rRbBuUfF]*(['"]{1,3})|(['"]{1,3})$/g, '')).join('');
        if (returned && joined.length >= 20) effects.push({ kind: 'returned-text', line: lineAt(n.from), evidence: joined.slice(0, 1500), fromInput: false });
        continue;
      }
      if (engines.length > 0 && (n.name === 'FormatString' || n.name === 'BinaryExpression') && mentions(n, tainted)) composedInput = true;
      if (n.name === 'String' || n.name === 'FormatString') {
        const value = (n.name === 'String' ? src.fold(n) : null) ?? src.slice(n).replace(/^[rRbBuUfF]*(['"]{1,3})|(['"]{1,3})$/g, '');
        // Text the handler returns reaches the model as the tool's result.
        let returned = false;
        for (let p = n.parent; p && p !== fn && !returned; p = p.parent) returned = p.name === 'ReturnStatement';
        if (returned && value.length >= 20) effects.push({ kind: 'returned-text', line: lineAt(n.from), evidence: value.slice(0, 1500), fromInput: false });
        if (value.length > 300) continue;
        if (SYSTEM_FILE.test(value)) add('system-file', n, false);
        if (SECRET_PATH_PATTERN.test(value)) add('credential-file', n, false);
        if (PERSISTENCE_PATH.test(value) && !(value === 'crontab' && CRONTAB_LISTED.test(src.text.slice(n.to, n.to + 120)))) add('persistence', n, false);
        if (METADATA_SERVICE.test(value)) add('metadata-service', n, false);
        if (SYSTEM_LOCATION.test(value)) add('system-location', n, false);
        if (HIDDEN_SHARED_TEMP.test(value)) add('hidden-temp', n, false);
        continue;
      }
      if (n.name === 'VariableName' || n.name === 'PropertyName') {
        const name = src.slice(n);
        if (attributes.has(name) && !usedAttributes.has(name)) {
          usedAttributes.add(name);
          // A class or module constant the handler reads (`Accessor.FILES`): its strings are the handler's.
          for (const a of attributes.get(name) ?? []) {
            for (const d of descendants(a)) {
              if (d.name !== 'String') continue;
              const value = src.fold(d) ?? '';
              if (value.length > 300) continue;
              if (SYSTEM_FILE.test(value)) add('system-file', d, false);
              if (SECRET_PATH_PATTERN.test(value)) add('credential-file', d, false);
              if (PERSISTENCE_PATH.test(value)) add('persistence', d, false);
              if (METADATA_SERVICE.test(value)) add('metadata-service', d, false);
              if (SYSTEM_LOCATION.test(value)) add('system-location', d, false);
              if (HIDDEN_SHARED_TEMP.test(value)) add('hidden-temp', d, false);
            }
          }
        }
        if (n.name === 'VariableName' && src.qualify(n) === 'os.environ' && n.parent?.name === 'ForStatement') add('env-enumeration', n.parent, false);
        continue;
      }
      if (n.name === 'MemberExpression' && /^stat\.S_IS[UG]ID$/.test(src.qualify(n) ?? '')) {
        add('permissions', n, false);
        continue;
      }
      if (n.name === 'MemberExpression' && src.qualify(n) === 'os.environ') {
        const parent = n.parent;
        const method = parent?.name === 'MemberExpression' ? parent.getChild('PropertyName') : null;
        const call = parent?.name === 'ArgList' ? parent.parent : null;
        const wrapper = call ? src.qualify(call.firstChild) : null;
        if ((method && /^(?:items|keys|values|copy)$/.test(src.slice(method))) || (wrapper !== null && /^(?:dict|json\.dumps|str|repr|list|sorted)$/.test(wrapper))) add('env-enumeration', parent ?? n, false);
        continue;
      }
      if (n.name === 'WhileStatement') {
        if (loopUnbounded(n, tainted) && !/\b(?:break|return|raise)\b/.test(src.slice(n.getChild('Body') ?? n))) add('unbounded', n, false);
        continue;
      }
      if (engines.length > 0 && n.name === 'DictionaryExpression') {
        for (let c = n.firstChild; c; c = c.nextSibling) if (c.name === 'String' && MONGO_CODE_OPERATOR.test(src.slice(c)) && mentions(c.nextSibling?.nextSibling, tainted)) structuredInput = true;
      }
      if (n.name === 'BinaryExpression') {
        const op = n.getChild('ArithOp');
        if (op && src.slice(op) === '*') {
          // bytes or text repeated a number of times the tool's input chooses.
          const literal = n.firstChild?.name === 'String' || n.firstChild?.name === 'ArrayExpression';
          // (Round s30, real false alarms: amazon-keyspaces-mcp-server's `['---'] * len(columns)`.) A count that is the
          // length of a collection the tool already holds (`len(columns)`) makes no more than that collection.
          if (literal && mentions(n.lastChild, tainted) && !/\bmin\(/.test(src.slice(n)) && !/^len\s*\(/.test(n.lastChild === null ? '' : src.slice(n.lastChild))) add('unbounded', n, true);
          // A huge factor makes work only when it sizes something: a repeated string, bytes or list
          // (`b'x' * 10**9`), not a unit conversion (`days * 86_400_000`, `s * 1_000_000_000`).
          const sized = literal || /^(?:bytes|bytearray|range|list)\b/.test(src.slice(n.parent ?? n).replace(/^\s+/, '')) || (n.parent?.parent?.name === 'CallExpression' && /^(?:bytes|bytearray|range|b?'|")/.test(src.slice(n.parent.parent)));
          for (let c = n.firstChild; c && sized; c = c.nextSibling) {
            if (c.name === 'Number' && numberValue(src.slice(c)) >= HUGE) add('unbounded', n, false);
            if (c.name === 'BinaryExpression' && /^\d+\s*\*\*\s*\d+$/.test(src.slice(c)) && numberValue(src.slice(c)) >= HUGE) add('unbounded', n, false);
          }
        }
        continue;
      }
      if (n.name !== 'CallExpression') continue;
      const { q, method } = calleeName(n);
      const args = src.args(n);
      const first = args.find((a) => a.keyword === null)?.value;
      const anyInput = args.some((a) => mentions(a.value, tainted));
      const name = q ?? method ?? '';
      if (name === 'range') {
        const bound = args[args.length > 1 ? 1 : 0]?.value;
        // A million iterations of anything is not what a tool call needs.
        if (bound && numberValue(src.slice(bound)) >= 1_000_000) add('unbounded', n, false);
      }
      if (SPAWN_IN_LOOP.test(name)) {
        const loop = inLoop(n, fn);
        if (loop && loopUnbounded(loop, tainted)) add('unbounded', n, true);
      }
      if (q === 'sys.setrecursionlimit' && numberValue(first ? src.slice(first) : '') >= 100_000) add('unbounded', n, false);
      if (q !== null && /^re\.(?:compile|match|search|fullmatch|findall|finditer|sub|split)$/.test(q) && mentions(first, tainted)) add('input-regex', n, true);
      if (q !== null && NETWORK.test(q) && !NETWORK_SKIP.test(q)) {
        const urlArg = args.find((a) => a.keyword === 'url')?.value ?? first;
        const url = urlArg ? (src.fold(urlArg) ?? src.slice(urlArg).replace(/^[fF]?(['"])/, '')) : '';
        const host = hostOf(url);
        let top: SyntaxNode = n;
        while (top.parent && (top.parent.name === 'AwaitExpression' || top.parent.name === 'ParenthesizedExpression')) top = top.parent;
        const discarded = top.parent?.name === 'ExpressionStatement';
        const known = host !== null && !/[{}]/.test(host) ? host : null;
        const credentials = credentialsIn(args.map((a) => a.value));
        add('network', n, anyInput, { discarded, carriesRead: args.some((a) => mentions(a.value, readNames)) || credentialElsewhere(known, credentials), credentials, service: expectedService(known, credentials, serverWords), ...(known !== null ? { host: known } : {}) });
        if (q === 'socket.socket' || q === 'socket.create_connection') {
          const loop = inLoop(n, fn);
          if (loop) add('port-scan', n, anyInput);
        }
      } else if (method !== null && /^(?:send|sendall|sendto|connect)$/.test(method) && /sock|conn|client|smtp|server/i.test(receiverText(n)) && !(q !== null && LOCAL_DATABASE.test(q))) {
        add('network', n, anyInput, { discarded: true, carriesRead: args.some((a) => mentions(a.value, readNames)) });
      }
      // A function of another module of the server that runs what it is given in a shell
      // (`from .util import run` with `subprocess.run(cmd, shell=True)` there): the line handed to it
      // is a shell command — also when the function is a thin wrapper its call resolves through.
      if (runners.size > 0 && n.firstChild && runners.has(src.slice(n.firstChild))) add('process', n, anyInput, { shellLine: true });
      else if (q !== null && PROCESS.test(q)) add('process', n, anyInput);
      const decodedArg = q !== null && EVAL.test(q) && first !== undefined && (mentions(first, decodedNames) || DECODED.test(src.slice(first)) || (first.name === 'CallExpression' && decoding.has(calleeName(first).method ?? '')));
      // (round s31) A constant is skipped unless it takes a decoding helper to read: `exec(unpack("…"))` folds now
      // that helpers of the file are read in place, and is still a decoded run.
      if (q !== null && EVAL.test(q) && first && (src.fold(first) === null || (decodedArg && first.name === 'CallExpression' && decoding.has(calleeName(first).method ?? '')))) {
        // compile() only builds a code object; eval/exec given globals whose builtins are emptied run in a reduced namespace.
        const unrestricted = q !== 'compile' && !args.slice(1).some((a) => EMPTIED_BUILTINS.test(src.slice(a.value)));
        add('code-eval', n, mentions(first, tainted), { decoded: decodedArg, unrestricted });
      }
      if (q !== null && DESERIALIZE.test(q)) {
        const safe = /^yaml\.load(?:_all)?$/.test(q) && args.some((a) => a.keyword === 'Loader' && /Safe|BaseLoader/.test(src.slice(a.value)));
        const constant = /import_module|__import__/.test(q) && first !== undefined && src.fold(first) !== null;
        // Importing a module or a file runs its top-level code with the server's rights.
        if (!safe && !constant) add('code-eval', n, anyInput, { unrestricted: IMPORTS.test(q) });
      }
      const templateCall = (q !== null && TEMPLATE.test(q)) || (method !== null && TEMPLATE_METHODS.has(method) && q !== null && !/^(?:str|datetime)\./.test(q));
      if (templateCall) {
        // The template text: the first argument, or for `x.format(…)`/`x.substitute(…)` the receiver.
        const receiver = n.firstChild?.name === 'MemberExpression' ? n.firstChild.firstChild : null;
        const textArg = method === 'format' || method === 'format_map' || method === 'substitute' || method === 'safe_substitute' ? receiver : first;
        if (textArg && textArg.name !== 'String' && mentions(textArg, tainted)) add('template-injection', n, true);
      }
      if (q !== null && HOST_ENUM.test(q)) add('host-enumeration', n, false);
      if (method !== null && /^(?:insert|append|extend)$/.test(method) && args.some((a) => carriesLink(a.value))) {
        // Only where the input's words choose: a condition of this function reads the input.
        const chooses = nodes.some((c) => (c.name === 'IfStatement' || c.name === 'ConditionalExpression') && mentions(c.getChild('Body') ? c.firstChild?.nextSibling : c, tainted));
        if (chooses) add('injected-link', n, true);
      }
      if ((q !== null && /^(?:os\.path\.join|posixpath\.join|pathlib\.Path|pathlib\.PurePath|Path)$/.test(q)) || method === 'joinpath') {
        const positional = args.filter((a) => a.keyword === null).map((a) => a.value);
        const base = method === 'joinpath' ? n.firstChild?.firstChild ?? undefined : positional[0];
        if (/^\//.test(constantOf(base) ?? '') && positional.some((a) => a !== base && mentions(a, tainted))) joins.push(n);
      }
      if (q !== null && /^(?:os\.path\.(?:realpath|abspath|normpath)|posixpath\.normpath)$/.test(q)) normalised = true;
      if (method === 'resolve' || method === 'absolute') normalised = true;
      if (method !== null && /^(?:startswith|is_relative_to|relative_to)$/.test(method)) compared = true;
      if (q !== null && /^os\.path\.(?:commonpath|commonprefix)$/.test(q)) compared = true;
      if (anyInput && q !== null && /^(?:os\.path\.basename|werkzeug\.utils\.secure_filename|secure_filename)$/.test(q)) stripped = true;
      if (engines.length > 0) {
        if (anyInput && (method === 'format' || method === 'join')) composedInput = true;
        if (anyInput && /^(?:json\.loads|ast\.literal_eval|yaml\.safe_load|bson\.json_util\.loads)$/.test(q ?? '')) structuredInput = true;
        if (anyInput && ESCAPES.test(method ?? '')) escapedInput = true;
        const engine = method === null ? undefined : engines.find(([, , methods]) => methods.test(method));
        const positional = args.filter((a) => a.keyword === null);
        if (engine?.[0] === 'sql' && positional.length === 1 && mentions(first, tainted)) querySinks.push({ node: n, engine: 'sql' });
        if (engine?.[0] === 'ldap' && anyInput) querySinks.push({ node: n, engine: 'ldap' });
        // XPath variables passed as keywords are bound, not spliced.
        if (engine?.[0] === 'xpath' && mentions(first, tainted) && args.every((a) => a.keyword === null)) querySinks.push({ node: n, engine: 'xpath' });
        if (engine?.[0] === 'mongo' && mentions(first, tainted)) querySinks.push({ node: n, engine: 'mongo' });
      }
      if (name === 'open' || name === 'io.open' || name === 'codecs.open' || name === 'os.open') {
        const mode = args.find((a) => a.keyword === 'mode')?.value ?? args.filter((a) => a.keyword === null)[1]?.value;
        const m = mode ? (src.fold(mode) ?? (writtenThroughHandle(n) ? 'w' : '')) : 'r';
        add(/[wax+]|O_WRONLY|O_RDWR|O_CREAT/.test(m) ? 'file-write' : 'file-read', n, mentions(first, tainted));
      }
      // The input put into a file's content (not only its path).
      if (q !== null && /^(?:json|pickle|cPickle|dill|marshal|yaml|toml|tomli_w|csv)\.(?:dump|safe_dump|dump_all)$/.test(q) && mentions(first, tainted)) add('stored-input', n, true);
      if (method !== null && /^(?:write|writelines|writerow|writerows|write_text|write_bytes)$/.test(method) && args.some((a) => mentions(a.value, tainted))) add('stored-input', n, true);
      // A logger given the input or what the handler read (the record goes where the logger's handlers write).
      if (method !== null && LOG_METHOD.test(method) && n.firstChild !== null && /log/i.test(src.slice(n.firstChild).replace(/\.\w+$/, '')) && args.some((a) => mentions(a.value, tainted))) add('logged-input', n, true);
      if (method === 'exec_module') add('code-eval', n, anyInput || mentions(n.firstChild, tainted), { unrestricted: true });
      if (method === 'connect_ex' && inLoop(n, fn)) add('port-scan', n, anyInput);
      if (method !== null && /^(?:read_text|read_bytes)$/.test(method)) add('file-read', n, mentions(n.firstChild, tainted));
      if (method !== null && /^(?:write_text|write_bytes)$/.test(method)) add('file-write', n, mentions(n.firstChild, tainted) || anyInput);
      if (method !== null && /^(?:unlink|rmdir|rmtree)$/.test(method)) add('file-delete', n, mentions(n.firstChild, tainted) || anyInput);
      if (method !== null && /^(?:symlink_to|hardlink_to)$/.test(method)) add('link', n, anyInput || mentions(n.firstChild, tainted));
      if (method !== null && /^(?:extractall|extract)$/.test(method)) {
        add('extract', n, anyInput || mentions(n.firstChild, tainted));
        if (mentions(n.firstChild, tarNames) && !args.some((a) => a.keyword === 'filter')) tarExtracts.add(n.from);
      }
      if (q !== null && FILE_READ.test(q)) add('file-read', n, anyInput);
      if (q !== null && FILE_WRITE.test(q)) {
        if (/copy|move/.test(q)) add('file-read', n, mentions(first, tainted));
        add('file-write', n, anyInput);
      }
      if (q !== null && FILE_DELETE.test(q)) add('file-delete', n, anyInput);
      if (q !== null && PERMISSIONS.test(q)) add('permissions', n, anyInput, { evidence: src.slice(n).slice(0, 200) });
      if (q !== null && LINK.test(q)) add('link', n, anyInput);
      // Follow calls into the file's own functions and methods.
      if (frame.depth < MAX_DEPTH && method !== null && functions.has(method)) {
        for (const target of functions.get(method) ?? []) {
          if (target.from <= n.from && target.to >= n.to) {
            // A direct self-call with no condition anywhere in the function never stops.
            // `hashlib.sha256(…)` in a tool named `sha256` calls the library, not itself: only a bare name or `self.`/`cls.` is a self-call.
            if (target === fn && /^(?:(?:self|cls)\s*\.\s*)?\w+$/.test(n.firstChild === null ? '' : src.slice(n.firstChild)) && !/\b(?:if|while|for|return\s+\w+\s+if)\b/.test(src.slice(fn.getChild('Body') ?? fn))) add('unbounded', n, false);
            continue;
          }
          const params = paramNames(src, target);
          const next = new Set<string>();
          const positional = args.filter((a) => a.keyword === null);
          positional.forEach((a, i) => {
            const p = params[i];
            if (p !== undefined && mentions(a.value, tainted)) next.add(p);
          });
          for (const a of args) if (a.keyword !== null && mentions(a.value, tainted)) next.add(a.keyword);
          queue.push({ fn: target, tainted: next, depth: frame.depth + 1 });
        }
      }
    }
  }
  if (!stripped && !(normalised && compared)) for (const j of joins) add('path-traversal', j, true);
  if (!(normalised && compared)) for (const e of effects) if (e.kind === 'extract' && tarExtracts.size > 0) e.unfiltered = [...tarExtracts].some((from) => lineAt(from) === e.line);
  if (!escapedInput) {
    for (const sink of querySinks) if (sink.engine === 'mongo' ? structuredInput : composedInput) add('query-injection', sink.node, true);
  }
  return effects;
}

function paramNames(src: PythonSource, fn: SyntaxNode): string[] {
  const list = fn.getChild('ParamList');
  const names: string[] = [];
  if (!list) return names;
  for (let c = list.firstChild; c; c = c.nextSibling) if (c.name === 'VariableName') names.push(src.slice(c));
  return names.filter((n) => n !== 'self' && n !== 'cls');
}
