/**
 * A remote kill switch: code that serves web requests (or socket messages) and, from a handler,
 * deletes the application's own files recursively — its working directory, its own folder or a
 * folder above it — by any means: `fs.rmSync(…, { recursive: true })`, rimraf, fs-extra's
 * `remove`/`emptyDir`, del, a loop over the folder's entries, `shutil.rmtree`, or `rm -rf` run as a
 * process (express-api-sync, Socket, June 2025: one request with a magic token wiped the app).
 *
 * Read from the code facts: the deletion's target as a path built from the file's location or the
 * working directory (`argPath`: `$DIR/..`, `$CWD`; in Python from `__file__` and `os.getcwd()` too), a
 * literal (`.`, `./*`, `..`), a root getter called in the same statement (`process.cwd()`,
 * `os.getcwd()`, `app.getAppPath()`), or a loop over such a folder's entries (a listing of the folder
 * within a few lines before the deletion); for `rm -rf` run as a process, the computed part of the
 * command that is its target (`commandPaths`: `` `rm -rf ${__dirname}` ``, `f"rm -rf {BASE_DIR}"`). A
 * folder below the root (`$DIR/.cache`, `$CWD/node_modules`, `uploads/<id>`) is not the application.
 */

import type { CallFact, CodeFacts } from '../code/code-facts.js';
import { isNetworkCallee } from '../code/javascript/index.js';
import { isPythonNetworkCallee } from '../code/python-facts.js';

