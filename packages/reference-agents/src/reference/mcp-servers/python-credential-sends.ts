import type { PythonSource, SyntaxNode } from '../skills/python-source.js';
import { lineLocator } from '../text/line-locator.js';
import { credentialFile, DECODING_STEP, type CredentialSend } from './credential-send.js';
import { carriedRegions, credentialArguments, decodedFromConstants, fieldIn, FileWork, foldedHost, foldJoin, foldName, foldReturned, foldSum, followBound, heldByField, heldByName, hiddenSend, judgeReadings, pushCapped, readerSends, readingFold, readingsAt, returnsRead, visitField, walkGuard, type Bound as BoundIn, type Ctx as CtxIn, type Fold, type SendReader, type Sink as SinkIn } from './credential-send-judging.js';
import { SECRET_ENV } from './credential-vendors.js';
import { pythonSourceOf } from './python-source-cache.js';

/**
 * The requests of a Python file, each with the secret environment variables it carries and the host
 * it goes to: the Python side of credential-sends.ts. The credential is followed from
 * `os.environ[…]`, `os.environ.get(…)`, `os.getenv(…)` through names, `self.` fields, dict fields,
 * f-strings, encodings and the parameters of the file's functions at their call sites (two calls up);
 * the address is folded through constants (here or imported), f-strings, `+`, `"".join`, base64/hex,
 * `[::-1]`, dict fields, a default after `or`, a client's `base_url` and the file's functions that
 * return it. Requests: `requests`/`httpx` calls, `urllib.request.Request`/`urlopen`, and the methods
 * of clients made with `httpx.Client`/`AsyncClient`, `requests.Session`, `aiohttp.ClientSession`.
 */

type Bound = BoundIn<SyntaxNode>;
type Ctx = CtxIn<SyntaxNode>;
type Sink = SinkIn<SyntaxNode>;

const SEND = /^(?:requests|httpx)\.(?:get|post|put|patch|delete|head|request|stream)$|^(?:urllib\.request\.)?(?:urlopen|Request)$|^aiohttp\.request$/;
const CLIENT = /^(?:httpx\.(?:Client|AsyncClient)|requests\.(?:Session|session)|aiohttp\.ClientSession)$/;
const CLIENT_METHOD = /^(?:get|post|put|patch|delete|head|request|stream)$/;
const ENV_CALL = /^(?:os\.environ\.get|os\.getenv|environ\.get|getenv|os\.environ\.setdefault)$/;
const OUTSIDE_CALL = /^(?:open|input|requests\.\w+|httpx\.\w+|urllib\.request\.\w+|urlopen|os\.environ\.get|os\.getenv|getenv|subprocess\.\w+|json\.load|sys\.argv)$/;
const PUNCTUATION = new Set(['(', ')', ',', '[', ']', '{', '}', ':', '.', '=']);

function* descendants(node: SyntaxNode): Generator<SyntaxNode> {
  const cursor = node.cursor();
  if (!cursor.firstChild()) return;
  do yield cursor.node;
  while (cursor.next() && cursor.from < node.to);
}

function kids(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
}

