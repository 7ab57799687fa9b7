import { Option, type Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { intArg } from '../context.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';

interface McpOptions {
  http?: boolean;
  port?: number;
  host?: string;
}

/** @vigil/mcp (the MCP SDK, the agent sandbox) is loaded only when `vigil mcp` runs. */
const loadMcp = () => import('@vigil/mcp');

/** `vigil mcp`: Vigil's MCP server for AI agents, over stdio or Streamable HTTP (docs/mcp.md). */
export function registerMcp(program: Command, kit: Kit): void {
  examples(
    program
      .command('mcp')
      .description("runs Vigil's MCP server for AI coding agents (tools check_package, check_packages, check_mcp_server, check_skill, explain_verdict): over stdio, or Streamable HTTP with --http (docs/mcp.md)")
      .option('--http', 'serve Streamable HTTP on http://<host>:<port>/mcp instead of stdio')
      .addOption(new Option('--port <n>', 'with --http: the port (default 8765; 0 picks a free one)').argParser(intArg('--port', 0, 65_535)))
      .option('--host <host>', 'with --http: the address to bind (default 127.0.0.1; any other than a loopback address needs VIGIL_MCP_HTTP_TOKEN)')
      .action(
        action(kit, async (ctx, opts: McpOptions) => {
          if (opts.http !== true && (opts.port !== undefined || opts.host !== undefined)) throw new UsageError(`${opts.port !== undefined ? '--port' : '--host'}: only with --http`);
          const { baseUrl, token } = await ctx.connect();
          // A malformed token or base URL is refused now, exit 2, as every other command refuses it,
          // not answered as an error on each tool call. A base URL with credentials would be
          // quoted in the tools' fault messages: refused without echoing it.
          if (URL.canParse(baseUrl)) {
            const url = new URL(baseUrl);
            if (url.username !== '' || url.password !== '') throw new UsageError('base URL (--base-url, VIGIL_BASE_URL): must not carry credentials (user:password@)');
          }
          await ctx.vigil();
          const mcp = await loadMcp();
          const options = { baseUrl, apiKey: token, userAgent: 'vigil-cli-mcp' };
          if (token === null) ctx.io.stderr('vigil: warning: no API token (--token, VIGIL_API_TOKEN, VIGIL_API_KEY or vigil login): only check_skill and check_mcp_server with a path will work\n');
          if (opts.http !== true) {
            // stdout carries the protocol from here on: every message of this command goes to stderr.
            await mcp.serveStdio(options);
            return EXIT.ok;
          }
          const httpToken = ctx.io.env.VIGIL_MCP_HTTP_TOKEN?.trim() || null;
          let served;
          try {
            served = await mcp.serveHttp({ ...options, host: opts.host ?? '127.0.0.1', port: opts.port ?? mcp.DEFAULT_MCP_HTTP_PORT, token: httpToken });
          } catch (err) {
            const code = (err as NodeJS.ErrnoException).code;
            if (code === 'EADDRINUSE') throw new CliError(`--port: ${opts.port ?? mcp.DEFAULT_MCP_HTTP_PORT} is in use (pass --port, or --port 0 for a free one)`);
            if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`--host: cannot bind ${opts.host}: ${code}`);
            if (code === undefined) throw new UsageError((err as Error).message);
            throw err;
          }
          ctx.io.stderr(`vigil: MCP server (Streamable HTTP) on ${served.url}${httpToken ? ', bearer token required' : ''}; verdicts from ${baseUrl}; Ctrl-C stops it\n`);
          if (ctx.io.interrupted) await ctx.io.interrupted();
          await served.close();
          return EXIT.ok;
        }),
      ),
    ['vigil mcp', 'vigil mcp --http', 'vigil mcp --http --port 9000', 'VIGIL_MCP_HTTP_TOKEN=… vigil mcp --http --host 0.0.0.0'],
  );
}
