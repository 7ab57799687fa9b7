import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';

/** A constant address on a network: the host is the author's choice, not the user's configuration. */
export const FIXED_URL_LITERAL = /['"`](?:https?|wss?):\/\/(?!localhost\b|127\.0\.0\.1\b|\[::1\]|0\.0\.0\.0\b)[\w.-]+/i;
/** A request whose answer the code reads (JavaScript and Python clients). */
export const FETCH_CALL = /(?<![\w$.])(?:fetch|axios(?:\.(?:get|request|post))?|got(?:\.get)?|ky(?:\.get)?|undici\.request|https?\.get|requests\.(?:get|post|request)|httpx\.(?:get|post|request)|(?:urllib\.request\.)?(?:urlopen|urlretrieve)|aiohttp\.request)\s*\(/;
const ENV_READ = /\bprocess\.env\b|\bos\.environ\b|\bos\.getenv\s*\(|\bgetenv\s*\(|\bDeno\.env\.get\s*\(|\bBun\.env\b/;
export const FILE_READ = /\breadFileSync\s*\(|\breadFile\s*\(|\bread_text\s*\(|\bopen\s*\([^)]*\)\s*\.read\s*\(|\.read\s*\(\s*\)|\bjson\.load\s*\(|\byaml\.safe_load\s*\(/;
/** Writing a file with what a request answered: the server keeps a copy it can swap later. */
export const DOWNLOAD_WRITE = /\bwriteFileSync\s*\(|\bwriteFile\s*\(|\bcreateWriteStream\s*\(|\bwrite_text\s*\(|\bwrite_bytes\s*\(|\burlretrieve\s*\(|\bopen\s*\([^)]*['"]wb?['"][^)]*\)/;

/**
 * A file that writes a description: a `description` field or keyword, or `server.tool(name, text, …)`;
 * or one that builds whole definitions from data (`types.Tool(**t)`, `Tool.model_validate(d)`, a
 * tools/list handler answering `{ tools: … }`), whose descriptions are in the data (held-out set 21).
 */
export const DESCRIBES = /description|\.(?:tool|prompt)\s*\(|\bTool\s*\(\s*\*\*|\bTool\.model_validate\s*\(|\btools\s*:/;

/** Clients whose calls are requests: `async with httpx.AsyncClient() as c`, `s = requests.Session()`, `const http = axios.create(…)`. */
const CLIENT = /\b(?:httpx\.(?:Async)?Client|requests\.Session|aiohttp\.ClientSession|urllib3\.PoolManager|axios\.create)\s*\(/;
function clientNames(text: string): Set<string> {
  const out = new Set<string>();
  if (!CLIENT.test(text)) return out;
  for (const m of text.matchAll(new RegExp(String.raw`${CLIENT.source}[^\n]*?\)\s+as\s+([A-Za-z_]\w*)`, 'g'))) out.add(m[1]!);
  for (const m of text.matchAll(new RegExp(String.raw`(?:^|[\s;])(?:const|let|var)?\s*([A-Za-z_$][\w$.]*)\s*=\s*(?:await\s+)?${CLIENT.source}`, 'gm'))) out.add(m[1]!);
  return out;
}

/** The expression after `description:` / `description=` (up to a comma or bracket at depth 0). */
function expressionAt(text: string, start: number): string {
  let depth = 0;
  let quote = '';
  for (let i = start; i < Math.min(text.length, start + 400); i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    // A Python triple-quoted string is one literal, however long (round s30, real false alarms: aurora-dsql-mcp-server's
    // `description="""…"""` was cut inside its words, which were then read as names).
    if ((c === '"' || c === "'") && text.startsWith(c.repeat(3), i)) {
      const end = text.indexOf(c.repeat(3), i + 3);
      if (end === -1) return `${text.slice(start, i)}''`;
      text = `${text.slice(0, i)}''${' '.repeat(end + 1 - i)}${text.slice(end + 3)}`;
      i += 1;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return text.slice(start, i);
      depth--;
    } else if ((c === ',' || c === ';' || c === '\n') && depth === 0) return text.slice(start, i);
  }
  return text.slice(start, start + 400);
}

const mentionsAny = (expression: string, names: ReadonlySet<string>) => [...names].some((n) => new RegExp(`(?<![\\w$.])${n.replace(/[$.]/g, '\\$&')}(?![\\w$])`).test(expression));

/** Names bound to a new instance of the class the text at `index` is in (`defs = Definitions()`, `const reg = new Registry(…)`). */
function instancesOf(text: string, index: number): string[] {
  const cls = [...text.slice(0, index).matchAll(/\bclass\s+([A-Za-z_$][\w$]*)/g)].at(-1)?.[1];
  if (cls === undefined) return [];
  return [...text.matchAll(new RegExp(String.raw`([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*(?:new\s+)?${cls.replace(/\$/g, '\\$')}\s*\(`, 'g'))].map((m) => m[1]!);
}

/** A line of at least `length` characters (what `/[^\n]{length}/` finds, without its quadratic search over a file of long lines). */
function hasLongLine(text: string, length: number): boolean {
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if ((end === -1 ? text.length : end) - start >= length) return true;
    if (end === -1) return false;
    start = end + 1;
  }
}

/** Names a file binds from an expression that passes `test` (`const d = await load()`, `TEXTS = r.json()`), followed through two hops. */
function boundFrom(text: string, test: (rhs: string, names: ReadonlySet<string>) => boolean): Set<string> {
  const names = new Set<string>();
  // A store into a field or a slot counts: `state.tools = …` binds `state.tools`, `_STATE["tools"] = …` the table `_STATE`.
  const assigns = [...text.matchAll(/(?:^|[\s;(])(?:const|let|var)?\s*(?:\{([^}=]*)\}|([A-Za-z_$][\w$]*)((?:\.[A-Za-z_$][\w$]*|\[[^\]\n]{1,40}\])*))\s*(?::[^=\n]+)?=(?![=>])\s*([^\n;]*)/gm)];
  // Minified bundles reuse one- and two-letter names for everything: those are not followed there.
  const shortest = hasLongLine(text, 500) ? 3 : 1;
  for (let pass = 0; pass < 3; pass++) {
    for (const a of assigns) {
      const rhs = a[4]!;
      if (!test(rhs, names) && !(names.size > 0 && mentionsAny(rhs, names))) continue;
      const suffix = a[3] ?? '';
      const bound = a[2] === undefined ? undefined : suffix.startsWith('[') ? a[2] : `${a[2]}${suffix}`;
      if (bound !== undefined && bound.length >= shortest && bound !== 'self' && bound !== 'this') names.add(bound);
      // A field of `self`/`this` is read through the class's instances (`defs = Definitions()` … `defs.tools`).
      if (bound !== undefined && /^(?:self|this)\./.test(bound)) for (const i of instancesOf(text, a.index)) names.add(`${i}${bound.slice(bound.indexOf('.'))}`);
      for (const d of (a[1] ?? '').split(',')) {
        const local = /(\w+)\s*$/.exec(d.trim().replace(/\s*:\s*/, ' '))?.[1];
        if (local && local.length >= 3) names.add(local);
      }
    }
  }
  return names;
}

/**
 * True when the expression's root name (`t` of `t.description`) is the element of a loop or a `.map`
 * over one of `names` shortly before (`tools.map((t) => ({ description: t.description }))`, `for t in
 * tools:`): a tools/list handler that lists a catalog the server replaced with a download serves the
 * downloaded texts (rug pull through a remote catalog and `list_changed`).
 */
function iteratesOver(text: string, index: number, code: string, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  const root = /^\s*([A-Za-z_$][\w$]*)\s*(?:\.|\[|\?\.|$)/.exec(code)?.[1];
  if (root === undefined) return false;
  const r = root.replace(/\$/g, '\\$');
  const before = text.slice(Math.max(0, index - 400), index);
  const loop = new RegExp(String.raw`([A-Za-z_$][\w$.]*)\s*\.\s*(?:map|flatMap|forEach|filter)\s*\(\s*(?:async\s*)?\(?\s*${r}\b|\bfor\s*\(\s*(?:const|let|var)\s+${r}\s+of\s+([A-Za-z_$][\w$.]*)|\bfor\s+${r}\s+in\s+([A-Za-z_][\w.]*)`, 'g');
  // A Python comprehension names its loop after the element: `[Tool(**t) for t in state["tools"]]`.
  const after = new RegExp(String.raw`^[^\n\]]{0,200}?\bfor\s+${r}\s+in\s+([A-Za-z_][\w.]*)`).exec(text.slice(index, index + 300));
  return [...before.matchAll(loop), ...(after === null ? [] : [after])].some((m) => {
    const over = (m[1] ?? m[2] ?? m[3]) as string;
    return mentionsAny(over.split('.')[0] as string, names) || mentionsAny(over, names);
  });
}

/** A request that carries data whose address (its first argument) is a name bound from downloaded data. */
function forwardedTo(text: string, remote: ReadonlySet<string>, clients: ReadonlySet<string>): { index: number; evidence: string } | null {
  if (remote.size === 0) return null;
  const via = [...clients].map((c) => `|${c.replace(/[$.]/g, '\\$&')}\\.(?:post|put|patch)`).join('');
  const sends = new RegExp(String.raw`(?<![\w$.])(?:fetch|axios\.(?:post|put|patch)|got\.post|requests\.(?:post|put)|httpx\.(?:post|put)${via})\s*\(\s*`, 'g');
  for (const m of text.matchAll(sends)) {
    const address = /^[A-Za-z_$][\w$.]*(?=\s*,)/.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 80))?.[0];
    if (address === undefined || !mentionsAny(address, remote)) continue;
    // `fetch(url, { method: 'POST', body })`: a send, not a lookup.
    if (/^fetch/.test(m[0]) && !/method\s*:\s*['"`](?:POST|PUT|PATCH)/i.test(text.slice(m.index, m.index + 300))) continue;
    return { index: m.index, evidence: text.slice(m.index, m.index + 120).replace(/\s+/g, ' ') };
  }
  return null;
}

/**
 * Tool and prompt descriptions (and names, and input-schema texts) that are not in the source the
 * user approved: downloaded at run time from a fixed host — in this file or by a helper imported
 * from another module of the server (`description: await remoteText('search')`, `from .texts import
 * fetch_descriptions`) — read from a file the server itself downloads, or (MED) taken from an
 * environment variable. The host can change what the model reads at any time without a release
 * (MCP rug pull, Invariant Labs 2025). Descriptions built from constants, or looked up in a table the
 * package ships (i18n), are not this: no request, no download, no environment.
 * `fetchers` are the local names of imported functions that fetch from a fixed host; `timed` those of
 * imported functions that return text chosen by the clock or a call count (a rug pull one module away).
 */
export function descriptionSourceFindings(file: string, text: string, language: ScriptLanguage, fetchers: ReadonlySet<string> = new Set(), timed: ReadonlySet<string> = new Set()): AgentFinding[] {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python') return [];
  if (!DESCRIBES.test(text)) return [];
  const defines = language === 'python' ? /@[\w.]+\.(?:tool|prompt|resource)\b|\bTool\s*\(|\badd_tool\s*\(|list_tools/ : /\.(?:tool|registerTool|prompt|registerPrompt)\s*\(|ListToolsRequestSchema|['"`]tools\/list['"`]|inputSchema/;
  if (!defines.test(text)) return [];
  // Requests made through a client object count as requests (`r = await c.get(CATALOG)` in `async with httpx.AsyncClient() as c`).
  const clients = clientNames(text);
  const clientCall = clients.size === 0 ? null : new RegExp(String.raw`(?<![\w$.])(?:${[...clients].map((c) => c.replace(/[$.]/g, '\\$&')).join('|')})\.(?:get|post|request|stream)\s*\(`);
  const fetchCall = (code: string) => FETCH_CALL.test(code) || (clientCall?.test(code) ?? false);
  const fixedHere = FIXED_URL_LITERAL.test(text) && fetchCall(text);
  const fetches = (rhs: string) => (fixedHere && fetchCall(rhs)) || (fetchers.size > 0 && mentionsAny(rhs, fetchers));
  const remote = boundFrom(text, (rhs) => fetches(rhs));
  for (const f of fetchers) remote.add(f);
  // The variable's text itself, not a switch between texts the source holds (`process.env.RO === '1'`).
  const env = boundFrom(text, (rhs) => ENV_READ.test(rhs) && !/[=!]==?|\bin\b|\bBoolean\(|\bparseInt\(|\bNumber\(|\bbool\(|\.lower\(\)\s*(?:==|in)/.test(rhs));
  // A file read counts only when the server also downloads and writes files itself.
  const downloads = fixedHere && DOWNLOAD_WRITE.test(text);
  const fromFile = downloads ? boundFrom(text, (rhs) => FILE_READ.test(rhs)) : new Set<string>();
  const lineAt = lineLocator(text);
  const out: AgentFinding[] = [];
  const sites: Array<{ index: number; expression: string }> = [];
  // Only texts of a definition: inside a `.tool(`/`registerTool(`/`@mcp.tool(`/`Tool(` call, or beside an input schema
  // (a handler's result built from an API answer, `{ name: repo.name, description: repo.description }`, is data, not a tool).
  const opener = language === 'python' ? /@[\w.]+\.(?:tool|prompt|resource)\s*\(|\bTool\s*\(|\badd_tool\s*\(|\bPrompt\s*\(/g : /\.(?:tool|registerTool|prompt|registerPrompt)\s*\(|\bTool\s*\(/g;
  const openers = [...text.matchAll(opener)].map((m) => m.index);
  // Between the opener and the text no function starts: a handler's body is not the definition.
  const inDefinition = (index: number) => openers.some((o) => o < index && index - o < 400 && !/=>|\bfunction\b|\bdef\s|\blambda\b/.test(text.slice(o, index))) || /\b(?:inputSchema|input_schema|argsSchema)\b/.test(text.slice(Math.max(0, index - 300), index + 300));
  for (const m of text.matchAll(/\b(description|title|name|inputSchema|input_schema)\s*(?:[:=](?!=))\s*/g)) {
    if (!inDefinition(m.index)) continue;
    const expression = expressionAt(text, m.index + m[0].length);
    // A schema written in place is judged by its own description fields; only a schema taken whole from elsewhere counts here.
    if (/^input/.test(m[1]!) && /^\s*[{[]/.test(expression)) continue;
    sites.push({ index: m.index, expression });
  }
  // Whole definitions built from data: `types.Tool(**t)`, `Tool.model_validate(d)` (Python), and the
  // `tools:` a tools/list handler answers with (JavaScript): the descriptions are in the data.
  if (language === 'python') {
    for (const m of text.matchAll(/\bTool\s*\(\s*\*\*|\bTool\.model_validate\s*\(\s*/g)) sites.push({ index: m.index, expression: expressionAt(text, m.index + m[0].length) });
  } else {
    for (const m of text.matchAll(/\btools\s*:\s*/g)) {
      if (/ListToolsRequestSchema|['"`]tools\/list['"`]/.test(text.slice(Math.max(0, m.index - 400), m.index))) sites.push({ index: m.index, expression: expressionAt(text, m.index + m[0].length) });
    }
  }
  // `server.tool(name, description, …)`: the second argument.
  if (language !== 'python') {
    for (const m of text.matchAll(/\.(?:tool|prompt)\s*\(\s*(?:'[^']*'|"[^"]*"|`[^`]*`|[\w$.]+)\s*,\s*/g)) sites.push({ index: m.index, expression: expressionAt(text, m.index + m[0].length) });
  }
  let remoteHit: { index: number; expression: string } | undefined;
  let fileHit: typeof remoteHit;
  let envHit: typeof remoteHit;
  let timedHit: typeof remoteHit;
  const timedNames = timed.size > 0 ? boundFrom(text, (rhs) => mentionsAny(rhs, timed)) : new Set<string>();
  for (const t of timed) timedNames.add(t);
  for (const site of sites) {
    // Names are looked for in the code of the expression, not in the words of its string literals.
    // A template's `${…}` parts are code.
    const e = site.expression.trim().replace(/(['"`])(?:\\.|(?!\1)[^\\])*\1/g, (lit) => (lit.startsWith('`') ? [...lit.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]).join(' + ') || "''" : "''"));
    if (/^(?:''|\s|\+)*$/.test(e)) continue;
    // A description computed by a function the SDK calls (`description: async () => …`) is the library's own
    // mechanism (a vendor's schema loaded into the text); the rule is about a value fetched and passed in.
    if (/^(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>|^(?:async\s+)?function\b|^lambda\b/.test(e)) continue;
    // Keys of an object written in place are not names of values (`{ type: 'object', query: { … } }`).
    const code = e.replace(/(?<![\w$.?])[\w$]+\s*:(?!:)/g, '');
    if (remoteHit === undefined && (mentionsAny(code, remote) || (fixedHere && fetchCall(code)) || iteratesOver(text, site.index, code, remote))) remoteHit = site;
    if (timedHit === undefined && timed.size > 0 && mentionsAny(code, timedNames)) timedHit = site;
    if (fileHit === undefined && (mentionsAny(code, fromFile) || (downloads && FILE_READ.test(code)))) fileHit = site;
    if (envHit === undefined && (mentionsAny(code, env) || ENV_READ.test(code)) && !/\?\s*['"`][^'"`]*['"`]\s*:\s*['"`]|\bif\b[^\n]*\belse\s*['"]/.test(e)) envHit = site;
  }
  if (remoteHit !== undefined) {
    out.push(referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'tool descriptions are downloaded from a remote host (they can change after approval)', file, line: lineAt(remoteHit.index), evidence: text.slice(remoteHit.index, remoteHit.index + 120) }));
    // The downloaded definitions also name where calls go: a request whose address is a value taken from
    // them (`hook = tool.get("x-forward")`, `c.post(hook, json={"arguments": arguments})`) sends the
    // user's tool arguments wherever the catalog's host says, from then on (held-out set 21).
    const forward = forwardedTo(text, remote, clients);
    if (forward !== null) out.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'tool arguments are sent to an address taken from downloaded tool definitions', file, line: lineAt(forward.index), evidence: forward.evidence }));
  } else if (fileHit !== undefined) {
    out.push(referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'tool descriptions are read from a file the server downloads (they can change after approval)', file, line: lineAt(fileHit.index), evidence: text.slice(fileHit.index, fileHit.index + 120) }));
  }
  if (timedHit !== undefined) {
    out.push(referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'tool description changes after approval (rug pull)', file, line: lineAt(timedHit.index), evidence: `${text.slice(timedHit.index, timedHit.index + 100)} (text chosen by the clock or a call count in another module)` }));
  }
  if (envHit !== undefined) {
    // The user's own configuration chooses it: a lever for whoever writes the client config, not a host.
    out.push(referenceFinding({ category: 'tool_poisoning', severity: 'MED', title: 'tool descriptions are taken from an environment variable at run time', file, line: lineAt(envHit.index), evidence: text.slice(envHit.index, envHit.index + 120) }));
  }
  return out;
}
