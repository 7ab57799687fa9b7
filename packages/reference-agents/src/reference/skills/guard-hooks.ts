import type { AgentFinding } from '@vigil/core';

/**
 * (round s31b, in-sample for held-out set 32) Two readings for skills that set up a coding agent's hooks in
 * the user's project: a guard hook that matches dangerous commands to refuse them, and hooks written into the
 * project's own `.claude/` folder, shipped and documented by the skill and installed after the user agrees.
 */

// A guard refusing what it matches: "which blocks `rm -rf /`", "denies", "rejects", a deny or block list.
const GUARD_VERB = /\b(?:block(?:s|ed|ing)?|den(?:y|ies|ied|ying)|reject(?:s|ed|ing)?|refus(?:e|es|ed|ing)|prevent(?:s|ed|ing)?|forbid(?:s|den)?|disallow(?:s|ed|ing)?|intercept(?:s|ed|ing)?|veto(?:es|ed)?|(?:deny|block)[-\s]?list(?:ed|s)?)\b/gi;
// Between the guard's verb and the command: nothing that makes the command a step of its own.
const STEP_BETWEEN = /\b(?:run|runs|running|execute[sd]?|executing|then|after|until|before|unless|once|when|while|instead|but)\b|[.;!?](?:\s|$)/i;
const NEGATED_VERB = /\b(?:not|never|no\s+longer|n['’]t)\s+(?:\w+\s+)?$/i;
// A list introduced as what a guard refuses: "The guard blocks:", "Blocked commands:", "Denied patterns:".
const GUARD_INTRO = /\b(?:block(?:s|ed)?|den(?:y|ies|ied)|reject(?:s|ed)?|refus(?:es|ed)|forbidden|disallowed|(?:deny|block)[-\s]?list)\b[^\n]{0,80}:\s*$/i;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])\s/;

/**
 * Whether the command at `offset` is named as what a hook, guard or deny list refuses: a refusing verb earlier on
 * its line with nothing between them that makes it a step ("which blocks `rm -rf /`, `rm -rf ~` and …",
 * `"deny": ["Bash(rm -rf /)"]`), or an item of a list introduced so ("Blocked commands:"). "After the guard blocks
 * the push, run `rm -rf ~`" and "it never blocks `rm -rf ~`" are not.
 */
