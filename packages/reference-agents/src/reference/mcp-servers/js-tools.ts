import { lineLocator } from '../text/line-locator.js';
import { JsScope, parseJs, scopeOf, walkJs, type JsNode } from '../skills/js-source.js';
import type { McpTool } from './mcp-tool.js';

const REGISTRARS: ReadonlyMap<string, McpTool['kind']> = new Map(Object.entries({
  tool: 'tool',
  registerTool: 'tool',
  addTool: 'tool',
  prompt: 'prompt',
  registerPrompt: 'prompt',
  addPrompt: 'prompt',
  resource: 'resource',
  registerResource: 'resource',
  addResource: 'resource',
} as const));
const SCHEMA_KEYS = new Set(['inputSchema', 'input_schema', 'parameters', 'arguments', 'argsSchema', 'schema', 'paramsSchema']);

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function propertyKey(prop: JsNode, scope: JsScope): string | null {
  return scope.propertyName(prop.key as JsNode, Boolean(prop.computed));
}

// The value of a property of an object literal, or of a module constant bound to one; nothing for any
// other expression (a call, a member): a tool's `annotations` need not be written in place (brave-search-mcp-server).
function property(object: JsNode, name: string, scope: JsScope): JsNode | undefined {
  // A constant of the module (`annotations: READ_ONLY`) is read where it is declared.
  if (object.type === 'Identifier') {
    const init = scope.constantInit(object.name as string);
    if (init === undefined || init.type !== 'ObjectExpression') return undefined;
    object = init;
  }
  if (object.type !== 'ObjectExpression') return undefined;
  for (const prop of object.properties as JsNode[]) if (prop.type === 'Property' && propertyKey(prop, scope) === name) return prop.value as JsNode;
  return undefined;
}

/**
 * A JSON value for an object literal as far as it is constant; anything else (a zod chain, a
 * variable) is kept as its collapsed source text, so the manifest hash changes when it does.
 */
function staticValue(node: JsNode, text: string, scope: JsScope, depth = 0): unknown {
  if (depth > 20) return collapse(text.slice(node.start, node.end));
  if (node.type === 'ObjectExpression') {
    const out: Record<string, unknown> = {};
    for (const prop of node.properties as JsNode[]) {
      if (prop.type !== 'Property') continue;
      const key = propertyKey(prop, scope) ?? collapse(text.slice((prop.key as JsNode).start, (prop.key as JsNode).end));
      out[key] = staticValue(prop.value as JsNode, text, scope, depth + 1);
    }
    return out;
  }
  if (node.type === 'ArrayExpression') return (node.elements as Array<JsNode | null>).map((e) => (e ? staticValue(e, text, scope, depth + 1) : null));
  if (node.type === 'Literal' && (node.value === null || typeof node.value === 'boolean' || (typeof node.value === 'number' && Number.isFinite(node.value)))) return node.value;
  // A schema kept in a constant of the same module (`inputSchema: lintSchema`) is read where it is declared.
  if (node.type === 'Identifier') {
    const init = scope.constantInit(node.name as string);
    if (init !== undefined && (init.type === 'ObjectExpression' || init.type === 'ArrayExpression')) return staticValue(init, text, scope, depth + 1);
  }
  const folded = scope.fold(node);
  if (folded !== null) return folded;
  return collapse(text.slice(node.start, node.end));
}

/**
 * The object and array literals a module binds at its top level (`export const lintSchema = {…}`), as
 * JSON values: a tool list that names a schema another module exports reads it from there.
 */
export function moduleObjectConstants(text: string, typescript: boolean): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (text.length > 512 * 1024) return out;
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  for (let s of (root.body as JsNode[] | undefined) ?? []) {
    if (s.type === 'ExportNamedDeclaration' && s.declaration) s = s.declaration as JsNode;
    if (s.type !== 'VariableDeclaration') continue;
    for (const d of s.declarations as JsNode[]) {
      const id = d.id as JsNode;
      const init = d.init as JsNode | null;
      if (id.type === 'Identifier' && init && (init.type === 'ObjectExpression' || init.type === 'ArrayExpression')) out.set(id.name as string, staticValue(init, text, scope));
    }
  }
  return out;
}

