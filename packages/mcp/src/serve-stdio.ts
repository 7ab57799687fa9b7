import { removeRunningScanDirs, scansRunning, sweepStaleScanDirs } from './local-scan.js';
import { LineStdioTransport } from './line-stdio-transport.js';
import { MAX_MESSAGE_BYTES } from './schemas.js';
import { createVigilMcpServer, type VigilMcpOptions } from './vigil-mcp-server.js';

/** How long SIGTERM/SIGINT waits for running scans to stop their agent and remove their files. */
const SHUTDOWN_GRACE_MS = 5_000;

export interface StdioServeOptions extends VigilMcpOptions {
  /** Where skipped input is reported (a line each); default: this process's stderr. */
  log?: (line: string) => void;
}

/**
 * Serves the MCP server over this process's standard input and output (the transport an MCP client
 * spawning `vigil mcp` uses). Resolves when the client closes the connection (end of stdin).
 * Nothing else may write to stdout: it carries the protocol.
 * On SIGTERM or SIGINT (how clients stop a stdio server) the calls in flight are aborted, running
 * scans stop their agent and remove their temporary directory (at most SHUTDOWN_GRACE_MS), and the
 * process exits 130 (as `vigil scan` on Ctrl-C). Scan directories a killed server left (SIGKILL) are swept at start.
 */
export async function serveStdio(options: StdioServeOptions): Promise<void> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const shutdown = new AbortController();
  void sweepStaleScanDirs();
  const server = createVigilMcpServer({ ...options, signal: shutdown.signal });
  server.server.onerror = (err) => log(`vigil: mcp: ${err.message}`);
  const transport = new LineStdioTransport(process.stdin, process.stdout, MAX_MESSAGE_BYTES);

  const stopScans = async () => {
    shutdown.abort();
    const until = Date.now() + SHUTDOWN_GRACE_MS;
    while (scansRunning() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    removeRunningScanDirs();
  };
  const onSignal = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    void stopScans().finally(() => process.exit(130));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  // The client is gone: nobody reads the answers of the calls still running.
  await stopScans();
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  await server.close();
}
