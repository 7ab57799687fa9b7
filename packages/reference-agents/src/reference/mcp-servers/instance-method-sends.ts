import { parseJs, type JsNode } from '../skills/js-source.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import type { HandlerEffect } from './handler-effect.js';
import { lineLocator } from '../text/line-locator.js';
import { localImports, type ReadModule } from './module-constants.js';
import type { McpTool } from './mcp-tool.js';

// A request in a method body (as module-constants' SENDS, without `.send(` of a socket the class may hold for IPC).
const SENDS = /\bfetch\s*\(|\b(?:https?|http2)\.(?:request|get)\s*\(|\baxios(?:\.\w+)?\s*\(|\bgot(?:\.\w+)?\s*\(|\bundici\b|\bXMLHttpRequest\b/;
// Reading a file in the handler: what it read is the user's data.
const FILE_READ = /\breadFile(?:Sync)?\s*\(/;

/** Methods of exported classes of a module whose body makes a request (`export class Cache { put(p, t) { fetch(…) } }`). */
function sendingMethods(text: string, typescript: boolean): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (!SENDS.test(text)) return out;
  for (const statement of (parseJs(text, typescript).body as JsNode[] | undefined) ?? []) {
    const decl = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? (statement.declaration as JsNode | null) : statement;
    if (decl?.type !== 'ClassDeclaration' || !(decl.id as JsNode | null)?.name) continue;
    const methods = new Set<string>();
    for (const m of ((decl.body as JsNode).body as JsNode[]) ?? []) {
      const key = m.key as JsNode | undefined;
      if (m.type === 'MethodDefinition' && key?.type === 'Identifier' && SENDS.test(text.slice(m.start, m.end))) methods.add(key.name as string);
    }
    if (methods.size > 0) out.set((decl.id as JsNode).name as string, methods);
  }
  return out;
}

/**
 * `instance.method` names of a file whose method sends what it is given: `const cache = new ContentCache()`
 * with `ContentCache` imported from a module of the server whose `put` makes a request. A handler calling
 * `cache.put(path, text)` sends the file it read, one module and one object away (round s29).
 */
export async function importedInstanceSenders(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean): Promise<Set<string>> {
  const out = new Set<string>();
  if ((language !== 'javascript' && language !== 'typescript') || !/\bnew\s+[A-Z]/.test(text)) return out;
  const imports = localImports(file, text, language, exists);
  let modules = 0;
  for (const [local, [module, name]] of imports) {
    const made = [...text.matchAll(new RegExp(String.raw`(?:\b(?:const|let|var)\s+|\bthis\.)([\w$]+)\s*=\s*new\s+${local.replace(/\$/g, '\\$')}\s*\(`, 'g'))].map((m) => m[1]!);
    if (made.length === 0 || ++modules > 8) continue;
    const source = await read(module);
    const methods = source === null ? undefined : sendingMethods(source, /\.[cm]?ts$/.test(module)).get(name);
    for (const instance of made) for (const m of methods ?? []) out.add(`${instance}.${m}`);
  }
  return out;
}

/** The calls of such a method in a tool's handler that hand it what the handler read from a file, as network effects. */
export function instanceSendEffects(text: string, tool: McpTool, senders: ReadonlySet<string>): HandlerEffect[] {
  if (senders.size === 0 || !tool.handler) return [];
  const [from, to] = tool.handler;
  const body = text.slice(from, to);
  const word = (n: string) => new RegExp(String.raw`(?<![\w$.])${n.replace(/\$/g, '\\$')}(?![\w$])`);
  // Names bound to a file read (`const text = await fs.readFile(p)`), or a read's `.then((t) => …)` parameter.
  const read = [
    ...[...body.matchAll(/\b(?:const|let|var)\s+([\w$]+)\s*=\s*(?:await\s+)?[^;\n]{0,80}?\breadFile(?:Sync)?\s*\(/g)].map((m) => m[1]!),
    ...[...body.matchAll(/\breadFile(?:Sync)?\s*\([^;\n]{0,200}?\)\s*\.then\s*\(\s*(?:async\s*)?\(?\s*([\w$]+)/g)].map((m) => m[1]!),
  ];
  const inputs = tool.inputNames ?? [];
  const lineAt = lineLocator(text);
  const out: HandlerEffect[] = [];
  for (const s of senders) {
    for (const m of body.matchAll(new RegExp(String.raw`(?<![\w$.])${s.replace(/[$.]/g, '\\$&')}\s*\(([^;\n]{0,300})`, 'g'))) {
      const args = m[1]!;
      const carriesRead = read.some((n) => word(n).test(args)) || FILE_READ.test(args);
      const fromInput = inputs.some((n) => word(n).test(args));
      // Only what the handler read from disk: a vendor client sending the tool's own input to its API is
      // what such a server is for (judged by the handler readers, with the host they can see).
      if (!carriesRead) continue;
      out.push({ kind: 'network', line: lineAt(from + m.index), evidence: `${s}(${args}`.slice(0, 160), fromInput, discarded: true, carriesRead });
    }
  }
  return out;
}
