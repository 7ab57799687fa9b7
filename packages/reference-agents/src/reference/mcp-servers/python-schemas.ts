import { PythonSource, type SyntaxNode } from '../skills/python-source.js';
import { relativeImportBindings } from './answer-senders.js';
import type { McpTool } from './mcp-tool.js';
import type { ReadModule } from './module-constants.js';
import { pythonSourceOf } from './python-source-cache.js';
import { lineLocator } from '../text/line-locator.js';

/**
 * (round s31b) The input schema of a Python tool declared as `Tool(name=…, inputSchema=…)` (the low-level
 * MCP SDK), read as the JSON value the model is served — property names, titles, descriptions, defaults,
 * enum values — when it is written as Python data: a dict literal (`{"type": "object", "properties": {…}}`,
 * `**spread`, `dict(…)`), a name bound to one at the top of the module (`inputSchema=CREATE_NOTE`, whose
 * properties may be names too: `"ctx": _ROUTING`) or, failing that, in a function (`schema = {…}` in `list_tools`), a name or a module attribute imported from another module
 * of the server (`from .schemas import CREATE_NOTE`, `from . import schema` then `schema.CREATE_NOTE`), or a
 * pydantic model's `Model.model_json_schema()` / `Model.schema()` (its annotated fields, with `Field(…)`'s
 * `description`, `title`, `default`, `examples` and `Literal[…]` values; the class docstring as the
 * description). Held-out set 32: the order to the model sat in a property name and a property description of
 * a schema kept in `schema.py`, which the reader had kept as the source text `schema.CREATE_NOTE`.
 * Bounded: eight levels, 4,000 nodes, eight other modules per file; what it cannot read stays as it was.
 */

const MAX_DEPTH = 8;
const MAX_NODES = 4000;
const MAX_MODULES = 8;
const SCHEMA_METHODS = /^(?:model_json_schema|schema|json_schema)$/;

interface Module {
  path: string;
  src: PythonSource;
  /** Top-level bindings: `NAME = value` and `class NAME`. */
  values: Map<string, SyntaxNode>;
  classes: Map<string, SyntaxNode>;
  imports: ReturnType<typeof relativeImportBindings> | null;
}

function moduleOf(path: string, src: PythonSource): Module {
  const values = new Map<string, SyntaxNode>();
  const classes = new Map<string, SyntaxNode>();
  for (let c = src.tree.topNode.firstChild; c; c = c.nextSibling) {
    if (c.name === 'AssignStatement' && c.getChildren('AssignOp').length === 1) {
      const target = c.firstChild;
      const value = c.lastChild;
      if (target?.name === 'VariableName' && value && value !== target && !values.has(src.slice(target))) values.set(src.slice(target), value);
    } else if (c.name === 'ClassDefinition') {
      const name = c.getChild('VariableName');
      if (name) classes.set(src.slice(name), c);
    } else if (c.name === 'DecoratedStatement') {
      const cls = c.getChild('ClassDefinition');
      const name = cls?.getChild('VariableName');
      if (cls && name) classes.set(src.slice(name), cls);
    }
  }
  return { path, src, values, classes, imports: null };
}

class SchemaReader {
  private nodes = 0;
  private readonly modules = new Map<string, Module | null>();

  constructor(
    private readonly read: ReadModule,
    private readonly exists: (path: string) => boolean,
  ) {}

  private imports(m: Module): ReturnType<typeof relativeImportBindings> {
    m.imports ??= relativeImportBindings(m.path, m.src.text, true, this.exists);
    return m.imports;
  }

  private async module(path: string): Promise<Module | null> {
    if (!this.modules.has(path)) {
      if (this.modules.size >= MAX_MODULES) return null;
      const text = await this.read(path);
      this.modules.set(path, text === null ? null : moduleOf(path, new PythonSource(text)));
    }
    return this.modules.get(path) ?? null;
  }

  register(path: string, src: PythonSource): Module {
    const m = moduleOf(path, src);
    this.modules.set(path, m);
    return m;
  }

  /** What a name stands for in a module: its top-level value, or a name it imports from another module. */
  private async named(m: Module, name: string, depth: number): Promise<{ m: Module; node: SyntaxNode } | { m: Module; cls: SyntaxNode } | { module: Module } | null> {
    // A top-level binding, or else the first assignment of the name in a function (`schema = {…}` in `list_tools`).
    const value = m.values.get(name) ?? m.src.assignment(name);
    if (value !== undefined) return { m, node: value };
    const cls = m.classes.get(name);
    if (cls !== undefined) return { m, cls };
    if (depth > MAX_DEPTH) return null;
    const { modules, names } = this.imports(m);
    const whole = modules.get(name);
    if (whole !== undefined) {
      const other = await this.module(whole);
      return other === null ? null : { module: other };
    }
    const one = names.get(name);
    if (one === undefined) return null;
    const other = await this.module(one[0]);
    return other === null ? null : this.named(other, one[1], depth + 1);
  }