export function pythonCredentialSends(text: string, seeds: ReadonlyMap<string, ReadonlyMap<number, readonly string[]>> = new Map()): CredentialSend[] {
  if (seeds.size === 0 && !/\benviron\b|\bgetenv\b|\bopen\(|read_text|read_bytes/.test(text)) return [];
  if (!/\b(?:requests|httpx|urllib|urlopen|aiohttp)\b/.test(text)) return [];
  return readerSends(pythonReader(text, seeds));
}

/** For each call of one of `callees` (local names of another module's functions), the secret variables each positional argument carries. */
export function pythonCredentialArguments(text: string, callees: ReadonlySet<string>): Map<string, Map<number, string[]>> {
  if (callees.size === 0 || !/\benviron\b|\bgetenv\b/.test(text)) return new Map();
  const reader = pythonReader(text, new Map());
  return credentialArguments(reader, callees, (call) => reader.src.args(call).map((a) => (a.keyword === null ? a.value : null)));
}

function pythonReader(text: string, seeds: ReadonlyMap<string, ReadonlyMap<number, readonly string[]>>): SendReader<SyntaxNode> & { src: PythonSource } {
  const src = pythonSourceOf(text);
  const lineAt = lineLocator(text);
  const decls = new Map<string, SyntaxNode[]>();
  const memberDecls = new Map<string, SyntaxNode[]>();
  const functions = new Map<string, SyntaxNode[]>();
  const callSites = new Map<string, SyntaxNode[]>();
  const paramNames = new Set<string>();
  const clients = new Map<string, SyntaxNode>();
  const calls: SyntaxNode[] = [];
  const work = new FileWork();
  const slice = (n: SyntaxNode) => src.slice(n);
  const key = (n: SyntaxNode) => slice(n).replace(/\s+/g, '');
  const cursor = src.tree.cursor();
  do {
    const n = cursor.node;
    if (n.name === 'AssignStatement' && n.getChildren('AssignOp').length === 1) {
      const target = n.firstChild;
      const value = n.lastChild;
      if (!target || !value || target === value) continue;
      if (target.name === 'VariableName') {
        pushCapped(decls, slice(target), value);
        const made = value.name === 'AwaitExpression' ? value.lastChild : value;
        if (made?.name === 'CallExpression' && CLIENT.test(src.qualify(made.firstChild) ?? '')) clients.set(slice(target), made);
      } else if (target.name === 'MemberExpression') pushCapped(memberDecls, key(target), value);
    } else if (n.name === 'WithStatement') {
      // `with httpx.Client(…) as c:` binds c to the client.
      let made: SyntaxNode | null = null;
      for (let c = n.firstChild; c && c.name !== 'Body'; c = c.nextSibling) {
        if (c.name === 'CallExpression') made = c;
        else if (c.name === 'VariableName' && c.prevSibling?.name === 'as' && made !== null) {
          pushCapped(decls, slice(c), made);
          if (CLIENT.test(src.qualify(made.firstChild) ?? '')) clients.set(slice(c), made);
        }
      }
    } else if (n.name === 'FunctionDefinition') {
      const name = n.getChild('VariableName');
      if (name) pushCapped(functions, slice(name), n);
      for (const p of paramsOf(n)) paramNames.add(p);
    } else if (n.name === 'CallExpression') {
      calls.push(n);
      const callee = n.firstChild;
      const name = callee?.name === 'VariableName' ? slice(callee) : callee?.name === 'MemberExpression' && callee.lastChild?.name === 'PropertyName' ? slice(callee.lastChild) : null;
      if (name) pushCapped(callSites, name, n);
    }
  } while (cursor.next());

  function paramsOf(fn: SyntaxNode): string[] {
    const list = fn.getChild('ParamList');
    const out: string[] = [];
    let expect = true;
    for (const c of list ? kids(list) : []) {
      if (c.name === ',' || c.name === '(') expect = true;
      else if (c.name === 'VariableName' && expect) {
        out.push(slice(c));
        expect = false;
      } else if (c.name !== '*' && c.name !== '**') expect = false;
    }
    return out;
  }
  const positional = (fn: SyntaxNode): string[] => {
    const ps = paramsOf(fn);
    return ps[0] === 'self' || ps[0] === 'cls' ? ps.slice(1) : ps;
  };
  const enclosing = (n: SyntaxNode): SyntaxNode | null => {
    for (let p = n.parent; p; p = p.parent) if (p.name === 'FunctionDefinition') return p;
    return null;
  };
  const nameOf = (fn: SyntaxNode): string | null => {
    const n = fn.getChild('VariableName');
    return n ? slice(n) : null;
  };
  const bindCall = (fn: SyntaxNode, call: SyntaxNode, outer: Ctx): Ctx => {
    const bind = new Map<string, Bound>();
    const params = positional(fn);
    let i = 0;
    for (const a of src.args(call)) {
      if (a.keyword !== null) {
        if (params.includes(a.keyword)) bind.set(a.keyword, { node: a.value, ctx: outer });
      } else if (i < params.length) bind.set(params[i++]!, { node: a.value, ctx: outer });
    }
    return { bind };
  };
  const contextsAt = readingsAt<SyntaxNode>({ seeds, callSites, enclosing, nameOf, params: positional, inside: (call, fn) => call.from >= fn.from && call.to <= fn.to, bindCall });
  const returnsOf = (fn: SyntaxNode): SyntaxNode[] => {
    const out: SyntaxNode[] = [];
    for (const d of descendants(fn.getChild('Body') ?? fn)) {
      if (d.name === 'ReturnStatement' && d.lastChild && d.lastChild.name !== 'return' && enclosing(d) === fn) out.push(d.lastChild);
      if (out.length >= 4) break;
    }
    return out;
  };
  /** What a call of the file's own function (`f(…)`, `self.f(…)`) returns, read with its parameters bound to the call's arguments. */
  const returnedBy = (call: SyntaxNode, ctx: Ctx, most?: number) => {
    const callee = call.firstChild;
    const name = callee?.name === 'VariableName' ? slice(callee) : callee?.name === 'MemberExpression' && callee.firstChild && /^(?:self|cls)$/.test(slice(callee.firstChild)) && callee.lastChild ? slice(callee.lastChild) : null;
    return returnsRead(name === null ? undefined : functions.get(name), returnsOf, (fn) => bindCall(fn, call, ctx), most);
  };
  /** A string-keyed field of a dict literal (`{"token": t}`) or a keyword of `dict(token=t)`. */
  const dictField = (dict: SyntaxNode, name: string): SyntaxNode | null => {
    if (dict.name === 'DictionaryExpression') {
      const items = kids(dict).filter((c) => !['{', '}', ','].includes(c.name));
      for (let i = 0; i + 2 < items.length + 1; i++) {
        if (items[i + 1]?.name === ':' && src.fold(items[i]!) === name) return items[i + 2] ?? null;
      }
      return null;
    }
    if (dict.name === 'CallExpression' && src.qualify(dict.firstChild) === 'dict') return src.args(dict).find((a) => a.keyword === name)?.value ?? null;
    return null;
  };
  const objectOf = (n: SyntaxNode | null | undefined, ctx: Ctx, depth = 0): { node: SyntaxNode; ctx: Ctx } | null => {
    if (!n || depth > 4) return null;
    if (n.name === 'DictionaryExpression' || (n.name === 'CallExpression' && src.qualify(n.firstChild) === 'dict')) return { node: n, ctx };
    if (n.name === 'ParenthesizedExpression') return objectOf(n.firstChild?.nextSibling, ctx, depth + 1);
    const held = n.name === 'VariableName' ? heldByName(slice(n), ctx, decls) : n.name === 'MemberExpression' ? heldByField(fieldOf(n, ctx, depth + 1), memberDecls.get(key(n))) : null;
    return held === null ? null : objectOf(held.node, held.ctx, depth + 1);
  };
  /** `CONFIG["url"]` / `CONFIG.get("url")`-free subscripts of a dict literal: the value written for the key. */
  const fieldOf = (m: SyntaxNode, ctx: Ctx, depth = 0): { node: SyntaxNode; ctx: Ctx } | null => {
    if (!m.getChild('[')) return null;
    const index = m.getChild('[')?.nextSibling;
    const name = index ? src.fold(index) : null;
    if (name === null || !m.firstChild) return null;
    return fieldIn(objectOf(m.firstChild, ctx, depth), (obj) => dictField(obj, name));
  };
  const envName = (n: SyntaxNode): string | null => {
    if (n.name === 'CallExpression' && ENV_CALL.test(src.qualify(n.firstChild) ?? '')) {
      const first = src.args(n)[0];
      return first ? src.fold(first.value) : null;
    }
    if (n.name === 'MemberExpression' && n.getChild('[')) {
      const base = n.firstChild ? src.qualify(n.firstChild) : null;
      if (base === 'os.environ' || base === 'environ') {
        const index = n.getChild('[')?.nextSibling;
        return index ? src.fold(index) : null;
      }
    }
    return null;
  };

  const envsOf = (node: SyntaxNode | null | undefined, ctx: Ctx): Set<string> => {
    const out = new Set<string>();
    if (!node) return out;
    const fresh = walkGuard<SyntaxNode>(work, (n) => `${n.from}:${n.to}:${n.name}`);
    const visit = (n: SyntaxNode, c: Ctx, depth: number): void => {
      if (!fresh(n, c, depth)) return;
      if (n.name === 'LambdaExpression' || n.name === 'FunctionDefinition') return;
      // What only tests the credential (`bool(t)`, `not t`, `t is None`, `len(t)`) or hashes it (`.hexdigest()`) is not the credential.
      if (n.name === 'UnaryExpression' || (n.name === 'BinaryExpression' && n.getChild('ArithOp') === null && n.getChild('or') === null)) return;
      if (n.name === 'ConditionalExpression') {
        const parts = kids(n);
        if (parts[0]) visit(parts[0], c, depth + 1);
        if (parts[parts.length - 1]) visit(parts[parts.length - 1]!, c, depth + 1);
        return;
      }
      if (n.name === 'CallExpression') {
        const callee = n.firstChild;
        if (/^(?:bool|len|isinstance|type|hash|id)$/.test(src.qualify(callee) ?? '') || (callee?.name === 'MemberExpression' && /^(?:hexdigest|digest|startswith|endswith)$/.test(slice(callee.lastChild ?? callee)))) return;
      }
      const env = envName(n);
      if (env !== null) {
        if (SECRET_ENV.test(env)) out.add(env);
        return;
      }
      // The content of a credential store: `open(p).read()`, `Path(p).read_text()`, `p.read_text()`.
      if (n.name === 'CallExpression') {
        const callee = n.firstChild;
        const q = src.qualify(callee);
        const method = callee?.name === 'MemberExpression' ? slice(callee.lastChild ?? callee) : null;
        const path = q === 'open' || q === 'io.open' || q === 'codecs.open' ? src.args(n)[0]?.value : method !== null && /^(?:read_text|read_bytes)$/.test(method) ? callee?.firstChild : null;
        const folded = path ? fold(path, c, true) : null;
        if (folded !== null && credentialFile(folded)) out.add(`file:${folded}`);
      }
      if (n.name === 'VariableName') {
        const name = slice(n);
        if (followBound(c.bind.get(name), (e) => out.add(e), visit, depth)) return;
        for (const init of decls.get(name) ?? []) visit(init, c, depth + 1);
        return;
      }
      if (n.name === 'MemberExpression' && visitField(fieldOf(n, c), memberDecls.get(key(n)), visit, depth)) return;
      if (n.name === 'CallExpression') for (const r of returnedBy(n, c)) visit(r.node, r.ctx, depth + 1);
      for (const child of kids(n)) {
        if (n.name === 'MemberExpression' && child.name === 'PropertyName') continue;
        // Keyword names of a call (`json=`, `headers=`) are not values.
        if (child.name === 'VariableName' && child.nextSibling?.name === 'AssignOp' && n.name === 'ArgList') continue;
        visit(child, c, depth + 1);
      }
    };
    visit(node, ctx, 0);
    return out;
  };

  const fold: Fold<SyntaxNode> = readingFold({ work, literal: (n) => n.name === 'String', exact: (n) => src.fold(n) }, (node, ctx, loose, depth, miss) => {
    switch (node.name) {
      case 'ParenthesizedExpression':
        return fold(node.firstChild?.nextSibling, ctx, loose, depth + 1);
      case 'AwaitExpression':
        return fold(node.lastChild, ctx, loose, depth + 1);
      case 'FormatString': {
        // f"https://{HOST}/v1": the text between the fields, each field folded.
        const raw = slice(node);
        const open = /^[rRbBuUfF]*('''|"""|'|")/.exec(raw)?.[0].length ?? 2;
        let out = '';
        let at = node.from + open;
        for (const field of node.getChildren('FormatReplacement')) {
          out += text.slice(at, field.from);
          const expr = kids(field).find((c) => !['{', '}', ':', '!', 'FormatSpec', 'FormatConversion'].includes(c.name));
          const v = fold(expr, ctx, loose, depth + 1);
          if (v === null) return null;
          out += v;
          at = field.to;
        }
        return out + text.slice(at, node.to - (/('''|"""|'|")$/.exec(raw)?.[0].length ?? 1));
      }
      case 'BinaryExpression': {
        const op = kids(node)[1];
        if (op?.name === 'or') return fold(node.firstChild, ctx, false, depth + 1) ?? fold(node.lastChild, ctx, loose, depth + 1);
        // `Path.home() / ".aws" / "credentials"`: a path, read loosely.
        if (op?.name === 'ArithOp' && slice(op) === '/' && loose) return `${fold(node.firstChild, ctx, true, depth + 1) ?? '*'}/${fold(node.lastChild, ctx, true, depth + 1) ?? '*'}`;
        return op?.name === 'ArithOp' && slice(op) === '+' ? foldSum(fold, node.firstChild, node.lastChild, ctx, loose, depth) : miss;
      }
      case 'VariableName':
        return foldName(fold, slice(node), ctx, loose, depth, decls);
      case 'MemberExpression': {
        const held = heldByField(fieldOf(node, ctx), memberDecls.get(key(node)));
        return held === null ? miss : fold(held.node, held.ctx, loose, depth + 1);
      }
      case 'CallExpression': {
        const callee = node.firstChild;
        const args = src.args(node);
        const q = src.qualify(callee);
        const method = callee?.name === 'MemberExpression' && callee.lastChild?.name === 'PropertyName' ? slice(callee.lastChild) : null;
        if (method === 'join' && callee?.firstChild && args.length === 1) {
          const sep = fold(callee.firstChild, ctx, false, depth + 1);
          const list = args[0]!.value;
          const items = list.name === 'ArrayExpression' || list.name === 'TupleExpression' ? kids(list).filter((c) => !PUNCTUATION.has(c.name)) : null;
          return sep === null || items === null ? miss : foldJoin(fold, items, sep, ctx, loose, depth);
        }
        if ((method === 'decode' || method === 'strip' || method === 'lower') && callee?.firstChild) return fold(callee.firstChild, ctx, loose, depth + 1);
        if ((q === 'str' || q === 'urllib.parse.quote') && args[0]) return fold(args[0].value, ctx, loose, depth + 1);
        if (loose && q !== null && /^(?:os\.path\.expanduser|pathlib\.Path|Path|pathlib\.PurePath|os\.path\.abspath|os\.path\.realpath)$/.test(q) && args[0]) return fold(args[0].value, ctx, true, depth + 1);
        if (loose && q !== null && /^(?:pathlib\.Path\.home|Path\.home|os\.path\.expanduser)$/.test(q)) return '~';
        if (loose && q === 'os.path.join' && args.length > 0) return args.map((a) => fold(a.value, ctx, true, depth + 1) ?? '*').join('/').replace(/\/{2,}/g, '/');
        if (loose && method === 'joinpath' && callee?.firstChild) return [callee.firstChild, ...args.map((a) => a.value)].map((a) => fold(a, ctx, true, depth + 1) ?? '*').join('/');
        if (loose && (method === 'expanduser' || method === 'resolve' || method === 'absolute') && callee?.firstChild) return fold(callee.firstChild, ctx, true, depth + 1);
        if (/(?:^|\.)urljoin$/.test(q ?? '') && args.length === 2) {
          const b = fold(args[0]!.value, ctx, true, depth + 1) ?? '*';
          const p = fold(args[1]!.value, ctx, true, depth + 1) ?? '*';
          return /^[a-z][\w+.-]*:\/\//i.test(p) ? p : b === '*' ? miss : `${b.replace(/\/+$/, '')}/${p.replace(/^\/+/, '')}`;
        }
        return foldReturned(fold, returnedBy(node, ctx, 2), loose, depth) ?? miss;
      }
      default:
        return miss;
    }
  });

  /** The address is computed from the file's constants through a decoding step (credential-send-judging.ts). */
  const hiddenAddress = (node: SyntaxNode, ctx: Ctx): boolean =>
    decodedFromConstants(node, ctx, {
      work,
      seenAs: (n) => `${n.from}:${n.to}:${n.name}`,
      decodes: (n) => (n.name === 'BitOp' && slice(n) === '^') || (n.name === 'CallExpression' && DECODING_STEP.test(text.slice(n.from, Math.min(n.to, n.from + 200)))),
      readsOutside: (n) => {
        if (envName(n) !== null) return true;
        const q = n.name === 'CallExpression' ? src.qualify(n.firstChild) : null;
        if (q !== null && (OUTSIDE_CALL.test(q) || SEND.test(q))) return true;
        return n.name === 'MemberExpression' && /^(?:os\.environ|sys\.argv)/.test(src.qualify(n) ?? '');
      },
      calledBodies: (n, c) => {
        const callee = n.name === 'CallExpression' ? n.firstChild : null;
        if (callee?.name !== 'VariableName') return [];
        return (functions.get(slice(callee)) ?? []).slice(0, 2).map((fn) => ({ node: fn.getChild('Body') ?? fn, ctx: bindCall(fn, n, c) }));
      },
      nameRead: (n) => (n.name === 'VariableName' ? slice(n) : null),
      decls,
      unboundParameter: (name) => paramNames.has(name) && !/^(?:self|cls)$/.test(name),
      valueParts: (n) => kids(n).filter((child) => !(n.name === 'MemberExpression' && child.name === 'PropertyName')),
    });

  const sinks: Sink[] = [];
  for (const call of calls) {
    const callee = call.firstChild;
    const q = src.qualify(callee);
    const args = src.args(call);
    const kw = (name: RegExp) => args.filter((a) => a.keyword !== null && name.test(a.keyword)).map((a) => a.value);
    const positionalArgs = args.filter((a) => a.keyword === null).map((a) => a.value);
    const method = callee?.name === 'MemberExpression' && callee.lastChild?.name === 'PropertyName' ? slice(callee.lastChild) : null;
    const receiver = callee?.name === 'MemberExpression' && callee.firstChild?.name === 'VariableName' ? slice(callee.firstChild) : null;
    const client = receiver === null ? undefined : clients.get(receiver);
    const self = client !== undefined && method !== null && CLIENT_METHOD.test(method);
    if (!self && !(q !== null && SEND.test(q))) continue;
    // `request(method, url)` takes the address second.
    const byMethod = method === 'request' || q === 'aiohttp.request';
    const url = kw(/^url$/)[0] ?? positionalArgs[byMethod ? 1 : 0];
    const sink: Sink = { call, address: [], headers: kw(/^(?:headers|cookies|auth)$/), query: kw(/^params$/), body: [...kw(/^(?:json|data|content|files)$/), ...positionalArgs.filter((a) => a !== url && a !== positionalArgs[byMethod ? 0 : -1])] };
    if (self) {
      const made = src.args(client!);
      const base = made.find((a) => a.keyword === 'base_url')?.value;
      if (base && !(url && /^[fFrRbBuU]*['"]https?:/.test(slice(url)))) sink.address.push(base);
      sink.headers.push(...made.filter((a) => a.keyword !== null && /^(?:headers|cookies|auth)$/.test(a.keyword)).map((a) => a.value));
      sink.query.push(...made.filter((a) => a.keyword === 'params').map((a) => a.value));
    }
    if (url) sink.address.push(url);
    sinks.push(sink);
  }
  // A client made with a credential is a send too, to its base_url, even when no method call is found.
  for (const [, made] of clients) {
    const args = src.args(made);
    const base = args.find((a) => a.keyword === 'base_url')?.value;
    if (base === undefined) continue;
    sinks.push({ call: made, address: [base], headers: args.filter((a) => a.keyword !== null && /^(?:headers|cookies|auth)$/.test(a.keyword)).map((a) => a.value), query: args.filter((a) => a.keyword === 'params').map((a) => a.value), body: [] });
  }

  /** Headers, query and body of the request: a dict held in a name is read where it is written. */
  const judge = (sink: Sink): CredentialSend[] =>
    judgeReadings(lineAt(sink.call.from), contextsAt(sink.call), work, (ctx) => {
      const host = foldedHost(sink.address, (a) => fold(a, ctx, true));
      // Whether the address is hidden is asked before what the parts carry (the file's budget is spent in this order).
      const hidden = hiddenSend(host, sink.address, (a) => hiddenAddress(a, ctx));
      return { host, hidden, regions: carriedRegions((n: SyntaxNode) => envsOf(n, ctx), sink.headers, [...sink.address, ...sink.query], sink.body) };
    });

  return { sinks, judge, envsOf, contextsAt, callSites, src };
}
