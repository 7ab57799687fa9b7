import { canonicalHash } from '@vigil/core';
import type { McpTool } from './mcp-tool.js';

/**
 * sha256 of the RFC 8785 canonical JSON of what the server tells a model about itself: every tool,
 * prompt and resource as `{kind, name, description, input_schema}`, sorted. File names and lines
 * are left out, so moving code does not change it; any change of a name, description or schema
 * does (a "rug pull" that rewrites descriptions after approval).
 */
export function toolManifestHash(tools: readonly McpTool[]): string {
  const entries = tools
    .map((t) => ({ kind: t.kind, name: t.name, description: t.description, input_schema: t.inputSchema ?? null }))
    .sort((a, b) => (a.kind + '\u0000' + a.name + '\u0000' + a.description < b.kind + '\u0000' + b.name + '\u0000' + b.description ? -1 : 1));
  return canonicalHash(entries);
}