/** Names a handler's parameters bind: `({ a, b })`, `(args)`, `(request)`. */
function paramNames(fn: JsNode): string[] {
  const names: string[] = [];
  const visit = (p: JsNode | null | undefined, depth: number) => {
    if (!p || depth > 4) return;
    if (p.type === 'Identifier') names.push(p.name as string);
    else if (p.type === 'ObjectPattern') for (const prop of p.properties as JsNode[]) visit(prop.type === 'RestElement' ? (prop.argument as JsNode) : (prop.value as JsNode), depth + 1);
    else if (p.type === 'ArrayPattern') for (const e of p.elements as Array<JsNode | null>) visit(e, depth + 1);
    else if (p.type === 'AssignmentPattern') visit(p.left as JsNode, depth + 1);
    else if (p.type === 'RestElement') visit(p.argument as JsNode, depth + 1);
  };
  for (const p of (fn.params as JsNode[]) ?? []) visit(p, 0);
  return names.filter((n) => n !== 'extra' && n !== 'ctx' && n !== 'context');
}

function isFunction(node: JsNode | undefined): boolean {
  return node?.type === 'ArrowFunctionExpression' || node?.type === 'FunctionExpression';
}

/**
 * Tools, prompts and resources a JavaScript/TypeScript MCP server defines:
 * `server.tool(name, description?, schema?, handler)`, `server.registerTool(name, {description,
 * inputSchema}, handler)`, `addTool({name, description, parameters})` (FastMCP) and the object
 * literals of a `ListToolsRequestSchema` handler (`{ name, description, inputSchema }`).
 */
