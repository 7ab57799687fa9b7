import { editDistance } from './typosquat.js';

/**
 * Packages of widely used MCP servers, as `.mcp.json` files and plugin manifests start them (`npx -y
 * <name>`, `uvx <name>`): the reference servers of the MCP organisation and vendors' official servers.
 * A config that starts a name one letter away from one of these gets whatever that name resolves to,
 * with the arguments and credentials meant for the real server (typosquatted MCP servers, 2025).
 */
export const KNOWN_MCP_SERVER_PACKAGES: Readonly<Record<'npm' | 'pypi', readonly string[]>> = {
  npm: [
    '@modelcontextprotocol/server-filesystem', '@modelcontextprotocol/server-memory', '@modelcontextprotocol/server-github',
    '@modelcontextprotocol/server-gitlab', '@modelcontextprotocol/server-everything', '@modelcontextprotocol/server-sequential-thinking',
    '@modelcontextprotocol/server-puppeteer', '@modelcontextprotocol/server-brave-search', '@modelcontextprotocol/server-google-maps',
    '@modelcontextprotocol/server-slack', '@modelcontextprotocol/server-postgres', '@modelcontextprotocol/server-gdrive',
    '@modelcontextprotocol/server-redis', '@modelcontextprotocol/server-everart', '@modelcontextprotocol/server-aws-kb-retrieval',
    '@modelcontextprotocol/inspector', '@playwright/mcp', '@upstash/context7-mcp', '@notionhq/notion-mcp-server',
    '@supabase/mcp-server-supabase', '@sentry/mcp-server', '@cloudflare/mcp-server-cloudflare', '@stripe/mcp', '@browsermcp/mcp',
    '@azure/mcp', '@heroku/mcp-server', '@shopify/dev-mcp', '@wonderwhy-er/desktop-commander', 'mcp-remote', 'firecrawl-mcp',
    'chrome-devtools-mcp', 'figma-developer-mcp', '@executeautomation/playwright-mcp-server',
  ],
  pypi: ['mcp-server-git', 'mcp-server-fetch', 'mcp-server-time', 'mcp-server-sqlite', 'mcp-server-sentry', 'awslabs.aws-documentation-mcp-server', 'serena'],
};

function parts(name: string): { scope: string; bare: string } {
  const lower = name.toLowerCase();
  if (!lower.startsWith('@') || !lower.includes('/')) return { scope: '', bare: lower };
  return { scope: lower.slice(1, lower.indexOf('/')), bare: lower.slice(lower.indexOf('/') + 1) };
}

const squash = (s: string) => s.replace(/[-_.]+/g, '');
/** Equal, equal without separators, or (both five characters or longer) one edit apart. */
function near(a: string, b: string): boolean {
  return a === b || squash(a) === squash(b) || (a.length >= 5 && b.length >= 5 && editDistance(a, b, 1) <= 1);
}

/**
 * The well-known MCP server package a name imitates, or null: a bare name one edit away within the
 * same scope (`@modelcontextprotocol/server-filesytem`), a look-alike scope with the same or a near
 * bare name (`@modelcontextprotoco1/server-filesystem`), or an unscoped name one edit away
 * (`mcp-remotes`). A known name itself is never one.
 */
export function mcpServerLookalike(name: string, ecosystem: 'npm' | 'pypi'): string | null {
  const own = parts(name);
  const list = KNOWN_MCP_SERVER_PACKAGES[ecosystem];
  if (list.some((k) => k.toLowerCase() === name.toLowerCase())) return null;
  for (const known of list) {
    const k = parts(known);
    if (own.scope !== k.scope && !(own.scope !== '' && k.scope !== '' && near(own.scope, k.scope))) continue;
    if (near(own.bare, k.bare)) return known;
  }
  return null;
}