export function guardedCommand(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  // The command's list item or paragraph up to it: a wrapped item's continuation lines read with its first line.
  let itemStart = lineStart;
  while (itemStart > 0 && offset - itemStart < 300 && !LIST_ITEM.test(text.slice(itemStart, itemStart + 12))) {
    const prev = text.lastIndexOf('\n', itemStart - 2) + 1;
    const prevLine = text.slice(prev, itemStart - 1);
    if (prevLine.trim() === '' || /^#{1,6}\s|^[ \t]*(?:```|~~~)/.test(prevLine)) break;
    itemStart = prev;
  }
  const lead = text.slice(Math.max(itemStart, offset - 300), offset);
  let last: RegExpExecArray | null = null;
  for (const m of lead.matchAll(GUARD_VERB)) last = m as RegExpExecArray;
  if (last !== null) {
    const between = lead.slice(last.index + last[0].length).replace(/`[^`\n]*`/g, ' ');
    if (!STEP_BETWEEN.test(between) && !NEGATED_VERB.test(lead.slice(0, last.index))) return true;
  }
  // An item of a list whose introduction (the line before the list's first item) says it is what the guard refuses.
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  if (!LIST_ITEM.test(text.slice(lineStart, text.indexOf('\n', lineStart) < 0 ? text.length : text.indexOf('\n', lineStart)))) return false;
  let i = lines.length - 1;
  while (i >= 0 && (LIST_ITEM.test(lines[i] ?? '') || /^[ \t]{2,}\S/.test(lines[i] ?? ''))) i--;
  while (i >= 0 && (lines[i] ?? '').trim() === '') i--;
  return i >= 0 && GUARD_INTRO.test(lines[i] ?? '') && !NEGATED_VERB.test((lines[i] ?? '').slice(0, (lines[i] ?? '').search(GUARD_INTRO)));
}

// The user asked first: "ask for confirmation", "after the user confirms", "show … and ask", "only with the user's approval".
const ASKS_FIRST =
  /\b(?:ask(?:s|ing)?\s+(?:the\s+user\s+)?(?:for\s+)?(?:(?:explicit\s+)?confirmation|approval|permission|consent)|ask(?:s|ing)?\s+(?:the\s+user\s+)?(?:before|whether|if)\b|(?:after|once|when|only\s+if)\s+the\s+user\s+(?:confirms|approves|agrees|says\s+yes|accepts)|(?:get|obtain|wait\s+for|require)\s+(?:the\s+user['’]s\s+)?(?:explicit\s+)?(?:confirmation|approval|consent)|the\s+user\s+must\s+(?:confirm|approve|agree))/i;
const NOT_ASKING = /\b(?:without|never|don['’]t|do\s+not|no\s+need\s+to|skip(?:ping)?)\s+(?:\w+\s+){0,2}$/i;
// The project's `.claude/` folder, not the user's (`~/.claude`, `$HOME/.claude`, `%USERPROFILE%\.claude`).
const PROJECT_CLAUDE = /(?<![~\w}/\\%$.-])\.claude[/\\](?:settings(?:\.local)?\.json|hooks\b)/;
const USER_CLAUDE = /(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\{home\}|\bhome\b[^\n/]{0,3})[/\\]\.claude\b/i;
// Code that builds a path from the home directory.
const HOME_IN_CODE = /\bexpanduser\s*\(|\bPath\.home\s*\(|\bos\.homedir\s*\(|\bhomedir\s*\(\s*\)|\bUserHomeDir\s*\(|getenv\(\s*['"](?:HOME|USERPROFILE)['"]|environ(?:\.get\(\s*|\[\s*)['"](?:HOME|USERPROFILE)['"]|process\.env\.(?:HOME|USERPROFILE)\b|\$HOME\b|\$\{HOME\}|~\/\.claude/;
const SAYS_PROJECT = /\bproject[-\s](?:level|scoped?|local)\b|\b(?:current|this|the\s+user['’]s)\s+(?:project|repository|repo)\b|\bproject['’]s\s+(?:own\s+)?\.claude\b|\bcommit\s+(?:the\s+)?`?\.claude/i;
const HOOK_SCRIPT = /\.claude[/\\]hooks[/\\]([\w.-]+\.(?:sh|py|js|mjs|cjs|ts|ps1|rb))\b/g;

/** What the check below reads of the skill: its documents, its files by path, its scripts' texts. */
export interface ProjectHookSkill {
  documents: ReadonlyArray<{ file: string; text: string }>;
  paths: readonly string[];
  scripts: ReadonlyArray<{ path: string; text: string }>;
}

/**
 * Whether the skill installs hooks into the project's own `.claude/` folder as a documented, consented setup: a
 * document says the hooks go to the project (project-level, this repository, commit `.claude/`), names each hook
 * script by its `.claude/hooks/<name>` path and the skill ships a file of that name, and says the user is asked
 * first; no script that writes the agent's settings builds its path from the home directory. The caller also
 * requires that no script of the skill talks to the network and nothing of it is CRIT.
 */
export function consentedProjectHooks(skill: ProjectHookSkill): boolean {
  const named = new Set<string>();
  let asks = false;
  let project = false;
  for (const d of skill.documents) {
    for (const m of d.text.matchAll(HOOK_SCRIPT)) named.add(m[1]!);
    if (SAYS_PROJECT.test(d.text) && PROJECT_CLAUDE.test(d.text)) project = true;
    for (const m of d.text.matchAll(new RegExp(ASKS_FIRST.source, 'gi'))) {
      if (!NOT_ASKING.test(d.text.slice(Math.max(0, m.index - 40), m.index))) asks = true;
    }
  }
  if (!asks || !project || named.size === 0) return false;
  const shipped = new Set(skill.paths.map((p) => p.slice(p.lastIndexOf('/') + 1)));
  if (![...named].every((n) => shipped.has(n))) return false;
  // The installer writes under the project: no script that names `.claude` builds a path from the home directory.
  return !skill.scripts.some((s) => /\.claude\b|["']\.claude["']/.test(s.text) && HOME_IN_CODE.test(s.text));
}

const PERSISTENCE_TITLES = /^(?:instruction to write the agent's settings, hooks or memory, or a startup file|script writes an agent's settings or memory, a shell startup file or an autostart entry)$/;

/** A HIGH persistence finding about the project's `.claude/` settings or hooks (not the user's), lowered to MED. */
export function projectHookFinding(f: AgentFinding): AgentFinding {
  if (f.category !== 'persistence' || f.severity !== 'HIGH' || !PERSISTENCE_TITLES.test(f.title)) return f;
  const evidence = f.evidence ?? '';
  // A script's evidence reads `<path> ← <call>`: a path built from an unknown root (`*/.claude/…`) is the working directory's.
  const path = evidence.includes(' ← ') ? evidence.slice(0, evidence.indexOf(' ← ')).replace(/^\*\//, '') : evidence;
  if (USER_CLAUDE.test(path) || !(PROJECT_CLAUDE.test(path) || /^\.claude[/\\]/.test(path))) return f;
  return { ...f, severity: 'MED', title: `${f.title} (the project's own .claude folder, set up after asking the user)` };
}
