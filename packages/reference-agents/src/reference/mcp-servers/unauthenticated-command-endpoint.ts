/**
 * A local MCP HTTP server that anyone on the network (or any web page, through the browser) can make
 * run a command: it binds every interface, checks no credential, and starts a process from the
 * request. MCP Inspector's proxy (CVE-2025-49596, fixed in 0.14.1) listened on 0.0.0.0 with no
 * session token and spawned the `command` of its `/sse?transportType=stdio&command=…` query; servers
 * exposing a shell tool over HTTP on 0.0.0.0 with no auth are the same hole. Binding 0.0.0.0 alone is
 * ordinary (containers), and so is a shell tool over stdio: only the three together are reported.
 * Read per file, on the text: the listen call, the auth checks and the request fields near the
 * process call are in the module that serves the route.
 */
import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { InputToProcess } from './server-code-findings.js';

/** Listening on every interface, spelled out (`listen(port, '0.0.0.0')`, `host: "0.0.0.0"`, `host="::"`, a HOST default). */
const ALL_INTERFACES = /\.listen\s*\([^)]*['"](?:0\.0\.0\.0|::)['"]|\bhost(?:name)?\s*[:=]\s*(?:[\w.]+\s*(?:\|\||\?\?|or)\s*)?['"](?:0\.0\.0\.0|::)['"]|--host[= ]0\.0\.0\.0/;
/** Any check of a credential: headers, tokens, keys, auth middleware, constant-time comparison. */
const AUTH_CHECK = /\bauthori[sz]ation\b|\bbearer\b|\bauth[_-]?token\b|\bapi[_-]?key\b|x-api-key|\bsession[_-]?token\b|\bauthenticate\b|\brequireAuth\b|\bauthMiddleware\b|\bpassport\b|\bjwt\b|\bbasicAuth\b|timingSafeEqual|compare_digest|\bverify_?token\b|\bOAuth\w*Provider\b|\brequireBearerAuth\b|\bsecret\b/i;
/** Fields of an HTTP request a handler reads. */
const REQUEST_INPUT = /\breq(?:uest)?\.(?:query|body|params)\b|\bsearchParams\.get\s*\(|\brequest\.(?:args|form|query_params|path_params|json)\b|\bawait\s+req(?:uest)?\.json\s*\(/;
/** Starting a process or an MCP stdio transport (which spawns its `command`). */
const PROCESS_CALL = /\b(?:spawn|spawnSync|exec|execSync|execFile|execFileSync|execa|fork)\s*\(|\bnew\s+StdioClientTransport\s*\(|\bsubprocess\.(?:run|Popen|call|check_output|check_call)\s*\(|\bos\.(?:system|popen)\s*\(|\bcreate_subprocess_(?:shell|exec)\s*\(/;
/** An MCP server transport served over HTTP. */
const HTTP_TRANSPORT = /\b(?:StreamableHTTPServerTransport|SSEServerTransport)\b|transport\s*=\s*['"](?:sse|streamable-http|http)['"]|\.(?:sse_app|streamable_http_app)\s*\(/;

/** The finding for such an endpoint in one file, or null. */
export function unauthenticatedCommandEndpointFinding(file: string, text: string, inputToProcess: InputToProcess): AgentFinding | null {
  if (!ALL_INTERFACES.test(text) || AUTH_CHECK.test(text)) return null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!PROCESS_CALL.test(lines[i] ?? '')) continue;
    // The request's fields read in the lines that build the call (a handler is short).
    const around = lines.slice(Math.max(0, i - 8), i + 1).join('\n');
    if (REQUEST_INPUT.test(around)) {
      return referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: 'server listens on all interfaces without authentication and starts a process from the request', file, line: i + 1, evidence: (lines[i] ?? '').trim().slice(0, 200) });
    }
  }
  // A tool whose input reaches a process, served over HTTP on every interface with no credential.
  if (HTTP_TRANSPORT.test(text)) {
    const own = [...inputToProcess.entries()].find(([k]) => k.startsWith(`${file}:`));
    if (own !== undefined) {
      const line = Number(own[0].slice(file.length + 1));
      return referenceFinding({ category: 'remote_code_execution', severity: 'HIGH', title: 'server exposes a command-running tool over HTTP on all interfaces without authentication', file, line, evidence: `tool ${own[1].tool}` });
    }
  }
  return null;
}
