import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MAX_MESSAGE_BYTES } from './schemas.js';
import { createVigilMcpServer, type VigilMcpOptions } from './vigil-mcp-server.js';

/**
 * Serves the MCP server over this process's standard input and output (the transport an MCP client
 * spawning `vigil mcp` uses). Resolves when the client closes the connection (end of stdin).
 * Nothing else may write to stdout: it carries the protocol.
 */
export async function serveStdio(options: VigilMcpOptions): Promise<void> {
  const server = createVigilMcpServer(options);
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
