import type { McpTool } from './mcp-tool.js';

/** One parameter's description as the model reads it in the tool's input schema. */
export interface ParameterDescription {
  name: string;
  description: string;
}

// zod's `.describe('…')` on a member written as source.
const ZOD_DESCRIBE = /\.describe\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/;
// A Python string literal (prefixes, triple quotes); implicit concatenation is handled by the caller.
const PY_STRING = /\s*[rRuUbB]{0,2}("""|'''|"|')([\s\S]*?)(?<!\\)\1/y;

/** The literals that start at `at` (inside parentheses too), joined as Python joins adjacent strings. */
function pythonLiterals(text: string, at: number): string | null {
  let i = at;
  while (/[\s(]/.test(text[i] ?? '')) i++;
  const parts: string[] = [];
  for (;;) {
    PY_STRING.lastIndex = i;
    const m = PY_STRING.exec(text);
    if (m === null) break;
    parts.push(m[2]!.replace(/\\n/g, '\n').replace(/\\(['"\\])/g, '$1'));
    i = PY_STRING.lastIndex;
  }
  return parts.length === 0 ? null : parts.join('');
}

/** The text from the bracket at `open` to the one that closes it (strings not parsed: annotations rarely hold brackets in text). */
function bracketed(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length && i < open + 4000; i++) {
    const c = text[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') {
      depth--;
      if (depth === 0) return text.slice(open, i + 1);
    }
  }
  return text.slice(open, open + 4000);
}

/** `description=` texts of `Field(…)`/`Param(…)` calls in a piece of code (a parameter's annotation or default). */
function fieldDescriptions(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/\b(?:Field|Param|Query|Body|Path|Argument|Option)\s*\(/g)) {
    const call = bracketed(code, m.index + m[0].length - 1);
    const d = /\bdescription\s*=\s*/.exec(call);
    if (d === null) continue;
    const value = pythonLiterals(call, d.index + d[0].length);
    if (value !== null) out.push(value);
  }
  return out;
}

/**
 * Descriptions of a Python tool's parameters declared with pydantic (`x: Annotated[str,
 * Field(description=…)]`, `x: str = Field(description=…)`), also through a type alias of the
 * module (`Context = Annotated[str, Field(description=…)]`, then `context: Context = ""`). The MCP
 * SDKs copy them into the input schema the model reads, word for word.
 */
export function pythonParameterDescriptions(text: string, params: readonly string[]): ParameterDescription[] {
  const out: ParameterDescription[] = [];
  for (const p of params) {
    const m = /^\**([A-Za-z_]\w*)\s*(?::\s*([\s\S]*))?$/.exec(p);
    if (m === null || m[2] === undefined) continue;
    let code = m[2];
    // A type alias defined in the module: its definition holds the Field.
    const alias = /^([A-Za-z_]\w*)\s*(?:=|$)/.exec(code)?.[1];
    if (alias !== undefined) {
      const def = new RegExp(`^${alias}\\s*(?::\\s*\\w+\\s*)?=\\s*(?=Annotated\\s*\\[|\\w+\\.Annotated\\s*\\[)`, 'm').exec(text);
      if (def !== null) code += ` ${bracketed(text, text.indexOf('[', def.index + def[0].length))}`;
    }
    for (const description of fieldDescriptions(code)) out.push({ name: m[1]!, description: description.replace(/\s+/g, ' ').trim() });
  }
  return out;
}

/**
 * Every parameter description of a tool: the Python ones the extractor read, a JSON Schema's
 * `properties.*.description`, and zod's `.describe('…')` in a shape written as source.
 */
export function parameterDescriptions(tool: McpTool): ParameterDescription[] {
  const out: ParameterDescription[] = [...(tool.parameterDescriptions ?? [])];
  const schema = tool.inputSchema;
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    const props = (schema as Record<string, unknown>).properties ?? schema;
    if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
      for (const [name, spec] of Object.entries(props as Record<string, unknown>)) {
        // A zod member is kept as its source (`z.string().describe('…')`).
        const d = typeof spec === 'object' && spec !== null ? (spec as { description?: unknown }).description : typeof spec === 'string' ? ZOD_DESCRIBE.exec(spec)?.[2] : undefined;
        if (typeof d === 'string') out.push({ name, description: d });
      }
    }
  } else if (typeof schema === 'string') {
    // The source is kept with whitespace collapsed: a chain broken over lines reads `z .string() .describe(…)`.
    for (const m of schema.matchAll(/([A-Za-z_$][\w$]*)\s*:\s*z\s*\.[^,}]{0,200}?\.describe\(\s*(['"`])((?:(?!\2)[^\\]|\\.)*)\2/g)) out.push({ name: m[1]!, description: m[3]! });
  }
  return out;
}
