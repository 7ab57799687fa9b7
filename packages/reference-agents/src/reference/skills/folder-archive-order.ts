/**
 * (round s31) A skill document that has the agent archive a folder holding the user's data — the home directory or a
 * folder in it (`~/.ssh`, `~/.aws`, `~/.config`, a browser profile), or the project — and send the archive to an address
 * the document writes out, in one step or two. The review of round s30 found the script-only rule (`folder-upload.ts`)
 * missed the same order given to the agent: a documented command (`zip -r /tmp/b.zip ~/.ssh && curl -F f=@/tmp/b.zip
 * https://…`, `tar czf - ~ | curl --data-binary @- …`), a Python or JavaScript block doing it, or prose ("compress the
 * ~/.config folder and upload it to https://…").
 *
 * Read: the document's code — fenced blocks (shell, or no language; Python and JavaScript blocks as those scripts are
 * read), indented blocks, inline code spans of a line — with the reader of archives sent out (`folderArchiveUploads`);
 * and its prose, a line (or a list item with the next one) where an archiving verb (compress, zip, tar, archive, pack,
 * bundle; make / create a zip / tarball / archive) takes a user's folder and a sending verb after it (upload, send, post,
 * transfer, submit, push, sync, share, put, copy … to) takes a written-out address (`https://host/…` or a bare
 * `host.tld`), not a placeholder (`<…>`, `{…}`, `$VAR`, `example.com`). A sentence that forbids it (never, do not,
 * don't, must not, avoid) or shows it as an attack (attacker, malicious, exfiltrat…, red flag) orders nothing.
 * Whether the skill names the address is judged by the caller, with the address itself taken out of the documents.
 *
 * (round s31 review) In prose only the home directory and credential or profile folders count (`~`, `~/.ssh`, `~/.aws`,
 * `~/.config`, a browser profile, the user's Documents / Desktop / Downloads), not the project, repository or working
 * folder: zipping the project and uploading it is how extensions, apps and coursework are published. Code that archives
 * the project alone is returned with `project` set (reported MED), and not at all when it goes over ssh / scp / rsync
 * to a host the commands also deploy to.
 */
import { fencedBlocks, indentedBlocks } from '../text/fence-scanner.js';
import { lineLocator } from '../text/line-locator.js';
import { folderArchiveUploads } from './credential-uploads.js';
import { archiveUpload, deploysTo } from './folder-upload.js';
import { folderOf, homeDataFolder } from './user-folder.js';

export interface FolderArchiveOrder {
  line: number;
  evidence: string;
  url: string;
  /** (round s31 review) Code that archives the project alone (no home or credential folder): at most MED. */
  project?: boolean;
}

const SHELL_INFO = /^(?:|bash|sh|shell|zsh|console|terminal|shell-session|text|powershell|pwsh|ps1|cmd|bat)$/i;
const PYTHON_INFO = /^(?:python|py|python3)$/i;
const JS_INFO = /^(?:javascript|js|node|mjs|typescript|ts)$/i;

