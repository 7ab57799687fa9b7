import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { HandlerEffect } from './handler-effect.js';
import type { McpTool } from './mcp-tool.js';
import { WELL_KNOWN_TOOLS } from './tool-behaviour-findings.js';

// Tools of well-known servers whose job is to read or show, never to write content: any file they
// put content into is a copy of what they read.
const READS_ONLY = /^(?:read|list|search|get|show|view|find|directory|git_(?:status|diff|log|show))/;
// A description that says the tool keeps what it handles: a journal, a cache, a history, a backup.
const SAYS_IT_KEEPS = /\b(?:log(?:s|ged|ging)?|journal\w*|cach\w+|histor(?:y|ies)|backs?\s*up|backup|audit\w*|record\w*|cop(?:y|ies)|snapshot\w*|track\w*|index(?:es|ed|ing)?|sav(?:e|es|ed|ing)|stor(?:e|es|ed|ing)|persist\w*|memor(?:y|ize))\b/i;
// The server configures a logger that writes a file (not the console, which the client shows).
const LOG_FILE = /\b(?:(?:Rotating|TimedRotating|Watched)?FileHandler\s*\(|basicConfig\s*\([^)]*\bfilename\s*=|transports\.File\b|pino\.destination\s*\(|createWriteStream\s*\(|new\s+File(?:Transport)?\s*\(|(?:file|filename|logfile|log_file|logFile)\s*[:=]\s*['"`])/;
// A path the user does not see: a hidden name (a dot after a quote or a separator), the home
// directory, a temporary directory.
const HIDDEN_OR_OUTSIDE = /["'`/\\]\.(?![./\\])[\w-]|\b(?:homedir\s*\(|Path\.home\s*\(|expanduser\s*\(|os\.tmpdir\s*\(|tempfile\.gettempdir\s*\(|gettempdir\s*\()|["'`](?:~|\/tmp|\/var\/tmp|\/dev\/shm|\$HOME|%APPDATA%|%TEMP%)/;

/**
 * A server impersonating another server's tools that mirrors what they handle (class of Invariant
 * Labs' cross-server shadowing; a `read_file` that really reads the file and returns it, and keeps
 * a copy): a tool named like a well-known server's tool (read_file, write_file, list_directory,
 * search_files, the git tools …) whose handler, besides its own job, writes the content or the
 * paths it handled into a file it chose (a read-only tool writing content at all, a write tool
 * writing it twice or to a fixed place), or hands them to a logger the server points at a hidden or
 * outside file, and
 * whose description says nothing of keeping them. CRIT when that file is hidden or outside the
 * project (a dot-name, the home or a temporary directory); the network form is
 * `tool named like another server's tool sends what it reads to the network`.
 */
export function mirroringFindings(tool: McpTool, effects: readonly HandlerEffect[], text: string): AgentFinding[] {
  if (tool.kind !== 'tool' || !WELL_KNOWN_TOOLS.has(tool.name)) return [];
  if (SAYS_IT_KEEPS.test(tool.description)) return [];
  const of = (kind: HandlerEffect['kind']) => effects.filter((e) => e.kind === kind);
  const ownJob = of('file-read').length > 0 || of('process').some((e) => e.fromInput) || of('file-write').some((e) => e.fromInput);
  if (!ownJob) return [];
  const stored = of('stored-input');
  // Lines where the tool writes to a path it was given (its own job), for a write tool.
  const ownWrites = new Set(of('file-write').filter((e) => e.fromInput).map((e) => e.line));
  const fixedWrites = of('file-write').filter((e) => !e.fromInput);
  // A file copied whole (`shutil.copy(path, STASH)`, `fs.copyFile(p, dest)`) is a copy of what was read.
  const copied = of('file-write').find((e) => /\bcopy(?:file|2|tree)?\s*\(|\bcopyFile(?:Sync)?\s*\(|\bcp(?:Sync)?\s*\(/.test(e.evidence));
  const copy = READS_ONLY.test(tool.name)
    ? (stored[0] ?? copied)
    : (stored.find((e) => !ownWrites.has(e.line) || fixedWrites.some((w) => Math.abs(w.line - e.line) <= 3)) ?? (stored.length > 1 ? stored[1] : undefined));
  // A log counts when the file it writes is hidden or outside the project (`/var/tmp/.x.log`, the home
  // directory); `pino.destination(2)` is stderr, `./logs/app.log` the project's own log.
  const logFiles = [...text.matchAll(new RegExp(LOG_FILE.source, 'g'))].map((m) => text.slice(m.index, m.index + m[0].length + 160));
  const logged = logFiles.some((f) => HIDDEN_OR_OUTSIDE.test(f)) ? of('logged-input')[0] : undefined;
  const effect = copy ?? logged;
  if (effect === undefined) return [];
  const hidden = HIDDEN_OR_OUTSIDE.test(text);
  return [
    referenceFinding({
      category: 'exfiltration',
      severity: hidden ? 'CRIT' : 'HIGH',
      title: hidden ? 'tool named like another server\'s tool keeps a copy of what it handles in a hidden or outside file' : 'tool named like another server\'s tool keeps a copy of what it handles in a file of its own',
      file: tool.file,
      line: effect.line,
      evidence: `${tool.name}: ${effect.evidence}`.slice(0, 300),
    }),
  ];
}
