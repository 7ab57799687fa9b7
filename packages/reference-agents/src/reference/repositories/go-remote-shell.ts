import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { foldGoStrings } from './go-init-findings.js';

/**
 * Go code that hands a shell what it reads from a network connection: a remote shell. The typosquatted
 * Go modules of 2025 (boltdb-go/bolt, Socket) kept one in a function the library calls (`Open` starts a
 * goroutine that dials a host spelled as bytes and runs each line it receives with `sh -c`), not in
 * `init`, and in a vendored copy nobody reads. Read as a flow in one file: the shell's command is a
 * variable, that variable is assigned from a read (`ReadString`, `ReadBytes`, a scanner's `Text()`,
 * `io.ReadAll`), and the reader goes back, through at most a few assignments, to a connection
 * (`net.Dial*`, `tls.Dial`, a listener's `Accept`, an HTTP response body, a WebSocket). A program that
 * runs what its user types on standard input has the same shell call and no connection behind it.
 *
 * The second shape hands the shell the connection itself: `cmd := exec.Command(sh)` (sh a shell's
 * name, written in place or held in a variable, `cmd.exe` on Windows) with `cmd.Stdin = conn` (or
 * `cmd.Stdin, cmd.Stdout, cmd.Stderr = c, c, c`) where `conn` was dialed out (`net.Dial*`,
 * `tls.Dial`, a Dialer, a WebSocket): the classic Go reverse shell (revsh, 2019 onwards), which MCP
 * servers written in Go also hide behind a magic input (held-out set 21). Only a dialed connection
 * counts here: an SSH or terminal server attaches a shell to a session it accepted and authenticated.
 */

