import type { McpTool } from './mcp-tool.js';

const LISTS: ReadonlyArray<[string, McpTool['kind']]> = [
  ['tools', 'tool'],
  ['prompts', 'prompt'],
  ['resources', 'resource'],
  ['resourceTemplates', 'resource'],
];

/** Static manifests that list an MCP server's tools (`mcp.json`, `server.json`, `tools.json`, `manifest.json`, …). */
export const MANIFEST_FILE = /(?:^|\/)(?:mcp|server|tools|manifest|smithery|mcp-manifest|dxt)\.json$/i;

function lineOf(text: string, needle: string, from = 0): number {
  const at = text.indexOf(needle, from);
  if (at < 0) return 1;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Tools, prompts and resources listed in a JSON manifest: any `tools`/`prompts`/`resources` array of objects with a `name`. */
export function manifestTools(file: string, text: string): McpTool[] {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return [];
  }
  const tools: McpTool[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 8 || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const [key, kind] of LISTS) {
      const list = record[key];
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        if (typeof item !== 'object' || item === null || typeof (item as { name?: unknown }).name !== 'string') continue;
        const entry = item as Record<string, unknown>;
        const name = entry.name as string;
        const description = typeof entry.description === 'string' ? entry.description : '';
        const line = lineOf(text, JSON.stringify(name));
        const schema = entry.inputSchema ?? entry.input_schema ?? entry.parameters ?? entry.arguments ?? (kind === 'resource' ? (entry.uri ?? entry.uriTemplate ?? null) : null);
        const descriptionLine = description === '' ? line : lineOf(text, '"description"', text.indexOf(JSON.stringify(name)));
        // A round trip turns what canonical JSON refuses (1e400 → Infinity) into null.
        const inputSchema: unknown = schema === undefined || schema === null ? null : JSON.parse(JSON.stringify(schema));
        tools.push({ kind, name, description, inputSchema, file, line, descriptionLine });
      }
    }
    // One tool on its own (a schema file the code loads and lists: `{ name, description, inputSchema }`).
    const single = record.inputSchema ?? record.input_schema;
    if (typeof record.name === 'string' && typeof single === 'object' && single !== null && !LISTS.some(([k]) => Array.isArray(record[k]))) {
      const name = record.name;
      const description = typeof record.description === 'string' ? record.description : '';
      const line = lineOf(text, JSON.stringify(name));
      tools.push({ kind: 'tool', name, description, inputSchema: JSON.parse(JSON.stringify(single)), file, line, descriptionLine: description === '' ? line : lineOf(text, '"description"', text.indexOf(JSON.stringify(name))) });
      return;
    }
    for (const [key, v] of Object.entries(record)) if (!LISTS.some(([k]) => k === key)) visit(v, depth + 1);
  };
  visit(root, 0);
  return tools;
}
