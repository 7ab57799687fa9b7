import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

/**
 * Prompts a user picks in their client (docs/mcp.md, "Prompts"): each asks the agent to consult
 * Vigil at the moment the risk is taken, and says what to do with each answer.
 */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'before_adding_dependency',
    {
      title: 'Before adding a dependency',
      description: 'Check a package with Vigil before adding it, and act on the verdict',
      argsSchema: { package: z.string().describe('The package to add: npm:<name>@<version>, pypi:<name>@<version> or a purl') },
    },
    ({ package: ref }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Before adding ${ref} as a dependency, call the check_package tool with package "${ref}" (pin the exact version you will install).`,
              '- advice proceed (ALLOW): add it.',
              '- advice review (WARN): call explain_verdict, show me the findings, and ask me before adding it.',
              '- advice do_not_install (BLOCK): do not add it; propose another version or package and check that one too.',
              '- advice unknown (pending): do not assume it is safe; tell me, and offer to wait or to pick a package Vigil has decided.',
              'If the tool reports that the Vigil API cannot be reached, stop and tell me: do not install unchecked.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    'before_adding_mcp_server',
    {
      title: 'Before adding an MCP server',
      description: 'Check an MCP server (a package or a local directory) with Vigil before adding it to the client configuration',
      argsSchema: { server: z.string().describe('The MCP server: an npm/PyPI package reference, or a local directory path') },
    },
    ({ server: what }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Before adding the MCP server ${what} to any MCP configuration, call check_mcp_server: with package "${what}" if it is a package reference, or with path "${what}" if it is a local directory or archive.`,
              'Add it only when the advice is proceed. On review, show me the findings and ask. On do_not_install or unknown, do not add it and tell me why.',
            ].join('\n'),
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    'audit_lockfile',
    {
      title: 'Audit a lockfile',
      description: "Check every package of the project's lockfile with Vigil",
      argsSchema: { file_name: z.string().describe('The lockfile to audit, e.g. package-lock.json or uv.lock') },
    },
    ({ file_name }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Read ${file_name} and call check_packages with lockfile {file_name: "${file_name}", content: <its text>}. List every package whose advice is not proceed, with why (call explain_verdict for the blocked ones), and propose a fix for each blocked package.`,
          },
        },
      ],
    }),
  );
}