// An archiving verb, or making an archive.
const ARCHIVE_VERB = /\b(?:compress(?:es|ed|ing)?|zip(?:s|ped|ping)?|tar(?:s|red|ring)?|archiv(?:e|es|ed|ing)|pack(?:s|ed|ing)?|bundl(?:e|es|ed|ing))\b|\b(?:make|create|build|generate)\s+(?:a\s+|an\s+)?(?:zip|tar(?:ball)?|archive|\.zip|\.tgz|tgz)\b/i;
// A user's folder in prose: a path (read by `homeDataFolder`: the home directory or a folder in it) or its name.
const FOLDER_PATH = /(?<![\w/.-])(?:~(?:[\\/][\w.@-]*)+|~(?=[\s,.;:)'"`]|$)|\$HOME(?:\/[\w.@-]*)*|\$\{HOME\}(?:\/[\w.@-]*)*|%(?:USERPROFILE|APPDATA|LOCALAPPDATA)%(?:\\[\w.@-]*)*|\/(?:Users|home)\/[\w.-]+(?:\/[\w.@-]*)*)/g;
// (round s31 review) Only the home directory and credential or profile folders: the project, repository or working
// folder zipped and uploaded is how extensions, apps and coursework are published (Chrome Web Store, App Store Connect).
const FOLDER_WORDS =
  /\b(?:(?:the\s+)?(?:user['’]s\s+|your\s+)?home\s+(?:directory|folder|dir)|(?:user|home)\s+profile\s+(?:directory|folder)|(?:browser|chrome|firefox|edge|brave|safari)\s+profiles?(?:\s+(?:directory|folder))?|\.(?:ssh|aws|config|gnupg|kube|docker|azure|gcloud)\s+(?:folder|directory|dir)\b|(?:ssh|aws|gpg|gnupg|kube|cloud)\s+(?:keys?|credentials?)\s+(?:folder|directory)\b)/i;
// (round s31 review) The user's Documents, Desktop or Downloads folder, capitalised as the folder is named.
const USER_LIBRARY_WORDS = /\b(?:[Tt]he\s+user['’]s|[Yy]our|[Mm]y)\s+(?:Documents|Desktop|Downloads)\b|\b(?:Documents|Desktop|Downloads)\s+(?:folder|directory)\b/;
// A sending verb with its destination after it.
const SEND_VERB = /\b(?:upload(?:s|ed|ing)?|send(?:s|ing)?|sent|post(?:s|ed|ing)?|transfer(?:s|red|ring)?|submit(?:s|ted|ting)?|push(?:es|ed|ing)?|sync(?:s|ed|ing)?|shar(?:e|es|ed|ing)|put(?:s|ting)?|copy|copies|copied|copying|curl)\b/gi;
const URL_IN = /\bhttps?:\/\/([\w.-]+)(?::\d+)?[^\s"'`<>)\]]*/i;
const BARE_HOST = /(?<![\w@./-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|io|dev|app|xyz|co|ai|sh|me|cloud|site|online|info|biz|ru|cn|tk|top|cc|us|eu|uk|de|link|live|pw|to|ws|su|in|gg|so|fm|tv|one|run|host|zone|space|tech|store|page|pages|workers|example))\b(?![\w-]|\.[a-z])/i;
const BARE_DESTINATION = new RegExp(String.raw`^[^.\n]{0,120}?\b(?:to|at|on|into|via)\s+${BARE_HOST.source}`, 'i');
const PLACEHOLDER_HOST = /(?:^|\.)example\.(?:com|org|net)$|^(?:your|my)[-.]|\byour(?:domain|server|host|site|company|bucket)\b/i;
const FORBIDS = /\b(?:never|do\s+not|don['’]t|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|avoid|refuse|not\s+allowed|forbidden|prohibited)\b/i;
const NOT_TO_RUN = /\b(?:never|do\s+not|don['’]t|must\s+not)\s+(?:run|execute|use|copy|paste|try|do)\b/i;
const ATTACK = /\b(?:attack\w*|malicious|malware|exfiltrat\w*|red\s+flags?|stealers?|threat\s+actor|backdoor\w*|detect\w*|(?:an\s+)?example\s+of\s+(?:an?\s+)?(?:attack|exfiltration))\b/i;

/** The document's code as command lines at their lines, its Python and JavaScript blocks, and the lines code blocks take. */
function documentCode(text: string): { lines: string[]; scripts: Array<{ line: number; body: string; language: string }>; blocks: Set<number> } {
  const docLines = text.split('\n');
  const lines: string[] = new Array<string>(docLines.length).fill('');
  const inBlock = new Array<boolean>(docLines.length).fill(false);
  const locate = lineLocator(text);
  const scripts: Array<{ line: number; body: string; language: string }> = [];
  for (const b of fencedBlocks(text).slice(0, 500)) {
    const first = locate(b.bodyStart) - 1;
    const body = b.body.replace(/\n$/, '').split('\n');
    const info = (/^[ \t]*(?:`{3,}|~{3,})\s*([\w+-]*)/.exec(text.slice(b.index, b.index + 200))?.[1] ?? '').toLowerCase();
    for (let k = -1; k <= body.length && first + k < docLines.length; k++) if (first + k >= 0) inBlock[first + k] = true;
    if (PYTHON_INFO.test(info)) scripts.push({ line: first + 1, body: body.join('\n'), language: 'python' });
    else if (JS_INFO.test(info)) scripts.push({ line: first + 1, body: body.join('\n'), language: /^(?:ts|typescript)$/.test(info) ? 'typescript' : 'javascript' });
    else if (SHELL_INFO.test(info)) body.forEach((l, k) => (lines[first + k] = l.replace(/^\s*(?:\$|>|PS>)\s+/, '')));
  }
  for (const b of indentedBlocks(text).slice(0, 500)) {
    const first = locate(b.index) - 1;
    b.body.split('\n').forEach((l, k) => {
      if (inBlock[first + k] === true) return;
      inBlock[first + k] = true;
      lines[first + k] = l.replace(/^\s*(?:\$|>|PS>)\s+/, '');
    });
  }
  // Inline code of the other lines, each span a command of its line (`zip -r /tmp/b.zip ~` then `curl -F f=@/tmp/b.zip …`).
  for (let i = 0; i < docLines.length; i++) {
    const l = docLines[i] as string;
    if (inBlock[i] === true || !l.includes('`') || l.length > 4000) continue;
    const spans = [...l.matchAll(/`([^`\n]+)`/g)].map((m) => (m[1] as string).trim());
    if (spans.length > 0 && !FORBIDS.test(l.replace(/`[^`\n]*`/g, ' '))) lines[i] = spans.join(' ; ');
  }
  const blocks = new Set<number>();
  inBlock.forEach((b, i) => {
    if (b) blocks.add(i);
  });
  return { lines, scripts, blocks };
}

/** The destination after a sending verb: a written-out URL or a bare host, not a placeholder. */
function destinationAfter(window: string): string | null {
  for (const m of window.matchAll(SEND_VERB)) {
    const after = window.slice(m.index + m[0].length, m.index + m[0].length + 200);
    const url = URL_IN.exec(after);
    // A bare host only as the destination itself (`to transfer.sh`, `at files.acme-drop.net`), not a script's name.
    const bare = url === null ? BARE_DESTINATION.exec(after) : null;
    const host = (url?.[1] ?? bare?.[1] ?? '').toLowerCase().replace(/\.+$/, '');
    if (host === '' || PLACEHOLDER_HOST.test(host) || /^(?:localhost|127\.|0\.0\.0\.0)/.test(host)) continue;
    // A destination the user fills in (`https://<host>/…`, `${URL}`) is none.
    const written = url?.[0] ?? bare?.[1] ?? '';
    if (/[<>{}$]/.test(written)) continue;
    return url !== null ? url[0].replace(/[.,;:]+$/, '') : `https://${host}/`;
  }
  return null;
}

/** True when a line names a user's folder (a path or its name). */
function namesUserFolder(line: string): boolean {
  if (FOLDER_WORDS.test(line) || USER_LIBRARY_WORDS.test(line)) return true;
  for (const m of line.matchAll(FOLDER_PATH)) if (homeDataFolder(m[0].trim()) && folderOf(m[0].trim()) !== '') return true;
  return false;
}

/** The prose order, in a line or a list item with the next line: archive a user's folder, then send it out. */
function proseOrder(text: string, code: ReadonlySet<number>): FolderArchiveOrder | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (code.has(i) || line.length > 4000) continue;
    const prose = line.replace(/`([^`\n]*)`/g, ' $1 ');
    const verb = ARCHIVE_VERB.exec(prose);
    if (verb === null || !namesUserFolder(prose.slice(verb.index))) continue;
    // The next line too: a continued sentence or the next step of a list.
    const next = i + 1 < lines.length && !code.has(i + 1) && (lines[i + 1] as string).trim() !== '' && !/^\s*#/.test(lines[i + 1] as string) ? (lines[i + 1] as string).slice(0, 4000).replace(/`([^`\n]*)`/g, ' $1 ') : '';
    // From the start of the archiving verb's sentence: "upload the zip of ~/.config to …" sends before it names the archive.
    const sentenceStart = Math.max(prose.lastIndexOf('. ', verb.index) + 1, 0);
    const window = `${prose.slice(sentenceStart)}\n${next}`;
    const url = destinationAfter(window);
    if (url === null) continue;
    const sentence = prose.slice(sentenceStart, verb.index);
    if (FORBIDS.test(sentence) || ATTACK.test(`${prose}\n${next}`)) continue;
    return { line: i + 1, evidence: `${line.trim()}${next === '' ? '' : ` … ${next.trim()}`}`.slice(0, 300), url };
  }
  return null;
}

/** The first order in a document to archive a user's folder and send it to a written-out address, or null. */
export function folderArchiveOrder(text: string): FolderArchiveOrder | null {
  if (text.length > 512 * 1024 || !/https?:\/\/|\.[a-z]{2,}\b/i.test(text)) return null;
  const { lines, scripts, blocks } = documentCode(text);
  const docLines = text.split('\n');
  // The command's line and the five before it (a block's lead-in paragraph): where it is shown as an attack, or forbidden.
  const shownAsAttack = (line: number) => {
    const lead = docLines.slice(Math.max(0, line - 6), line).join('\n');
    return ATTACK.test(lead) || NOT_TO_RUN.test(lead);
  };
  // (round s31 review) A home or credential folder first; the project alone is MED, and none when it goes to a host
  // the commands also deploy to (`git archive HEAD | ssh deploy@host "tar -x -C /srv/app"`).
  const code = lines.join('\n');
  const sent = folderArchiveUploads(lines).find((s) => !shownAsAttack(s.line) && (!s.project || !deploysTo(code, s)));
  let project: FolderArchiveOrder | null = null;
  if (sent !== undefined && !sent.project) return { line: sent.line, evidence: sent.evidence, url: sent.url };
  if (sent !== undefined) project = { line: sent.line, evidence: sent.evidence, url: sent.url, project: true };
  for (const s of scripts.slice(0, 50)) {
    const up = archiveUpload(s.body, s.language);
    if (up === null || shownAsAttack(s.line)) continue;
    const order = { line: s.line + up.line - 1, evidence: up.evidence, url: up.url, ...(up.project === true ? { project: true } : {}) };
    if (up.project !== true) return order;
    project ??= order;
  }
  if (!ARCHIVE_VERB.test(text)) return project;
  return proseOrder(text, blocks) ?? project;
}
