import type { AgentFinding } from '@vigil/core';
import { sharedJavascriptFacts } from '../code/javascript/shared-facts.js';
import { referenceFinding } from '../common/reference-finding.js';
import { reverseShellCall } from '../packages/code-findings.js';

// Cheap pre-filter: a socket API and a process API both named in the file.
const SOCKET_WORD = /\b(?:net|tls)\b|\bSocket\b|createConnection/;
const PROCESS_WORD = /\bspawn\b|\bexec(?:File)?\b|child_process/;

/**
 * A reverse shell written with APIs rather than a command line, in a server's own code: a shell
 * process whose stdin/stdout are piped to a socket the server opens (`net.connect(…)` +
 * `sock.pipe(sh.stdin)`, `sh.stdout.pipe(sock)`). A command-runner server runs commands its client
 * sends; handing an interactive shell to a host nobody configured is not that (issue 24, sixth round).
 */
export function socketShellFinding(file: string, text: string): AgentFinding | null {
  if (text.length > 2_000_000 || !SOCKET_WORD.test(text) || !PROCESS_WORD.test(text) || !/\.pipe\s*\(/.test(text)) return null;
  const shell = reverseShellCall(sharedJavascriptFacts(text));
  if (shell === null) return null;
  return referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: 'server code opens a reverse shell', file, line: shell.line, evidence: `${shell.callee}(${shell.args[0] ?? ''}) piped to a socket` });
}