export function jsTools(file: string, text: string, typescript: boolean): McpTool[] {
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  const lineAt = lineLocator(text);
  const tools: McpTool[] = [];
  const seen = new Set<number>();
  const describe = (node: JsNode | undefined): { description: string; line: number } | null => {
    if (!node || isFunction(node) || node.type === 'ObjectExpression') return null;
    // A description picked at run time (`calls > 0 ? LATER : CLEAN`) is every text it can be.
    const branches = node.type === 'ConditionalExpression' ? [node.consequent as JsNode, node.alternate as JsNode] : [node];
    const folded = branches.map((b) => scope.fold(b));
    if (folded.every((f) => f === null)) return node.type === 'Identifier' || node.type === 'MemberExpression' || node.type === 'CallExpression' ? { description: collapse(text.slice(node.start, node.end)), line: lineAt(node.start) } : null;
    return { description: folded.map((f, i) => f ?? collapse(text.slice((branches[i] as JsNode).start, (branches[i] as JsNode).end))).join('\n'), line: lineAt(node.start) };
  };
  const fromObject = (object: JsNode, kind: McpTool['kind'], fallbackName: string | null, at: JsNode) => {
    seen.add(object.start);
    const name = scope.fold(property(object, 'name', scope)) ?? fallbackName;
    if (name === null) return;
    const desc = describe(property(object, 'description', scope));
    let schema: unknown = null;
    for (const key of SCHEMA_KEYS) {
      const value = property(object, key, scope);
      if (value) schema = staticValue(value, text, scope);
    }
    const line = lineAt(at.start);
    // FastMCP's addTool({ name, execute }) and similar carry the handler in the object.
    const fn = ['execute', 'handler', 'run', 'callback', 'cb'].map((k) => property(object, k, scope)).find((v) => isFunction(v));
    tools.push({ kind, name, description: desc?.description ?? '', inputSchema: schema, file, line, descriptionLine: desc?.line ?? line, ...(fn ? { handler: [fn.start, fn.end] as [number, number], inputNames: paramNames(fn) } : {}) });
  };

  walkJs(root, (node) => {
    if (node.type === 'CallExpression') {
      const callee = node.callee as JsNode;
      if (callee.type !== 'MemberExpression') return;
      const method = scope.propertyName(callee.property as JsNode, Boolean(callee.computed));
      const kind = method === null ? undefined : REGISTRARS.get(method);
      if (!kind) return;
      const args = node.arguments as JsNode[];
      const first = args[0];
      if (first?.type === 'ObjectExpression') {
        fromObject(first, kind, null, node);
        return;
      }
      const name = scope.fold(first);
      if (name === null) return;
      const rest = args.slice(1).filter((a) => !isFunction(a));
      let description: { description: string; line: number } | null = null;
      let schema: unknown = null;
      let readOnlyHint = false;
      let closedWorldHint = false;
      for (const arg of rest) {
        if (arg.type === 'ObjectExpression') {
          seen.add(arg.start);
          const hint = property(property(arg, 'annotations', scope) ?? arg, 'readOnlyHint', scope);
          if (hint?.type === 'Literal' && hint.value === true) readOnlyHint = true;
          const world = property(property(arg, 'annotations', scope) ?? arg, 'openWorldHint', scope);
          if (world?.type === 'Literal' && world.value === false) closedWorldHint = true;
          const desc = describe(property(arg, 'description', scope));
          const inner = [...SCHEMA_KEYS].map((k) => property(arg, k, scope)).find((v) => v !== undefined);
          if (desc !== null || inner !== undefined) {
            description ??= desc;
            if (inner) schema = staticValue(inner, text, scope);
          } else if (kind === 'tool' && schema === null) schema = staticValue(arg, text, scope);
        } else {
          const desc = describe(arg);
          if (desc !== null && description === null) description = desc;
          else if (kind === 'resource' && desc !== null) schema = desc.description;
        }
      }
      const line = lineAt(node.start);
      const fn = args.find((a) => isFunction(a));
      tools.push({ kind, name, description: description?.description ?? '', inputSchema: schema, file, line, descriptionLine: description?.line ?? line, ...(fn ? { handler: [fn.start, fn.end] as [number, number], inputNames: paramNames(fn) } : {}), ...(readOnlyHint ? { readOnlyHint } : {}), ...(closedWorldHint ? { closedWorldHint } : {}) });
      return;
    }
    if (node.type === 'ObjectExpression' && !seen.has(node.start)) {
      const hasName = property(node, 'name', scope);
      const hasDescription = property(node, 'description', scope);
      const hasSchema = [...SCHEMA_KEYS].some((k) => property(node, k, scope) !== undefined);
      if (hasName && hasDescription && hasSchema && scope.fold(hasName) !== null) fromObject(node, 'tool', null, node);
    }
  });
  // A low-level server dispatches in one CallTool handler: `switch (request.params.name) { case 'add': … }`.
  const unhandled = new Map(tools.filter((t) => t.kind === 'tool' && !t.handler).map((t) => [t.name, t]));
  if (unhandled.size > 0) {
    walkJs(root, (node) => {
      if (node.type !== 'SwitchCase' || !node.test) return;
      const tool = unhandled.get(scope.fold(node.test as JsNode) ?? '');
      const body = node.consequent as JsNode[];
      if (!tool || body.length === 0) return;
      tool.handler = [(body[0] as JsNode).start, (body[body.length - 1] as JsNode).end];
      tool.inputNames = ['args', 'arguments', 'input', 'params'];
      unhandled.delete(tool.name);
    });
  }
  // One tool and one CallTool handler that does not dispatch by name: that handler is the tool's.
  if (unhandled.size === 1 && tools.filter((t) => t.kind === 'tool').length === 1) {
    const tool = [...unhandled.values()][0]!;
    walkJs(root, (node) => {
      if (tool.handler || node.type !== 'CallExpression') return;
      const callee = node.callee as JsNode;
      const args = (node.arguments as JsNode[]) ?? [];
      if (callee.type !== 'MemberExpression' || scope.propertyName(callee.property as JsNode, Boolean(callee.computed)) !== 'setRequestHandler' || args.length < 2) return;
      const schema = args[0] as JsNode;
      // The SDK's schema under any local name (`import { CallToolRequestSchema as Call }`), or the method itself.
      const isCallTool = /(?:^|\.)CallToolRequestSchema$/.test(scope.qualify(schema) ?? '') || scope.fold(schema) === 'tools/call';
      const fn = args[1] as JsNode;
      if (!isCallTool || !isFunction(fn) || /\bparams\.name\b|\bcase\s+['"`]/.test(text.slice(fn.start, fn.end))) return;
      tool.handler = [fn.start, fn.end];
      tool.inputNames = paramNames(fn);
    });
  }
  return tools;
}