/** Calls that delete a file or a folder tree. */
const DELETE_CALLEE = /^(fs|fs\.promises|fs-extra)\.(rmSync|rm|rmdirSync|rmdir|unlinkSync|unlink)$|^(rimraf(\.\w+)?|rimrafSync|fs-extra\.(remove|removeSync|emptyDir|emptyDirSync|emptydir|emptydirSync)|del(\.(default|deleteSync|deleteAsync|sync))?|deleteSync|deleteAsync|trash(\.default)?|shelljs\.rm|shutil\.rmtree|os\.(remove|unlink|rmdir|removedirs)|send2trash\.send2trash)$/;
/** Deletions that take a whole tree by themselves (the others only with `recursive: true`). */
const TREE_CALLEE = /^(rimraf(\.\w+)?|rimrafSync|fs-extra\.(remove|removeSync|emptyDir|emptyDirSync|emptydir|emptydirSync)|del(\.\w+)?|deleteSync|deleteAsync|trash(\.default)?|shutil\.rmtree|os\.removedirs|send2trash\.send2trash)$/;
/** Calls that list a folder's entries (the start of a loop that deletes each). */
const LIST_CALLEE = /^(fs|fs\.promises)\.(readdirSync|readdir|opendir|opendirSync)$|^(glob(\.\w+)?|globSync|fast-glob(\.\w+)?|os\.(listdir|scandir|walk)|glob\.glob|glob\.iglob|\?\.(iterdir|glob|rglob))$/;
/** Calls that return the application's root: the working directory, an Electron app's folder. */
const ROOT_GETTER = /^(process\.cwd|os\.getcwd|os\.getcwdb|pathlib\.Path\.cwd|\?\.cwd|(electron\.)?app\.getAppPath|\?\.getAppPath)$/;
/** A literal naming the working directory, a folder above it, or everything in it. */
const ROOT_LITERAL = /^(?:\.{1,2}(?:[\\/]\.{1,2})*[\\/]?|(?:\.[\\/])?\*{1,2}(?:[\\/]\*{1,2})*(?:\.\*)?|\.[\\/]\.?\*)$/;
/** `rm`, `rd`, `rmdir`, `del` with their flags and the token that follows them (the target); recursion is checked on the match. */
const TREE_COMMAND = /(?:^|[\s;&|(])(?:rm\s+(?:(?:-[a-zA-Z]+|--recursive|--force)\s+)+(?:--\s+)?|(?:rd|rmdir)\s+(?:\/[sq]\s+)+|del\s+(?:\/[fsq]\s+)+)(\S*)/i;
/** PowerShell's `Remove-Item … -Recurse` and `find <dir> … -delete`: the rest of the command, to find a root among its words. */
const REMOVE_ITEM = /\b(?:Remove-Item|rm|ri|del)\s+([^|;&\n]{0,300}-Recurse\b[^|;&\n]{0,300})/i;
const FIND_DELETE = /(?:^|[\s;&|(])find\s+(\S+)\s[^|;&\n]{0,300}-delete\b/;
/** The shell's spellings of the working directory. */
const SHELL_CWD = /^(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|%cd%)(?:[\\/]\*?)?$/i;

/** More calls than this on one line are not one statement (minified code): same-line and nearby-line readings are off there. */
const STATEMENT_CALLS = 40;
/** Deletions and listings read per file (a bundle has thousands; the pairs read are their product). */
const MAX_DELETIONS = 500;

export interface AppWipe {
  call: CallFact;
  /** What is deleted, for the evidence: `$DIR/..`, `process.cwd()`, `./*`. */
  target: string;
}

/** True when a path built from the file's folder or the working directory is that folder or one above it. */
function rootPath(path: string): boolean {
  const m = /^\$(CWD|DIR)((?:\/[^/]*)*)$/.exec(path);
  return m !== null && (m[2] ?? '').split('/').every((seg) => seg === '' || seg === '.' || seg === '..');
}

/** `$DIR/../?`: an entry with a name found at run time directly inside the root (a loop over its entries). */
function rootEntry(path: string): boolean {
  return /\/\?$/.test(path) && rootPath(path.slice(0, -2));
}

/** The call's constant parts without its options' values (`recursive`, `force`, `stdio`). */
function constantParts(call: CallFact): string[] {
  const values = new Set(Object.values(call.options));
  return call.argStrings.filter((s) => !values.has(s));
}

/** Path builders whose arguments a deletion's target is made of (`path.join(process.cwd(), name)`). */
const PATH_BUILDER = /^(path\.(join|resolve|normalize|posix\.join|posix\.resolve)|os\.path\.(join|abspath|realpath|normpath|dirname)|pathlib\.Path)$/;

/**
 * Whether the path builders called on a line build the root: none there (`null`), only roots
 * (`path.resolve('.')`, `path.join(process.cwd(), '..')`, `os.path.abspath(os.getcwd())`), or
 * something inside it (`path.join(process.cwd(), name)`, `os.path.join(os.getcwd(), 'jobs')`).
 */
function builtRoot(sameLine: readonly CallFact[]): boolean | null {
  const builders = sameLine.filter((c) => PATH_BUILDER.test(c.callee));
  if (builders.length === 0) return null;
  const getters = sameLine.filter((c) => ROOT_GETTER.test(c.callee)).length;
  // Unknown arguments are the builders' own nesting and the getters' results: any other is a name inside the root.
  const unknown = builders.reduce((n, b) => n + b.args.filter((a) => a === null).length, 0);
  return builders.every((b) => b.args.every((a) => a === null || ROOT_LITERAL.test(a.trim()))) && unknown <= getters + builders.length - 1;
}

/** The root a call's first argument names by itself (a root literal, a root getter called on its line, a path to the root). */
function namedRoot(call: CallFact, sameLine: readonly CallFact[]): string | null {
  // A path resolved from the file's folder or the working directory is judged as resolved.
  if (call.argPath !== undefined) return rootPath(call.argPath) ? call.argPath : null;
  const first = call.args[0];
  if (first !== null && first !== undefined) return ROOT_LITERAL.test(first.trim()) ? first : null;
  const built = builtRoot(sameLine);
  if (built === false) return null;
  const parts = constantParts(call);
  // `del(['./**', '!.env'])`, `remove(path.resolve('.'))`: patterns or parts that are all the root, negations aside.
  if (parts.length > 0 && parts.every((p) => ROOT_LITERAL.test(p.trim()) || p.startsWith('!'))) return parts[0]!;
  const getter = sameLine.find((c) => ROOT_GETTER.test(c.callee));
  // `rimraf.sync(process.cwd())`, `shutil.rmtree(os.getcwd())`: nothing but dot segments joined to it.
  if (getter !== undefined && parts.every((p) => /^\.{0,2}[\\/]?$/.test(p))) return `${getter.callee}()`;
  return null;
}

/** True for a word of a command that names the root: `.`, `./*`, `*`, `..`, `$PWD`. */
function rootWord(word: string): boolean {
  const w = word.replace(/^["']|["']$/g, '');
  return ROOT_LITERAL.test(w) || SHELL_CWD.test(w);
}

/**
 * The target of a tree-deleting shell command run as a process when it is the root: `rm -rf *`,
 * `rm -rf ..`, `rm -rf ` + `process.cwd()`, `rd /s /q .`, `["rm", "-rf", os.getcwd()]`,
 * `Remove-Item -Recurse -Force .`, `find . -delete`.
 */
function commandRoot(call: CallFact, sameLine: readonly CallFact[]): string | null {
  const text = `${[...call.args.filter((a): a is string => a !== null), ...constantParts(call)].join(' ').slice(0, 4000)} `;
  const rm = TREE_COMMAND.exec(text);
  if (rm !== null && /-[a-zA-Z]*[rR]|--recursive|\/s/.test(rm[0])) {
    const target = rm[1] ?? '';
    if (target !== '' && rootWord(target)) return rm[0].trim();
    // The target is a computed part that is a path to the root (`rm -rf ${__dirname}`, `f"rm -rf {BASE_DIR}"`,
    // `'rm -rf ' + ROOT`, `['rm', '-rf', ROOT]`): the part the target's hole stands for, counted in order.
    const hole = /^["']?(?:\?|%s|\{\d*\})?["']?(?:[\\/]\*?)?$/.test(target);
    if (hole && call.commandPaths !== undefined) {
      const before = text.slice(0, rm.index + rm[0].length - target.length);
      const k = (before.match(/\?|%s|\{\d*\}/g) ?? []).length;
      const path = call.commandPaths[k];
      if (path !== undefined && rootPath(path)) return `${rm[0].trim()} (${path})`;
    }
    // The target is computed (`'rm -rf ' + process.cwd()`): a root getter called in the same statement, and no other constant path.
    const getter = sameLine.find((c) => ROOT_GETTER.test(c.callee));
    if (target === '' && getter !== undefined && builtRoot(sameLine) !== false) return `${rm[0].trim()} ${getter.callee}()`;
  }
  const ps = REMOVE_ITEM.exec(text);
  if (ps !== null && (ps[1] ?? '').split(/[\s,]+/).some((w) => !w.startsWith('-') && rootWord(w))) return ps[0].trim();
  const find = FIND_DELETE.exec(text);
  if (find !== null && rootWord(find[1] ?? '')) return find[0].trim();
  return null;
}

/** The root a listing call reads: `readdirSync('.')`, `os.listdir()`, `readdirSync(process.cwd())`, `Path('.').iterdir()`. */
function listingRoot(call: CallFact, sameLine: readonly CallFact[]): string | null {
  if (/^os\.(listdir|scandir|walk)$/.test(call.callee) && call.args.length === 0) return '.';
  if (/^\?\./.test(call.callee)) {
    // A method of a path object: the object built on the same line (`Path('.')`, `Path.cwd()`).
    const base = sameLine.find((c) => ROOT_GETTER.test(c.callee) || (/^pathlib\.Path$/.test(c.callee) && c.args[0] !== null && c.args[0] !== undefined && ROOT_LITERAL.test(c.args[0])));
    return base === undefined ? null : `${base.callee}(${base.args[0] ?? ''})`;
  }
  return namedRoot(call, sameLine);
}

/**
 * A call inside a function of the file (a handler, not module-level code) that deletes the
 * application's own files recursively, or null. Process calls are given by the caller (`execCalls`:
 * what it counts as starting a process).
 */
export function appFilesDeletion(facts: CodeFacts, execCalls: readonly CallFact[]): AppWipe | null {
  const byLine = new Map<number, CallFact[]>();
  for (const c of facts.calls) {
    const list = byLine.get(c.line);
    if (list === undefined) byLine.set(c.line, [c]);
    else list.push(c);
  }
  // The calls of a line stand for one statement's; a minified line holds a whole program, where they say nothing.
  const crowded = (c: CallFact) => (byLine.get(c.line)?.length ?? 0) > STATEMENT_CALLS;
  const onLine = (c: CallFact) => (crowded(c) ? [] : (byLine.get(c.line) ?? []));
  for (const c of execCalls) {
    if (c.topLevel) continue;
    const target = commandRoot(c, onLine(c));
    if (target !== null) return { call: c, target };
  }
  const deletions = facts.calls.filter((c) => !c.topLevel && DELETE_CALLEE.test(c.callee)).slice(0, MAX_DELETIONS);
  if (deletions.length === 0) return null;
  // A call of a local function that passes its parameter to `fs.rmSync(p, { recursive: true })` is read as that
  // removal with the caller's path and the caller's (absent) options: the function's own call says it is recursive.
  const recursiveInside = new Set(deletions.filter((c) => c.options.recursive === 'true').map((c) => c.callee));
  const recursive = (c: CallFact) => TREE_CALLEE.test(c.callee) || c.options.recursive === 'true' || (c.options.recursive === undefined && c.argPath !== undefined && c.args.length === 1 && recursiveInside.has(c.callee)) || (c.callee === 'shelljs.rm' && c.args.some((a) => a !== null && /^-[a-z]*r/i.test(a)));
  for (const c of deletions) {
    if (!recursive(c)) continue;
    const target = namedRoot(c, onLine(c));
    if (target !== null) return { call: c, target };
  }
  // A loop over the root's entries deleting each: the listing names the root, the deletion follows within a few lines.
  const listings = facts.calls.filter((c) => LIST_CALLEE.test(c.callee)).slice(0, MAX_DELETIONS);
  for (const c of deletions) {
    if (crowded(c) || (!recursive(c) && !handWrittenTree(deletions, c))) continue;
    const before = (l: CallFact) => l.line <= c.line && c.line - l.line <= 6;
    // `fs.rmSync(path.join(root, entry), …)` with the root built from the file's folder or the working directory.
    if (c.argPath !== undefined && rootEntry(c.argPath) && listings.some(before)) return { call: c, target: c.argPath };
    // Otherwise the entry's path must be the loop's own (`shutil.rmtree(p)`, `fs.rmSync(path.join(dir, f))`), with no constant part of its own.
    if (c.argPath !== undefined && !/\?$/.test(c.argPath)) continue;
    if (constantParts(c).some((p) => !/^\.{0,2}[\\/]?$/.test(p))) continue;
    for (const l of listings) {
      if (!before(l)) continue;
      const root = listingRoot(l, onLine(l));
      if (root !== null) return { call: c, target: `each entry of ${l.callee}(${root})` };
    }
  }
  return null;
}

/** Files and folders both deleted near each other (`unlink` for files, `rmdir` for folders): a tree taken apart by hand. */
function handWrittenTree(deletions: readonly CallFact[], c: CallFact): boolean {
  const near = deletions.filter((d) => Math.abs(d.line - c.line) <= 6);
  return near.some((d) => /unlink|remove$/.test(d.callee)) && near.some((d) => /rmdir|rmtree|rmSync|\.rm$/.test(d.callee));
}

/** Web frameworks and servers whose import makes the file's functions request handlers. */
const WEB_MODULE = /^(express|koa|@koa\/router|koa-router|fastify|@hapi\/hapi|hapi|restify|polka|hono|micro|@nestjs\/common|next\/server|ws|socket\.io|uWebSockets\.js|flask|fastapi|starlette|django|aiohttp|bottle|tornado|sanic|quart|falcon|cherrypy|pyramid|http\.server|socketserver|websockets|werkzeug)(\.|\/|$)/;
/** Route registrations: `app.post('/x', …)`, `router.get(…)`, `server.route(…)`. */
const ROUTE_METHOD = /(^|\.)(get|post|put|patch|delete|del|all|use|route|head|options)$/;
/** Servers and socket listeners created in code. */
const SERVER_CALL = /^(?:https?|http2|net|tls)\.create(?:Secure)?Server$|^(?:ws\.(?:Server|WebSocketServer)|WebSocketServer|socket\.io(?:\.Server)?|http\.server\.(?:HTTPServer|ThreadingHTTPServer)|socketserver\.\w+Server|flask\.Flask|fastapi\.FastAPI|aiohttp\.web\.Application|bottle\.Bottle|sanic\.Sanic|websockets\.serve)$/;
/** Next.js and serverless API route files: every exported function answers a request. */
const API_ROUTE_FILE = /(^|\/)(?:src\/)?(?:pages|app)\/api\/|(^|\/)app\/(?:.+\/)?route\.[cm]?[jt]s$/;

/**
 * Where the file serves web requests or socket messages: a route it registers, a server it creates,
 * a web framework it imports, or its place as an API route file. Null when it serves none.
 * The route nearest `line` is preferred for the evidence.
 */
export function webEntry(facts: CodeFacts, file: string, line: number): string | null {
  // A client's request (`axios.get('/users')`, `http.get(…)`) names a path too: it is not a route.
  const client = (c: CallFact) => (facts.language === 'javascript' ? isNetworkCallee(c.callee) : isPythonNetworkCallee(c.callee));
  const routes = facts.calls.filter((c) => (ROUTE_METHOD.test(c.callee) && !client(c) && (/^\/[\w/:.*{}-]*$/.test(c.args[0] ?? '') || c.options.path !== undefined || c.options.url !== undefined)) || SERVER_CALL.test(c.callee) || (/(^|\.)on$/.test(c.callee) && /^(message|connection|request|data)$/.test(c.args[0] ?? '') && facts.imports.some((i) => WEB_MODULE.test(i.module))));
  const nearest = routes.sort((a, b) => Math.abs(a.line - line) - Math.abs(b.line - line))[0];
  if (nearest !== undefined) {
    const path = nearest.args[0] ?? nearest.options.path ?? nearest.options.url;
    return `${nearest.callee}(${path === null || path === undefined ? '…' : `'${path}'`})`;
  }
  const framework = facts.imports.find((i) => WEB_MODULE.test(i.module));
  if (framework !== undefined) return `a handler of ${framework.module}`;
  return API_ROUTE_FILE.test(file) ? `the API route ${file}` : null;
}
