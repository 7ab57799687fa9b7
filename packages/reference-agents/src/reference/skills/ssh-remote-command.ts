/**
 * What of a shell line runs on this machine when it calls `ssh HOST CMD`: CMD runs on HOST, so the paths it
 * names are HOST's files, not local reads or writes (`cat key.pub | ssh deploy@web1 'cat >> ~/.ssh/authorized_keys'`
 * deploys a public key, as ssh-copy-id does; round s28 review). The line is returned with that remote
 * command blanked (spaces, so indexes stay), keeping what the local shell still does with it:
 * - `$(…)`, backticks and `<(…)` in it, unquoted or in double quotes, run locally (`ssh h "$(cat ~/.aws/credentials)"`);
 * - redirections (`< f`, `> f`) and ssh's own options (`-o ProxyCommand=…`, `-i key`), before or after HOST, are local;
 * - a remote command whose output comes back into a pipe, a file or a substitution (`ssh h 'cat ~/.ssh/id_rsa' | curl …`)
 *   is left as written: what it reads ends up here; and so is one run on a loopback host (`ssh localhost …`).
 * A here-document given to ssh (`ssh h <<'EOF'` … `EOF`) is the remote script: its lines are blanked the same way.
 * Bounded: lines over 4,000 characters are left as they are; each character is scanned a bounded number of times.
 */
const MAX_LINE = 4000;
// Programs that run the command after them (with their own flags): `sudo -u deploy ssh …`, `timeout 30 ssh …`.
const WRAPPERS = new Set(['sudo', 'doas', 'env', 'exec', 'nohup', 'time', 'command', 'nice', 'timeout', 'sshpass', 'stdbuf']);
// Shell words after which a command starts.
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{']);
// A wrapper's flags that take a value (`sudo -u USER`, `sshpass -p PW`, `timeout -s SIG`, `nice -n N`).
const WRAPPER_VALUE_FLAG = /^-[ugCDhprtUfdPskn]$/;
// ssh's options that take an argument (OpenSSH `ssh -B -b -c -D -E -e -F -I -i -J -L -l -m -O -o -P -p -Q -R -S -W -w`).
const SSH_VALUE_OPTION = /^-[46AaCfGgKkMNnqsTtVvXxYy]*[BbcDEeFIiJLlmOoPpQRSWw]$/;
const LOOPBACK = /^(?:[^@]*@)?(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;
const REDIRECT = /(?:\d+|&)?(?:<<<|<<-?|>>|>&|<&|<>|>\||<|>)/y;
const OPERATOR = /[|&;()]/;

interface Word { start: number; end: number }
interface Heredoc { tag: string; quoted: boolean }

/** The index just past the `)` closing the `(` at `open` (single-quoted text skipped), or the text's end. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      i = end < 0 ? text.length : end;
    } else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The end of a substitution starting at `i` (`$(`, `<(`, `>(`, a backtick), or -1 when none starts there. */
function substitutionEnd(text: string, i: number): number {
  const ch = text[i];
  if ((ch === '$' || ch === '<' || ch === '>') && text[i + 1] === '(') return closing(text, i + 1);
  if (ch === '`') {
    const end = text.indexOf('`', i + 1);
    return end < 0 ? text.length : end + 1;
  }
  return -1;
}

/** The end of a double-quoted string opened at `i`, substitutions inside skipped whole. */
function doubleQuoteEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
    else {
      const end = substitutionEnd(text, j);
      if (end > j) j = end - 1;
    }
  }
  return text.length;
}

/** The shell word starting at `i` (quotes and substitutions inside it read whole): its end. */
function wordEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length) {
    const ch = text[j] as string;
    if (ch === ' ' || ch === '\t' || ch === '\r') break;
    const sub = substitutionEnd(text, j);
    if (sub > j && (ch === '$' || ch === '`' || j === i)) j = sub;
    else if (OPERATOR.test(ch) || ch === '<' || ch === '>') break;
    else if (ch === '\\') j += 2;
    else if (ch === "'") {
      const end = text.indexOf("'", j + 1);
      j = end < 0 ? text.length : end + 1;
    } else if (ch === '"') j = doubleQuoteEnd(text, j);
    else j++;
  }
  return Math.min(j, text.length);
}

/** A word as the shell would read it, quotes and backslashes removed (substitutions left as written). */
function unquoted(text: string): string {
  return text.replace(/\\(.)|'([^']*)'|"((?:[^"\\]|\\.)*)"/g, (_m, esc, sq, dq) => esc ?? sq ?? dq ?? '');
}

/**
 * `[start, end)` ranges of a remote word that the local shell does not run: all but its substitutions outside
 * single quotes (`'` inside double quotes, or in a here-document's body with `literalQuotes`, quotes nothing).
 */
function remoteRanges(text: string, word: Word, out: Array<[number, number]>, literalQuotes = false): void {
  let from = word.start;
  let inDouble = false;
  for (let j = word.start; j < word.end; j++) {
    const ch = text[j];
    if (ch === '\\') j++;
    else if (ch === '"' && !literalQuotes) inDouble = !inDouble;
    else if (ch === "'" && !inDouble && !literalQuotes) {
      const end = text.indexOf("'", j + 1);
      j = end < 0 || end >= word.end ? word.end : end;
    } else {
      // `<(…)` is a process substitution only outside double quotes and in a command line (not a here-document's body).
      const sub = ch === '$' || ch === '`' || ((ch === '<' || ch === '>') && !inDouble && !literalQuotes) ? substitutionEnd(text, j) : -1;
      if (sub > j) {
        if (j > from) out.push([from, j]);
        from = Math.min(sub, word.end);
        j = from - 1;
      }
    }
  }
  if (word.end > from) out.push([from, word.end]);
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /[ \t\r]/.test(text[i] as string)) i++;
  return i;
}

