import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { onlyOfficialInstallerUrls } from '../known/official-installers.js';
import { AUTOSTART_PATH, SHELL_STARTUP_PATH, type ScriptFact } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';

// A crontab installed from code, in command position (a string's start or after `|`, `;`, `&`, `(`, `$(`, a line end,
// so not a usage text's "run: crontab ~/f"): `crontab -` reading standard input (`(crontab -l; echo …) | crontab -`) or
// `crontab FILE`; or an argument list `["crontab", "-"]`, `spawn('crontab', [file])`. `-u USER` is skipped; listing
// (`-l`), editing (`-e`) and removing (`-r`) install nothing.
const CRONTAB_INSTALL =
  /(?:^|['"`\n;&|(]|\$\()[ \t]*crontab(?:[ \t]+-u[ \t]+[^\s'"`;|&]+)?[ \t]+(?:-(?=[\s'"`);|&]|$)|[~/$][^\s'"`]*|\{[^}\s]+\})|['"`]crontab['"`]\s*,\s*\[?\s*(?:['"`]-u['"`]\s*,\s*[^,\]\n]+,\s*)?(?:['"`](?:-|[^-'"`\s][^'"`\s]*)['"`]|[A-Za-z_$][\w$.]*\s*[\],)])/m;
// A download run by a shell or an interpreter, as a scheduled or autostarted command would hold it.
const DOWNLOAD_RUN =
  /\b(?:curl|wget)\b[^\n]{0,200}?\|\s*(?:sudo\s+)?(?:\/(?:usr\/)?bin\/)?(?:ba|z|da|k)?sh\b|\b(?:ba|z|da)?sh\s+-c\s+["'\\]*\$\(\s*(?:curl|wget)\b|\b(?:curl|wget)\b[^\n]{0,200}?\s(?:-o|-O|--output)\s*\S+\s*(?:&&|;)\s*(?:(?:ba|z)?sh|chmod\s+\+?[0-7]*x|\.\/|python3?|node)\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n]{0,200}?\|\s*iex\b|\bpython3?\s+-c\s+[^\n]{0,200}?\burlopen\b[^\n]{0,200}?\bexec\b/i;

const DOWNLOAD_RUN_ALL = new RegExp(DOWNLOAD_RUN.source, 'gi');
const MAX_STATEMENT = 4000;

/**
 * The statement starting at `start` (to a line end or `;` outside brackets and strings), and the names its code
 * uses: outside string literals and inside `${…}` / f-string `{…}` interpolations. Strings are skipped as text, so a
 * word of a unit file or a help text is not read as a name.
 */
function statementAt(text: string, start: number, python: boolean): { text: string; names: string[] } {
  const names: string[] = [];
  // Modes: code (its own bracket depth; an interpolation's closes at its `}`), a string (its quote; f-string, template).
  type Mode = { kind: 'code'; depth: number; interpolation: boolean } | { kind: 'string'; quote: string; interp: boolean };
  const stack: Mode[] = [{ kind: 'code', depth: 0, interpolation: false }];
  let i = start;
  const end = Math.min(text.length, start + MAX_STATEMENT);
  while (i < end) {
    const mode = stack[stack.length - 1]!;
    const c = text[i]!;
    if (mode.kind === 'string') {
      if (c === '\\') { i += 2; continue; }
      if (text.startsWith(mode.quote, i)) { stack.pop(); i += mode.quote.length; continue; }
      if (mode.quote.length === 1 && mode.quote !== '`' && c === '\n') { stack.pop(); i++; continue; }
      if (mode.interp && (mode.quote === '`' ? text.startsWith('${', i) : c === '{' && text[i + 1] !== '{')) {
        stack.push({ kind: 'code', depth: 0, interpolation: true });
        i += mode.quote === '`' ? 2 : 1;
        continue;
      }
      i += mode.interp && mode.quote !== '`' && text.startsWith('{{', i) ? 2 : 1;
      continue;
    }
    if (mode.interpolation && c === '}' && mode.depth === 0) { stack.pop(); i++; continue; }
    const word = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/.exec(text.slice(i, i + 200));
    if (word !== null && !/[\w$]/.test(text[i - 1] ?? '')) {
      const rest = text.slice(i + word[0].length, i + word[0].length + 3);
      // A Python string prefix (f"…", rb'…') opens a string; a keyword argument's or an object key's name is no value.
      if (python && /^[rRbBuUfF]{1,2}$/.test(word[0]) && /^["']/.test(rest)) { i += word[0].length; continue; }
      const key = mode.depth > 0 && (python ? /^\s*=(?!=)/.test(rest) : /^\s*:/.test(rest) && /[{,]\s*$/.test(text.slice(Math.max(start, i - 40), i)));
      if (!key) names.push(word[0]);
      i += word[0].length;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const triple = python && text.startsWith(c.repeat(3), i);
      const prefix = python ? (/[rRbBuUfF]{1,2}$/.exec(text.slice(Math.max(0, i - 2), i))?.[0] ?? '') : '';
      stack.push({ kind: 'string', quote: triple ? c.repeat(3) : c, interp: c === '`' || /f/i.test(prefix) });
      i += triple ? 3 : 1;
      continue;
    }
    if (python ? c === '#' : text.startsWith('//', i)) { while (i < end && text[i] !== '\n') i++; continue; }
    if (!python && text.startsWith('/*', i)) { i = text.indexOf('*/', i + 2) < 0 ? end : text.indexOf('*/', i + 2) + 2; continue; }
    if ('([{'.includes(c)) mode.depth++;
    else if (')]}'.includes(c)) mode.depth = Math.max(0, mode.depth - 1);
    else if (stack.length === 1 && mode.depth === 0 && (c === ';' || (c === '\n' && !(python && text[i - 1] === '\\')))) break;
    i++;
  }
  return { text: text.slice(start, i), names };
}

/**
 * What a write or a crontab command puts in place: the statement itself (the write call, the command line) and,
 * a few levels deep, the values it names: a binding in the file (`NAME = …`, `const NAME = …`, `NAME += …`), a
 * constant imported from another module, the writes to a file handle it opens (`with open(p, "w") as f: f.write(…)`)
 * or to a file it hands to `crontab`. Not the rest of the file: a hint or an installer line elsewhere is not written.
 */
function writtenText(text: string, at: number, python: boolean, imported: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  const visit = (start: number, level: number): void => {
    const s = statementAt(text, start, python);
    parts.push(s.text);
    if (level >= 4) return;
    // A handle the statement opens (`with open(p, "w") as f:`, `f = open(…)`, `const s = fs.createWriteStream(…)`):
    // its writes in the lines that follow.
    const handle = /\bas\s+([A-Za-z_]\w*)\s*:\s*$/.exec(s.text)?.[1] ?? /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?[\w$.]*(?:open|createWriteStream|NamedTemporaryFile)\s*\(/.exec(s.text)?.[1];
    if (handle !== undefined) {
      const after = start + s.text.length;
      for (const m of text.slice(after, after + 2000).matchAll(new RegExp(`^[ \\t]*(?:await\\s+)?${handle.replace(/\$/g, '\\$')}\\.(?:write|writelines|end)\\s*\\(`, 'gm'))) visit(after + m.index, level + 1);
    }
    for (const name of s.names) {
      for (const [key, value] of imported) if (key === name || key.startsWith(`${name}.`) || key === `${name}()`) parts.push(value);
      const head = name.split('.')[0]!;
      if (seen.has(head)) continue;
      seen.add(head);
      const esc = head.replace(/\$/g, '\\$');
      // Its bindings (read from the right-hand side), and the writes to it when it names a file (from the line's start).
      const binding = new RegExp(`(?:^|[^\\w$.])${esc}\\s*(?::[^=\\n]+)?\\+?=(?!=)`, 'gm');
      const fileWrite = new RegExp(`\\b${esc}\\.(?:write_text|write_bytes)\\s*\\(|\\b(?:writeFile|writeFileSync|appendFile|appendFileSync)\\s*\\(\\s*${esc}\\s*,|\\bopen\\s*\\(\\s*${esc}\\s*,\\s*['"][wa]`, 'g');
      for (const m of text.matchAll(binding)) visit(m.index + m[0].length, level + 1);
      for (const m of text.matchAll(fileWrite)) visit(text.lastIndexOf('\n', m.index) + 1, level + 1);
    }
  };
  visit(text.lastIndexOf('\n', at - 1) + 1, 0);
  return parts.join('\n');
}

/**
 * Server code that installs an OS autostart entry or a scheduled job (a systemd user unit, a LaunchAgent, an XDG
 * autostart entry, a shell startup file, `/etc/cron*`, a user crontab): a foothold that runs after the MCP client is
 * closed. CRIT when what it writes there (the write call's text and the values it names, in the file or imported; the
 * crontab command line and the text it pipes or the file it hands over) holds a download-and-run command line, which
 * such an entry then runs on every login or tick; HIGH when the file writes one by itself (no user command:
 * `runByUser` false) and no tool handler's write was reported already. Agent settings and MCP client configuration
 * are other rows' (s27).
 */
export function autostartPlantFinding(file: string, text: string, facts: readonly ScriptFact[], imported: ReadonlyMap<string, string>, byUser: boolean, handlerReported: boolean): AgentFinding | null {
  // (A repository's git hooks are a git tool's business: not read here.)
  const place = (f: ScriptFact) => f.evidence.split(' ← ')[0] ?? '';
  const written = facts.filter((f) => f.kind === 'persistence-write' && (AUTOSTART_PATH.test(place(f)) || SHELL_STARTUP_PATH.test(place(f))) && !/\.git[/\\]hooks/.test(place(f)));
  const crons = [...text.matchAll(new RegExp(CRONTAB_INSTALL.source, 'gm'))];
  if (written.length === 0 && crons.length === 0) return null;
  const python = /\.py$/.test(file);
  const lineAt = lineLocator(text);
  const lineOffsets = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
  type Site = { line: number; where: string; at: number };
  const sites: Site[] = [
    ...written.map((f) => ({ line: f.line, where: f.evidence, at: lineOffsets[f.line - 1] ?? 0 })),
    ...crons.map((m) => ({ line: lineAt(m.index), where: (text.slice(m.index).replace(/^[\n;&|(]/, '').split('\n')[0] ?? '').trim().slice(0, 160), at: m.index + (m[0].startsWith('\n') ? 1 : 0) })),
  ];
  for (const site of sites) {
    // A tool's official installer quoted as a hint (`curl -LsSf https://astral.sh/uv/install.sh | sh`) is no payload.
    const payload = [...writtenText(text, site.at, python, imported).matchAll(DOWNLOAD_RUN_ALL)].find((m) => !onlyOfficialInstallerUrls(m[0]));
    if (payload !== undefined) {
      return referenceFinding({ category: 'persistence', severity: 'CRIT', title: 'server code installs an autostart entry or scheduled job that downloads and runs code', file, line: site.line, evidence: `${site.where.slice(0, 160)} … ${payload[0].slice(0, 120)}` });
    }
  }
  if (byUser || handlerReported) return null;
  const first = sites[0]!;
  return referenceFinding({ category: 'persistence', severity: 'HIGH', title: 'server code installs an autostart entry or scheduled job by itself', file, line: first.line, evidence: first.where.slice(0, 200) });
}
