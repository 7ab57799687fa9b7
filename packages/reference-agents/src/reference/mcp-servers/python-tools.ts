import { pythonSourceOf } from './python-source-cache.js';
import { lineLocator } from '../text/line-locator.js';
import { PythonSource, type SyntaxNode } from '../skills/python-source.js';
import type { McpTool } from './mcp-tool.js';
import { pythonParameterDescriptions } from './parameter-descriptions.js';

const DECORATOR_KIND: ReadonlyMap<string, McpTool['kind']> = new Map([
  ['tool', 'tool'],
  ['prompt', 'prompt'],
  ['resource', 'resource'],
]);
// Parameters the MCP SDKs inject, not part of what the model fills in.
const INJECTED = new Set(['self', 'cls', 'ctx', 'context']);

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The docstring of a function body: its first statement when that is a string. */
function docstring(fn: SyntaxNode): SyntaxNode | null {
  const body = fn.getChild('Body');
  for (let c = body?.firstChild ?? null; c; c = c.nextSibling) {
    if (c.name === ':' || c.name === 'Comment') continue;
    if (c.name === 'ExpressionStatement' && (c.firstChild?.name === 'String' || c.firstChild?.name === 'ContinuedString')) return c.firstChild;
    return null;
  }
  return null;
}

function parameters(src: PythonSource, fn: SyntaxNode, keepInjected = false): string[] {
  const list = fn.getChild('ParamList');
  if (!list) return [];
  const params: string[] = [];
  let current = '';
  for (let c = list.firstChild; c; c = c.nextSibling) {
    if (c.name === '(' || c.name === ')') continue;
    if (c.name === ',') {
      if (current !== '') params.push(current);
      current = '';
      continue;
    }
    current += (current === '' || c.name === 'TypeDef' ? '' : ' ') + collapse(src.slice(c));
  }
  if (current !== '') params.push(current);
  // A parameter named `context` whose annotation carries a description is the model's to fill, not the SDK's.
  return keepInjected ? params : params.filter((p) => !INJECTED.has((p.split(/[:= ]/)[0] ?? '').trim()));
}

/**
 * Tools, prompts and resources a Python MCP server defines: functions decorated with
 * `@<server>.tool()`, `.prompt()` or `.resource(uri)` (MCP SDK, FastMCP), named by the function or
 * `name=`, described by `description=` or the docstring; and `Tool(name=…, description=…,
 * inputSchema=…)` objects of a low-level `list_tools` handler.
 */
export function pythonTools(file: string, text: string): McpTool[] {
  const src = pythonSourceOf(text);
  const lineAt = lineLocator(text);
  const tools: McpTool[] = [];
  const cursor = src.tree.cursor();
  do {
    const node = cursor.node;
    if (node.name === 'DecoratedStatement') {
      const fn = node.getChild('FunctionDefinition');
      if (!fn) continue;
      for (const decorator of node.getChildren('Decorator')) {
        const parts: string[] = [];
        for (let c = decorator.firstChild; c; c = c.nextSibling) if (c.name === 'VariableName') parts.push(src.slice(c));
        const kind = DECORATOR_KIND.get(parts[parts.length - 1] ?? '');
        if (!kind || parts.length < 2) continue;
        const call = decorator.getChild('ArgList') ? decorator : null;
        const args = call ? src.args(call) : [];
        const nameArg = args.find((a) => a.keyword === 'name');
        const descArg = args.find((a) => a.keyword === 'description');
        const fnName = fn.getChild('VariableName');
        const name = (nameArg ? src.fold(nameArg.value) : null) ?? (fnName ? src.slice(fnName) : null);
        if (name === null) continue;
        const descNode = descArg?.value ?? docstring(fn);
        const description = descNode ? (src.fold(descNode) ?? collapse(src.slice(descNode))) : '';
        const uri = kind === 'resource' ? args.find((a) => a.keyword === null || a.keyword === 'uri') : undefined;
        const schema: unknown = kind === 'resource' ? { uri: uri ? src.fold(uri.value) : null, params: parameters(src, fn) } : parameters(src, fn);
        const line = lineAt(node.from);
        const inputNames = parameters(src, fn).map((p) => (p.split(/[:= ]/)[0] ?? '').replace(/^\*+/, '').trim()).filter((p) => p !== '');
        const readOnlyHint = call !== null && /\breadOnlyHint['"]?\s*[:=]\s*True\b/.test(src.slice(decorator));
        const closedWorldHint = call !== null && /\bopenWorldHint['"]?\s*[:=]\s*False\b/.test(src.slice(decorator));
        const described = kind === 'tool' ? pythonParameterDescriptions(text, parameters(src, fn, true)) : [];
        tools.push({ kind, name, description, inputSchema: schema, file, line, descriptionLine: descNode ? lineAt(descNode.from) : line, handler: [fn.from, fn.to], inputNames, ...(described.length > 0 ? { parameterDescriptions: described } : {}), ...(readOnlyHint ? { readOnlyHint } : {}), ...(closedWorldHint ? { closedWorldHint } : {}) });
      }
      continue;
    }
    if (node.name === 'CallExpression') {
      const callee = src.qualify(node.firstChild);
      if (callee === null || !/(?:^|\.)(?:Tool|Prompt|Resource)$/.test(callee)) continue;
      const args = src.args(node);
      const nameArg = args.find((a) => a.keyword === 'name');
      const name = nameArg ? src.fold(nameArg.value) : null;
      if (name === null) continue;
      const descArg = args.find((a) => a.keyword === 'description');
      const schemaArg = args.find((a) => a.keyword === 'inputSchema' || a.keyword === 'input_schema' || a.keyword === 'arguments');
      const kind: McpTool['kind'] = callee.endsWith('Prompt') ? 'prompt' : callee.endsWith('Resource') ? 'resource' : 'tool';
      const line = lineAt(node.from);
      tools.push({
        kind,
        name,
        description: descArg ? (src.fold(descArg.value) ?? collapse(src.slice(descArg.value))) : '',
        inputSchema: schemaArg ? collapse(src.slice(schemaArg.value)) : null,
        file,
        line,
        descriptionLine: descArg ? lineAt(descArg.value.from) : line,
      });
    }
  } while (cursor.next());
  return tools;
}