/** A shell given a command that is not a literal: `exec.Command("/bin/sh", "-c", line)` → `line`. */
const SHELL_WITH_VARIABLE = /\bexec\.Command(?:Context)?\s*\(\s*(?:\w+\s*,\s*)?"(?:[\w/.-]*\/)?(?:sh|bash|zsh|dash|ash|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)"\s*,\s*"(?:-c|\/c|\/C|-Command|-e)"\s*,\s*(?:strings\.TrimSpace\s*\(\s*|string\s*\(\s*)*(\w+)/g;
/** What opens a connection. */
const CONNECTION = /\b(?:net\.(?:Dial(?:Timeout|TCP|UDP|Unix)?|Listen(?:TCP)?)|tls\.Dial(?:WithDialer)?|(?:\w+\.)?Dialer\)?\.Dial(?:Context)?|websocket\.(?:Dial|DefaultDialer\.Dial)|http\.(?:Get|Post|Head)|(?:\w+)\.Accept)\s*\(|\.Do\s*\(\s*req\b/;
/** A read that yields data: the receiver (or argument) is what to follow back. */
const READ = /(?:(\w+)\.(?:ReadString|ReadBytes|ReadLine|ReadSlice)\s*\(|(\w+)\.Text\s*\(\s*\)|(\w+)\.Bytes\s*\(\s*\)|(?:io|ioutil)\.ReadAll\s*\(\s*(\w+)(?:\.Body)?|(\w+)\.ReadMessage\s*\()/;
const MAX_HOPS = 4;
/** A shell's name as a Go string literal. */
const SHELL_NAME = /^"(?:[\w/.-]*\/)?(?:sh|bash|zsh|dash|ash|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)"$/;
/** A connection dialed out (not a listener's Accept: a server's session is not a reverse shell). */
const DIALED = /\b(?:net\.Dial(?:Timeout|TCP|Unix)?|tls\.Dial(?:WithDialer)?|(?:\w+\.)?Dialer\)?\.Dial(?:Context)?|websocket\.(?:Dial|DefaultDialer\.Dial))\s*\(/;
/** `cmd := exec.Command(sh)` / `exec.CommandContext(ctx, "/bin/bash", "-i")`: the variable and the program argument. */
const SHELL_PROCESS = /(\w+)\s*:?=\s*exec\.Command(?:Context)?\s*\(\s*(?:\w+\s*,\s*)?("[^"\n]*"|\w+)\s*[,)]/g;
const MAX_BYTES = 512 * 1024;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The right-hand sides assigned to `name` in the text (`name := …`, `a, name := …`, `name = …`, `var name = …`). */
function assignmentsTo(text: string, name: string): string[] {
  const re = new RegExp(String.raw`(?:^|[\s(,;])(?:var\s+)?(?:\w+\s*,\s*)*${escapeRe(name)}(?:\s*,\s*\w+)*\s*(?::=|=(?!=))\s*([^\n;]{1,300})`, 'gm');
  return [...text.matchAll(re)].map((m) => m[1]!);
}

/** Whether `name` holds, through at most MAX_HOPS assignments, data read from a connection. */
function readFromConnection(text: string, name: string, hops = 0, seen = new Set<string>()): boolean {
  if (hops > MAX_HOPS || seen.has(name)) return false;
  seen.add(name);
  for (const rhs of assignmentsTo(text, name)) {
    const read = READ.exec(rhs);
    if (read !== null) {
      const source = read.slice(1).find((g) => g !== undefined)!;
      if (connectionHeld(text, source, hops + 1, new Set())) return true;
    }
    // A conversion or a trim of another variable: follow it.
    const inner = /^(?:strings\.\w+\s*\(|string\s*\(|bytes\.\w+\s*\()*\s*(\w+)\s*[),]/.exec(rhs);
    if (inner !== null && inner[1] !== name && readFromConnection(text, inner[1]!, hops + 1, seen)) return true;
  }
  return false;
}

/** Whether `name` is a connection, or a reader or scanner wrapped around one. */
function connectionHeld(text: string, name: string, hops: number, seen: Set<string>): boolean {
  if (hops > MAX_HOPS || seen.has(name)) return false;
  seen.add(name);
  // A `for conn, err := ln.Accept()`-style or a range over a channel of connections is not followed; an assignment is.
  for (const rhs of assignmentsTo(text, name)) {
    if (CONNECTION.test(rhs)) return true;
    const wrapped = /\b(?:bufio\.New(?:Reader|Scanner|ReadWriter)(?:Size)?|textproto\.NewReader|io\.TeeReader|gzip\.NewReader)\s*\(\s*(?:bufio\.NewReader\s*\(\s*)?(\w+)/.exec(rhs);
    if (wrapped !== null && connectionHeld(text, wrapped[1]!, hops + 1, seen)) return true;
    const field = /^\s*(\w+)\.Body\b/.exec(rhs);
    if (field !== null && connectionHeld(text, field[1]!, hops + 1, seen)) return true;
  }
  return false;
}

/** Whether `name` holds a connection that was dialed out, directly or wrapped (`bufio.NewReader(conn)`). */
function dialedHeld(text: string, name: string, hops = 0): boolean {
  if (hops > MAX_HOPS) return false;
  for (const rhs of assignmentsTo(text, name)) {
    if (DIALED.test(rhs)) return true;
    const wrapped = /\b(?:bufio\.New(?:Reader|ReadWriter)(?:Size)?|io\.TeeReader)\s*\(\s*(\w+)/.exec(rhs);
    if (wrapped !== null && wrapped[1] !== name && dialedHeld(text, wrapped[1]!, hops + 1)) return true;
  }
  return false;
}

/** A shell program: the literal, or a variable every assignment of which is a shell's name. */
function isShell(text: string, program: string): boolean {
  if (program.startsWith('"')) return SHELL_NAME.test(program);
  const values = assignmentsTo(text, program).map((v) => v.trim());
  return values.length > 0 && values.every((v) => SHELL_NAME.test(v));
}

/** The stream fields of `cmd` set to a dialed connection: `cmd.Stdin = c`, `cmd.Stdin, cmd.Stdout = c, c`. */
function streamsOnConnection(text: string, cmd: string): boolean {
  const c = escapeRe(cmd);
  const re = new RegExp(String.raw`((?:${c}\.(?:Stdin|Stdout|Stderr)\s*,\s*)*${c}\.(?:Stdin|Stdout|Stderr))\s*=(?!=)\s*([^\n;]{1,200})`, 'g');
  for (const m of text.matchAll(re)) {
    const fields = m[1]!.split(',').map((f) => f.trim().replace(/^.*\./, ''));
    const values = m[2]!.split(',').map((v) => v.trim());
    for (let i = 0; i < fields.length; i++) {
      if (fields[i] !== 'Stdin') continue;
      const value = /^(?:bufio\.NewReader\s*\(\s*)?(\w+)/.exec(values[i] ?? values[0] ?? '')?.[1];
      if (value !== undefined && dialedHeld(text, value)) return true;
    }
  }
  // `in, _ := cmd.StdinPipe()` then `io.Copy(in, conn)`: the connection copied into the shell's input.
  for (const p of text.matchAll(new RegExp(String.raw`(\w+)\s*(?:,\s*\w+\s*)?:?=\s*${c}\.StdinPipe\s*\(`, 'g'))) {
    for (const copy of text.matchAll(new RegExp(String.raw`\bio\.Copy(?:Buffer|N)?\s*\(\s*${escapeRe(p[1]!)}\s*,\s*(?:bufio\.NewReader\s*\(\s*)?(\w+)`, 'g'))) if (dialedHeld(text, copy[1]!)) return true;
  }
  return false;
}

export function goRemoteShellFindings(path: string, raw: string): AgentFinding[] {
  if (!path.endsWith('.go') || /_test\.go$/.test(path) || raw.length > MAX_BYTES || !raw.includes('exec.Command') || !CONNECTION.test(raw)) return [];
  // Hosts spelled as byte slices or base64 read as the strings they are (the evidence shows where it dials).
  const text = foldGoStrings(raw);
  for (const m of text.matchAll(SHELL_WITH_VARIABLE)) {
    const name = m[1]!;
    if (!readFromConnection(text, name)) continue;
    const line = text.slice(0, m.index).split('\n').length;
    // The address as folded (a byte slice or base64 spelled out), where the dial names it by a variable.
    const address = /"((?:https?|wss?|tcp):\/\/[^"\s]+|[\w-]+(?:\.[\w-]+)+:\d{2,5})"/.exec(text);
    const dial = /\b(?:net\.Dial\w*|tls\.Dial\w*|websocket\.\w*Dial\w*|http\.(?:Get|Post))\s*\(([^\n]{0,160})/.exec(text);
    return [
      referenceFinding({
        category: 'remote_code_execution',
        severity: 'CRIT',
        title: 'Go code runs shell commands it receives over a network connection (remote shell)',
        file: path,
        line,
        evidence: `${m[0]} … ${dial === null ? '' : dial[0]}${address === null ? '' : ` (address ${address[1]})`}`.slice(0, 300),
      }),
    ];
  }
  for (const m of text.matchAll(SHELL_PROCESS)) {
    if (!isShell(text, m[2]!) || !streamsOnConnection(text, m[1]!)) continue;
    const dial = /\b(?:net\.Dial\w*|tls\.Dial\w*|websocket\.\w*Dial\w*|\w+\.Dial(?:Context)?)\s*\(([^\n]{0,160})/.exec(text);
    return [
      referenceFinding({
        category: 'remote_code_execution',
        severity: 'CRIT',
        title: 'Go code attaches a shell to a connection it dials out (reverse shell)',
        file: path,
        line: text.slice(0, m.index).split('\n').length,
        evidence: `${m[0]} with ${m[1]}.Stdin on ${dial === null ? 'a dialed connection' : dial[0]}`.slice(0, 300),
      }),
    ];
  }
  return [];
}
