// @vigil/mcp: Vigil's MCP server (docs/mcp.md).
export { createVigilMcpServer, API_ATTEMPT_TIMEOUT_MS, API_MAX_RETRIES, API_RETRY_BUDGET_MS, CALL_DEADLINE_MS } from './vigil-mcp-server.js';
export type { VigilMcpOptions } from './vigil-mcp-server.js';
export { serveStdio } from './serve-stdio.js';
export type { StdioServeOptions } from './serve-stdio.js';
export { LineStdioTransport } from './line-stdio-transport.js';
export { SCAN_DIR_PREFIX, STALE_SCAN_DIR_MS } from './local-scan.js';
export { serveHttp, isLoopbackHost, DEFAULT_MCP_HTTP_PORT, HTTP_CLOSE_GRACE_MS, MCP_HTTP_PATH } from './serve-http.js';
export type { HttpMcpServer, HttpServeOptions } from './serve-http.js';
export {
  ADVICE,
  CheckMcpServerOutput,
  CheckPackageOutput,
  CheckPackagesOutput,
  CheckSkillOutput,
  ExplainVerdictOutput,
  MAX_CHECK_PACKAGES,
  MAX_EXPLAINED_ATTESTATIONS,
  MAX_EXPLAINED_FINDINGS,
  MAX_LOCKFILE_CHARS,
  MAX_MESSAGE_BYTES,
  PackageCheck,
  LocalScan,
} from './schemas.js';
export type { Advice } from './schemas.js';
export { VERSION } from './version.js';