  /** A name or `module.NAME` as a node of some module (`schema.CREATE_NOTE` → CREATE_NOTE's value in schema.py). */
  private async target(m: Module, node: SyntaxNode, depth: number): Promise<{ m: Module; node: SyntaxNode } | { m: Module; cls: SyntaxNode } | null> {
    if (node.name === 'VariableName') {
      const r = await this.named(m, m.src.slice(node), depth);
      return r === null || 'module' in r ? null : r;
    }
    if (node.name === 'MemberExpression' && node.lastChild?.name === 'PropertyName' && node.firstChild?.name === 'VariableName') {
      const base = await this.named(m, m.src.slice(node.firstChild), depth);
      if (base === null || !('module' in base)) return null;
      return this.named(base.module, m.src.slice(node.lastChild), depth + 1).then((r) => (r === null || 'module' in r ? null : r));
    }
    return null;
  }

  async value(m: Module, node: SyntaxNode | null, depth = 0): Promise<unknown> {
    if (node === null || depth > MAX_DEPTH || ++this.nodes > MAX_NODES) return undefined;
    const src = m.src;
    switch (node.name) {
      case 'String':
      case 'ContinuedString':
      case 'FormatString':
        return src.fold(node) ?? undefined;
      case 'Number': {
        const n = Number(src.slice(node).replace(/_/g, ''));
        return Number.isFinite(n) ? n : undefined;
      }
      case 'Boolean':
        return src.slice(node) === 'True';
      case 'None':
        return null;
      case 'ParenthesizedExpression':
        return this.value(m, node.firstChild?.nextSibling ?? null, depth + 1);
      case 'UnaryExpression': {
        const v = await this.value(m, node.lastChild, depth + 1);
        return typeof v === 'number' && src.slice(node).trim().startsWith('-') ? -v : v;
      }
      case 'ArrayExpression':
      case 'TupleExpression': {
        const out: unknown[] = [];
        for (let c = node.firstChild; c; c = c.nextSibling) {
          if (['[', ']', '(', ')', ','].includes(c.name)) continue;
          const v = await this.value(m, c, depth + 1);
          if (v !== undefined) out.push(v);
        }
        return out;
      }
      case 'DictionaryExpression': {
        const out: Record<string, unknown> = {};
        let key: unknown;
        let spread = false;
        let expectValue = false;
        for (let c = node.firstChild; c; c = c.nextSibling) {
          if (c.name === '{' || c.name === '}' || c.name === ',') {
            key = undefined;
            expectValue = false;
            continue;
          }
          if (c.name === '**') {
            spread = true;
            continue;
          }
          if (c.name === ':') {
            expectValue = true;
            continue;
          }
          if (spread) {
            spread = false;
            const v = await this.value(m, c, depth + 1);
            if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, v);
          } else if (expectValue) {
            if (typeof key === 'string' || typeof key === 'number') {
              const v = await this.value(m, c, depth + 1);
              if (v !== undefined) out[String(key)] = v;
            }
          } else key = await this.value(m, c, depth + 1);
        }
        return out;
      }
      case 'BinaryExpression': {
        // `A | B` merges two dicts (Python 3.9).
        const left = await this.value(m, node.firstChild, depth + 1);
        const right = await this.value(m, node.lastChild, depth + 1);
        const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
        return isObject(left) && isObject(right) && /^\s*\|/.test(src.text.slice(node.firstChild!.to, node.lastChild!.from)) ? { ...left, ...right } : undefined;
      }
      case 'VariableName':
      case 'MemberExpression': {
        const t = await this.target(m, node, depth + 1);
        if (t === null) return undefined;
        return 'cls' in t ? undefined : this.value(t.m, t.node, depth + 1);
      }
      case 'CallExpression': {
        const callee = node.firstChild;
        // `Model.model_json_schema()`, `Model.schema()`, `TypeAdapter(Model).json_schema()` is not read.
        if (callee?.name === 'MemberExpression' && callee.lastChild?.name === 'PropertyName' && SCHEMA_METHODS.test(src.slice(callee.lastChild))) {
          const owner = callee.firstChild;
          const t = owner ? await this.target(m, owner, depth + 1) : null;
          if (t !== null && 'cls' in t) return this.modelSchema(t.m, t.cls, depth + 1);
          return undefined;
        }
        if (callee?.name === 'VariableName' && src.slice(callee) === 'dict') {
          const out: Record<string, unknown> = {};
          for (const a of src.args(node)) {
            if (a.keyword === null) continue;
            const v = await this.value(m, a.value, depth + 1);
            if (v !== undefined) out[a.keyword] = v;
          }
          return out;
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** A pydantic model's JSON schema as the model is served it: its annotated fields and what `Field(…)` says of them. */
  private async modelSchema(m: Module, cls: SyntaxNode, depth: number): Promise<Record<string, unknown>> {
    const src = m.src;
    const properties: Record<string, unknown> = {};
    const schema: Record<string, unknown> = { type: 'object', properties };
    const body = cls.getChild('Body');
    for (let c = body?.firstChild ?? null; c; c = c.nextSibling) {
      if (c.name === 'ExpressionStatement' && (c.firstChild?.name === 'String' || c.firstChild?.name === 'ContinuedString') && schema.description === undefined) {
        const doc = src.fold(c.firstChild);
        if (doc !== null) schema.description = doc.trim();
        continue;
      }
      if (c.name !== 'AssignStatement' && c.name !== 'ExpressionStatement') continue;
      const name = c.firstChild;
      const type = c.getChild('TypeDef');
      if (name?.name !== 'VariableName' || type === null) continue;
      const field = src.slice(name);
      if (field.startsWith('_') || field === 'model_config') continue;
      const spec: Record<string, unknown> = {};
      // `Literal["a", "b"]` (also inside `Annotated[…]`): the enum; `Field(…)` in the annotation or as the value.
      const calls: SyntaxNode[] = [];
      const visit = (n: SyntaxNode | null, d: number): void => {
        for (let k = n?.firstChild ?? null; k && d < 6; k = k.nextSibling) {
          if (k.name === 'CallExpression' && /^(?:Field|pydantic\.Field)$/.test(src.slice(k.firstChild!))) calls.push(k);
          else if (k.name === 'MemberExpression' && /^(?:typing\.)?Literal$/.test(src.slice(k.firstChild!))) {
            const values = k.getChildren('String').map((s) => src.fold(s)).filter((s): s is string => s !== null);
            if (values.length > 0) spec.enum = values;
          } else visit(k, d + 1);
        }
      };
      visit(type, 0);
      const value = c.getChildren('AssignOp').length === 1 ? c.lastChild : null;
      if (value?.name === 'CallExpression' && /^(?:Field|pydantic\.Field)$/.test(src.slice(value.firstChild!))) calls.push(value);
      else if (value !== null && value !== type) {
        const d = await this.value(m, value, depth + 1);
        if (d !== undefined) spec.default = d;
      }
      for (const call of calls) {
        for (const a of src.args(call)) {
          const key = a.keyword ?? 'default';
          if (!['description', 'title', 'default', 'examples'].includes(key)) continue;
          const v = await this.value(m, a.value, depth + 1);
          if (v !== undefined) spec[key] = v;
        }
      }
      properties[field] = spec;
    }
    return schema;
  }
}

/**
 * Replaces, for the tools a Python file declares as `Tool(…, inputSchema=…)`, the schema kept as source text with
 * the value it stands for (see above), when that reads as an object.
 */
export async function resolvePythonSchemas(file: string, text: string, tools: McpTool[], read: ReadModule, exists: (path: string) => boolean): Promise<void> {
  const pending = tools.filter((t) => t.file === file && typeof t.inputSchema === 'string');
  if (pending.length === 0) return;
  const src = pythonSourceOf(text);
  const reader = new SchemaReader(read, exists);
  const self = reader.register(file, src);
  const lineAt = lineLocator(text);
  const cursor = src.tree.cursor();
  do {
    const node = cursor.node;
    if (node.name !== 'CallExpression') continue;
    const callee = src.qualify(node.firstChild);
    if (callee === null || !/(?:^|\.)Tool$/.test(callee)) continue;
    const args = src.args(node);
    const name = args.find((a) => a.keyword === 'name');
    const schema = args.find((a) => a.keyword === 'inputSchema' || a.keyword === 'input_schema');
    if (name === undefined || schema === undefined) continue;
    const toolName = src.fold(name.value);
    const tool = pending.find((t) => t.name === toolName && t.line === lineAt(node.from));
    if (tool === undefined) continue;
    const value = await reader.value(self, schema.value);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) tool.inputSchema = value;
  } while (cursor.next());
}