/** A redirection at `i`: its operator, its target word, and where it ends; null when none starts there. */
function redirectionAt(text: string, i: number): { op: string; target: string; end: number } | null {
  if ((text[i] === '<' || text[i] === '>') && text[i + 1] === '(') return null;
  REDIRECT.lastIndex = i;
  const m = REDIRECT.exec(text);
  if (m === null) return null;
  const at = skipSpace(text, i + m[0].length);
  const end = wordEnd(text, at);
  return { op: m[0], target: text.slice(at, end), end };
}

interface SshCommand { end: number; ranges: Array<[number, number]>; heredoc: Heredoc | null }

/**
 * The ssh command whose arguments start at `i`: where it ends, the remote command's ranges to blank (none
 * when its output comes back or its host is this one) and a here-document it is fed.
 */
function sshCommand(text: string, i: number): SshCommand {
  let captured = false;
  const ranges: Array<[number, number]> = [];
  let host: string | null = null;
  let inCommand = false;
  let heredoc: Heredoc | null = null;
  let j = i;
  while (j < text.length) {
    j = skipSpace(text, j);
    if (j >= text.length) break;
    const redirect = redirectionAt(text, j);
    if (redirect !== null) {
      if (/^(?:1?>>?|&>>?|>\|)$/.test(redirect.op) && !/^\/dev\/(?:null|stderr|tty)$/.test(redirect.target)) captured = true;
      if (/^<<-?$/.test(redirect.op)) heredoc = { tag: unquoted(redirect.target), quoted: /['"\\]/.test(redirect.target) };
      j = redirect.end;
      continue;
    }
    if (OPERATOR.test(text[j] as string)) {
      // `ssh h cmd | next`: the remote output is read here.
      if (text[j] === '|' && text[j + 1] !== '|') captured = true;
      break;
    }
    const end = wordEnd(text, j);
    const word = unquoted(text.slice(j, end));
    if (!inCommand && word.startsWith('-') && word !== '--') {
      // An option, before or after the host: ssh reads it here.
      j = SSH_VALUE_OPTION.test(word) ? wordEnd(text, skipSpace(text, end)) : end;
      continue;
    }
    if (!inCommand && host === null && word !== '--') host = word;
    else if (!inCommand && word !== '--') inCommand = true;
    if (inCommand) remoteRanges(text, { start: j, end }, ranges);
    j = end;
  }
  const local = captured || (host !== null && LOOPBACK.test(host));
  return { end: j, ranges: local ? [] : ranges, heredoc: local ? null : heredoc };
}

function blank(text: string, ranges: ReadonlyArray<[number, number]>): string {
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (from < at) continue;
    parts.push(text.slice(at, from), ' '.repeat(to - from));
    at = to;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** One line's local text and the here-document an ssh on it is fed, if any. */
function localLine(text: string): { text: string; heredoc: Heredoc | null } {
  if (text.length > MAX_LINE || !/(?:^|[^\w./-])ssh(?:\s|$)/.test(text)) return { text, heredoc: null };
  const ranges: Array<[number, number]> = [];
  let heredoc: Heredoc | null = null;
  let commandStart = true;
  let wrapped = false;
  let valueNext = false;
  let i = 0;
  while (i < text.length) {
    i = skipSpace(text, i);
    // A comment: the rest of the line is left as written.
    if (i >= text.length || text[i] === '#') break;
    const redirect = redirectionAt(text, i);
    if (redirect !== null) {
      i = redirect.end;
      continue;
    }
    if (OPERATOR.test(text[i] as string)) {
      commandStart = text[i] !== ')';
      wrapped = false;
      i++;
      continue;
    }
    const end = wordEnd(text, i);
    const word = unquoted(text.slice(i, end));
    if (commandStart && /(?:^|\/)ssh$/.test(word)) {
      // `$(ssh …)` and `` `ssh …` `` are read whole as one word above: their output is captured and left as written.
      const ssh = sshCommand(text, end);
      ranges.push(...ssh.ranges);
      heredoc = ssh.heredoc ?? heredoc;
      i = ssh.end;
      commandStart = false;
      continue;
    }
    if (commandStart) {
      const passes: boolean = wrapped && (valueNext || word.startsWith('-') || /^\d+(?:\.\d+)?[smhd]?$/.test(word));
      valueNext = passes && WRAPPER_VALUE_FLAG.test(word);
      if (WRAPPERS.has(word)) wrapped = true;
      else if (!passes && !KEYWORDS.has(word) && !/^[A-Za-z_]\w*\+?=/.test(word)) commandStart = false;
    }
    i = end;
  }
  return { text: blank(text, ranges), heredoc };
}

/**
 * The lines with what runs on a remote host through ssh blanked: the remote command on an ssh line and the
 * body of a here-document fed to ssh (all of it when the delimiter is quoted; else all but its substitutions,
 * which the local shell expands). Same count and indexes as the input.
 */
export function localShellLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let heredoc: Heredoc | null = null;
  for (const line of lines) {
    if (heredoc !== null) {
      const body: Heredoc = heredoc;
      if (line.trim() === body.tag) heredoc = null;
      else if (line.length > MAX_LINE) {
        out.push(line);
        continue;
      } else {
        const ranges: Array<[number, number]> = [];
        if (body.quoted) ranges.push([0, line.length]);
        else remoteRanges(line, { start: 0, end: line.length }, ranges, true);
        out.push(blank(line, ranges));
        continue;
      }
      out.push(line);
      continue;
    }
    const local = localLine(line);
    heredoc = local.heredoc;
    out.push(local.text);
  }
  return out;
}
