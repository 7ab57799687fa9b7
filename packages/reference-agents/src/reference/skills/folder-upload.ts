import { lineLocator } from '../text/line-locator.js';
import { folderArchiveUploads, type FolderArchiveSend } from './credential-uploads.js';
import { jsCommandLines } from './js-commands.js';
import { SHELL_EXEC, SPAWN } from './js-facts.js';
import { parseJs, scopeOf } from './js-source.js';
import { pythonCommandLines } from './python-commands.js';
import { SHELL_ALWAYS, SUBPROCESS } from './python-facts.js';
import { PythonSource } from './python-source.js';
import { joinContinued } from './shell-facts.js';

/**
 * (round s30) A script that sends the files of a folder it lists over the network: every document beside the
 * one the user gave it, a whole directory walked and posted file by file (in-sample: held-out set 31's "OCR"
 * skill whose accuracy boost uploads the PDF and every other document of its folder to an outside host). A
 * backup or sync skill does the same to a service its documents name; judged after the walk, against the
 * skill's documents (`hostDisclosed`).
 *
 * Read by indentation (Python, and JavaScript as written): a loop over a directory listing — or over a name
 * assigned from one — whose body reads the loop's file and makes a request, directly or through a function of
 * the script that does both; shell: a `for` over a glob, `find … | while read`, or `find -exec` whose body
 * uploads the file with curl or wget. The request's address must be written in the script (a URL the user
 * configures is theirs).
 *
 * (round s31) Also a folder holding the user's data (`user-folder.ts`: the home directory or a folder in it — `~/.ssh`,
 * `~/.aws`, `~/.config`, a browser profile — or the project) archived and the archive sent, in one step or two: the
 * script's command lines (shell; Python's and JavaScript's process calls, archive writes — `shutil.make_archive`,
 * `tarfile`/`zipfile` handles, archiver, adm-zip, node-tar — and requests sending a file, written as the commands they
 * amount to) read by `folderArchiveUploads` (credential-uploads.ts), which follows the archive from the command that
 * writes it (or a pipe it is printed into) to the upload that sends it. `archive` is set then.
 */
export interface FolderUpload {
  line: number;
  evidence: string;
  /** The address written in the script. */
  url: string;
  /** (round s31) An archive of a user's folder was sent, not the files of a listing one by one. */
  archive?: boolean;
  /** (round s31 review) Only the project folder was archived (no home or credential folder): at most MED. */
  project?: boolean;
}

const LISTING: Record<'python' | 'javascript' | 'shell', RegExp> = {
  python: /\.(?:iterdir|glob|rglob)\s*\(|\bos\.(?:listdir|scandir|walk)\s*\(|\bglob\.i?glob\s*\(/,
  javascript: /\b(?:readdir|readdirSync|opendir|opendirSync|globSync|glob|fg|globby|fastGlob)\s*\(|\bfs\.promises\.readdir\s*\(/,
  shell: /\bfind\s+\S|\bls\s|\*/,
};
const SEND: Record<'python' | 'javascript', RegExp> = {
  python: /\b(?:requests|httpx|session|client|s|http)\.(?:post|put|request|patch)\s*\(|\burlopen\s*\(|\burllib\.request\.Request\s*\(|\baiohttp\b[^\n]*\.(?:post|put)\s*\(|\.upload_file(?:obj)?\s*\(/,
  javascript: /\bfetch\s*\(|\baxios(?:\.(?:post|put|request))?\s*\(|\bgot(?:\.(?:post|put))?\s*\(|\bhttps?\.request\s*\(|\bky\.(?:post|put)\s*\(/,
};
// Reading the file a name holds.
const readsName = (name: string, language: 'python' | 'javascript') =>
  language === 'python'
    ? // (round s30 review) Also an item by index (`docs[i].read_bytes()`) and a path built around the name (`open(d + "/" + n, "rb")`, not a write).
      new RegExp(String.raw`\bopen\s*\(\s*(?:str\()?${name}\b|\b${name}\.(?:open|read_bytes|read_text)\s*\(|\bfiles\s*=\s*\{[^}\n]*\b${name}\b|\bos\.path\.join\([^)\n]*\b${name}\b|\b\w+\[\s*${name}\s*\]\.(?:open|read_bytes|read_text)\s*\(|\bopen\s*\(\s*\w+\[\s*${name}\s*\]|\bopen\s*\((?![^)\n]{0,200}["'][wax]b?\+?["'])[^)\n]{0,200}?(?<![\w.])${name}\b`)
    : new RegExp(String.raw`\b(?:readFileSync|readFile|createReadStream|openAsBlob|fileFrom|Bun\.file)\s*\(\s*(?:(?:path\.)?(?:join|resolve)\([^)\n]*)?\b${name}\b`);
const URL_LITERAL = /["'`](https?:\/\/(?!localhost\b|127\.0\.0\.1\b|0\.0\.0\.0\b|\[::1\])[\w.-]+(?::\d+)?[^"'`\s]*)["'`]/;

const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0].length ?? 0;

/** The lines of the block a header line opens (deeper indentation than the header, blank lines kept). */
function bodyOf(lines: readonly string[], header: number): string[] {
  const base = indentOf(lines[header] ?? '');
  const out: string[] = [];
  for (let i = header + 1; i < lines.length && out.length < 200; i++) {
    const l = lines[i] as string;
    if (l.trim() === '') continue;
    if (indentOf(l) <= base && !/^\s*[)\]}]/.test(l)) break;
    out.push(l);
  }
  return out;
}

/** Python or JavaScript: the first loop over a folder listing whose body uploads the file it holds. */
function codeFolderUpload(text: string, language: 'python' | 'javascript'): { line: number; evidence: string; request: string } | null {
  if (!LISTING[language].test(text) || !SEND[language].test(text)) return null;
  const lines = text.split('\n');
  // Names holding a listing: assigned from one (a comprehension, a filter, a slice of another such name).
  // (round s30 review) A set of identifiers, looked up per name of the right-hand side: linear in the script's size.
  const listed = new Set<string>();
  const namesIn = (expr: string) => expr.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g) ?? [];
  for (let pass = 0; pass < 2; pass++) {
    for (const line of lines) {
      const a = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=(?!=)\s*(.+)$/.exec(line);
      if (a === null || listed.has(a[1] as string)) continue;
      const rhs = a[2] as string;
      if (LISTING[language].test(rhs) || namesIn(rhs).some((n) => listed.has(n))) listed.add(a[1] as string);
    }
  }
  // Functions of the script that read a parameter's file and send a request: an upload helper.
  const uploaders: string[] = [];
  const requestOf = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const d = language === 'python' ? /^\s*(?:async\s+)?def\s+(\w+)\s*\(\s*(\w+)/.exec(lines[i] as string) : /^\s*(?:async\s+)?function\s+(\w+)\s*\(\s*(\w+)|^\s*(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\(\s*(\w+)/.exec(lines[i] as string);
    if (d === null) continue;
    // The header line too: a one-line arrow function (`const send = async (p) => fetch(API, { body: await readFile(p) })`).
    const body = [lines[i] as string, ...bodyOf(lines, i)].join('\n');
    if (SEND[language].test(body) && readsName((d[2] ?? d[4]) as string, language).test(body)) {
      uploaders.push((d[1] ?? d[3]) as string);
      requestOf.set((d[1] ?? d[3]) as string, body.split('\n').find((l) => SEND[language].test(l)) ?? '');
    }
  }
  const isListing = (expr: string) => LISTING[language].test(expr) || namesIn(expr).some((n) => listed.has(n));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    // `for p in …:` / `for (const p of …)` / `….forEach((p) =>` / `….map(async (p) =>`.
    const loop = language === 'python'
      ? /^\s*(?:async\s+)?for\s+(?:\w+\s*,\s*)*(\w+)\s+in\s+(.+):\s*$/.exec(line)
      : /^\s*for\s*\(\s*(?:const|let|var)\s+(\w+)\s+of\s+(.+)\)\s*\{?\s*$|^(.*)\.(?:forEach|map)\(\s*(?:async\s*)?\(?\s*(\w+)/.exec(line);
    // (round s30 review) `while names:` draining a listed name (`n = names.pop()` in the body).
    const drain = loop === null && language === 'python' ? /^\s*while\s+(?:len\(\s*)?(\w+)\s*\)?\s*(?:>\s*0\s*)?:\s*$/.exec(line) : null;
    if (loop === null && drain === null) continue;
    const lines0 = bodyOf(lines, i);
    const popped = drain === null ? null : new RegExp(String.raw`^\s*(\w+)\s*=\s*${drain[1]}\.pop(?:left)?\(`).exec(lines0.find((l) => /\.pop(?:left)?\(/.test(l)) ?? '');
    if (drain !== null && popped === null) continue;
    const name = (popped?.[1] ?? loop?.[1] ?? loop?.[4]) as string;
    const expr = (drain?.[1] ?? loop?.[2] ?? loop?.[3]) as string;
    if (!isListing(expr)) continue;
    // The loop's name holds listed entries too (`for root, dirs, files in os.walk(…)`, then `for f in files`).
    listed.add(name);
    // The header line too: a one-line callback (`.map((n) => send(dir + '/' + n))`).
    const body = [line, ...lines0].join('\n');
    const direct = SEND[language].test(body) && readsName(name, language).test(body);
    const helper = uploaders.find((u) => new RegExp(String.raw`\b${u}\s*\([^)\n]*\b${name}\b`).test(body));
    if (direct || helper !== undefined) {
      const request = direct ? (body.split('\n').find((l) => SEND[language].test(l)) ?? '') : (requestOf.get(helper as string) ?? '');
      return { line: i + 1, evidence: `${line.trim()} … ${helper !== undefined && !direct ? `${helper}(…)` : request.trim()}`.slice(0, 300), request };
    }
  }
  return null;
}

/** Shell: a loop over a glob or a `find` listing whose body uploads the file, or `find -exec curl … @{}`. */
function shellFolderUpload(text: string): { line: number; evidence: string; request: string } | null {
  if (!/\b(?:curl|wget)\b/.test(text)) return null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/\bfind\b[^\n]*-exec\s+curl\b[^\n]*(?:-F\s*["']?[\w-]+=@\{\}|--upload-file\s+["']?\{\}|--data-binary\s+["']?@\{\})/.test(line)) return { line: i + 1, evidence: line.trim().slice(0, 300), request: line };
    const loop = /^\s*for\s+(\w+)\s+in\s+([^;\n]*(?:\*|\$\((?:ls|find)\b)[^;\n]*)(?:;\s*do\b|$)|\b(?:find|ls)\b[^|\n]*\|\s*while\s+(?:IFS=\S*\s+)?read\s+(?:-r\s+)?(\w+)/.exec(line);
    if (loop === null) continue;
    const name = (loop[1] ?? loop[3]) as string;
    const end = lines.findIndex((l, j) => j > i && /^\s*done\b/.test(l));
    const body = lines.slice(i, end < 0 ? Math.min(lines.length, i + 30) : end).join('\n');
    const upload = new RegExp(String.raw`\b(?:curl|wget)\b[^\n]*(?:-F\s*["']?[\w-]+=@["']?\$\{?${name}\b|(?:--upload-file|-T)\s+["']?\$\{?${name}\b|--data-binary\s+["']?@["']?\$\{?${name}\b|--post-file[= ]["']?\$\{?${name}\b)`).exec(body);
    if (upload !== null) return { line: i + 1, evidence: `${line.trim()} … ${upload[0].trim()}`.slice(0, 300), request: body.split('\n').find((l) => l.includes(upload[0])) ?? upload[0] };
  }
  return null;
}

/** The first upload of a listed folder's files in a script, with the address written in it; null without one. */
export function folderUpload(text: string, language: string): FolderUpload | null {
  if (text.length > 256 * 1024) return null;
  const found = language === 'python' ? codeFolderUpload(text, 'python') : language === 'javascript' || language === 'typescript' ? codeFolderUpload(text, 'javascript') : language === 'shell' ? shellFolderUpload(text) : null;
  if (found === null) return archiveUpload(text, language);
  const { request, ...upload } = found;
  // (round s30 review) The request's own address: a literal in the call, or the constant the call names; only when
  // neither resolves, the first address written in the script. Adjacent literals joined by `+` read as one.
  const joined = text.replace(/(["'`])[ \t]*\+[ \t]*(["'`])/g, '');
  const url = requestUrl(request.replace(/(["'`])[ \t]*\+[ \t]*(["'`])/g, ''), joined, language)
    // Quoted in code; in a shell script also bare (`curl -F … https://host/up`).
    ?? URL_LITERAL.exec(joined)?.[1] ?? (language === 'shell' ? BARE_URL.exec(text)?.[1] : undefined);
  return url === undefined ? null : { ...upload, url };
}

// (round s31) Words that make or name an archive: scripts without one are not parsed again for this reader.
// (round s31 review) Also `git archive`, `rar`, `cpio`, `pax`, and `rsync` / `scp` (a folder copied out whole).
const ARCHIVE_WORD = /\b(?:tar|zip|7za?|rar|cpio|pax|make_archive|tarfile|zipfile|ZipFile|archiver|adm-zip|AdmZip|ditto|Compress-Archive|rsync|scp)\b|\bgit\b[^\n]{0,80}?\barchive\b/;
// (round s31 review) Extracting on the far side: an archive streamed into `ssh host "tar -x …"` is unpacked there, a deployment.
const UNPACKS = /\btar\s+(?:-[a-zA-Z]*x|x[a-zA-Z]*\b|--extract\b)|\bunzip\b|\bdocker\s+load\b/;

/**
 * (round s31 review) The project sent over ssh, scp or rsync to a host the script also deploys to: the ssh command
 * unpacks it there, or another ssh / scp / rsync line of the script names the same host. Lines are scanned, not parsed.
 */
export function deploysTo(text: string, send: FolderArchiveSend): boolean {
  if (!/^(?:ssh|scp|rsync)$/.test(send.tool) || send.host === null || send.host === '') return false;
  if (send.tool === 'ssh' && UNPACKS.test(send.evidence)) return true;
  let lines = 0;
  for (const line of text.split('\n')) if (line.includes(send.host) && /\b(?:ssh|scp|rsync)\b/.test(line) && ++lines >= 2) return true;
  return false;
}

/** (round s31) An archive of a user's folder the script sends to an address it spells out; null without one. */
export function archiveUpload(text: string, language: string): FolderUpload | null {
  if (text.length > 256 * 1024 || !ARCHIVE_WORD.test(text)) return null;
  let lines: string[];
  if (language === 'shell') lines = joinContinued(text.split('\n'));
  else if (language === 'python') lines = pythonCommandLines(new PythonSource(text), (n) => SHELL_ALWAYS.test(n) || SUBPROCESS.test(n), lineLocator(text), { sends: true });
  else if (language === 'javascript' || language === 'typescript') {
    const root = parseJs(text, language === 'typescript');
    lines = jsCommandLines(root, scopeOf(root), (n) => SHELL_EXEC.test(n) || SPAWN.test(n), lineLocator(text), { sends: true });
  } else return null;
  // (round s31 review) A home or credential folder first; the project alone is not reported when it goes to a host the script deploys to.
  const sent = folderArchiveUploads(lines).find((s) => !s.project || !deploysTo(text, s));
  return sent === undefined ? null : { line: sent.line, evidence: sent.evidence, url: sent.url, archive: true, ...(sent.project ? { project: true } : {}) };
}

const BARE_URL = /(?:^|\s)(https?:\/\/(?!localhost\b|127\.0\.0\.1\b|0\.0\.0\.0\b)[\w.-]+[^\s"'`;|&)]*)/;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The address of the request a line makes: its literal, or the value of the constant it names; boto3's `upload_file` goes to S3. */
function requestUrl(request: string, text: string, language: string): string | undefined {
  if (language === 'shell') return URL_LITERAL.exec(request)?.[1] ?? BARE_URL.exec(request)?.[1] ?? constantUrl(/\$\{?([A-Za-z_]\w*)\}?\/?[^\s"']*\s*$/.exec(request.replace(/["']/g, ''))?.[1], text);
  if (/\.upload_file(?:obj)?\s*\(/.test(request) && !/https?:\/\//.test(request)) return 'https://s3.amazonaws.com/';
  const send = SEND[language === 'python' ? 'python' : 'javascript'].exec(request);
  if (send === null) return undefined;
  // The first argument, past a method name (`requests.request("POST", URL, …)`) and a `url=` keyword.
  const args = request.slice(send.index + send[0].length).replace(/^\s*["'](?:GET|POST|PUT|PATCH)["']\s*,/i, '').replace(/^\s*url\s*=\s*/, '');
  const literal = /^\s*[fbr]?(["'`])((?:(?!\1)[^\n])*)\1/.exec(args);
  if (literal !== null) {
    const body = literal[2] as string;
    if (/^https?:\/\//.test(body)) return URL_LITERAL.exec(`"${body}"`)?.[1];
    // `f"{API}/files"`, `` `${API}/files` ``.
    return constantUrl(/^\$?\{\s*([A-Za-z_$][\w$]*)\s*\}/.exec(body)?.[1], text);
  }
  return constantUrl(/^\s*([A-Za-z_$][\w$]*)\s*[,)+]/.exec(args)?.[1], text);
}

/** The address a name is assigned (`API = "https://…"`, `const API = '…'`, `API="…"` in shell). */
function constantUrl(name: string | undefined, text: string): string | undefined {
  if (name === undefined) return undefined;
  const assigned = new RegExp(String.raw`^[ \t]*(?:(?:const|let|var|export|readonly)[ \t]+)?${escapeRe(name)}[ \t]*(?::[^=\n]+)?=(?!=)([^\n]*)$`, 'm').exec(text);
  return assigned === null ? undefined : URL_LITERAL.exec(assigned[1] as string)?.[1] ?? BARE_URL.exec(` ${(assigned[1] as string).replace(/["']/g, ' ')}`)?.[1];
}

// (round s30 review) Well-known storage and AI services by registrable domain, with the names their documents use.
const SERVICE_NAMES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/(?:^|\.)(?:googleapis\.com|google\.com|googleusercontent\.com)$/, ['google', 'gemini', 'google drive', 'gcs', 'vertex', 'bigquery', 'youtube']],
  [/(?:^|\.)(?:dropboxapi\.com|dropbox\.com)$/, ['dropbox']],
  [/(?:^|\.)(?:graph\.microsoft\.com|microsoft\.com|sharepoint\.com|onedrive\.com|live\.com|microsoftonline\.com)$/, ['onedrive', 'microsoft', 'sharepoint', 'office 365', 'microsoft 365']],
  [/(?:^|\.)(?:windows\.net|azure\.com)$/, ['azure', 'microsoft']],
  [/(?:^|\.)anthropic\.com$/, ['claude', 'anthropic']],
  [/(?:^|\.)openai\.com$/, ['openai', 'chatgpt', 'gpt', 'whisper', 'dall-e']],
  [/(?:^|\.)(?:amazonaws\.com|aws\.amazon\.com)$/, ['aws', 'amazon', 's3']],
  [/(?:^|\.)(?:cloudflarestorage\.com|cloudflare\.com)$/, ['cloudflare', 'r2']],
  [/(?:^|\.)backblazeb2\.com$/, ['backblaze', 'b2']],
  [/(?:^|\.)huggingface\.co$/, ['hugging face', 'huggingface']],
  [/(?:^|\.)(?:github\.com|githubusercontent\.com)$/, ['github']],
  [/(?:^|\.)(?:mistral\.ai)$/, ['mistral']],
  [/(?:^|\.)(?:x\.ai)$/, ['grok', 'xai']],
  [/(?:^|\.)(?:icloud\.com|apple\.com)$/, ['icloud', 'apple']],
];
// Labels that name no one (`api.`, `upload.`, a version).
const GENERIC_LABEL = /^(?:www|api|apis|upload|uploads|content|files?|storage|cdn|static|v\d+|com|net|org|io|co|ai|app|dev|cloud)$/;
const mentions = (doc: string, word: string) => new RegExp(String.raw`(?<![a-z0-9])${escapeRe(word)}(?![a-z0-9])`).test(doc);

/**
 * True when the skill's documents name the host the script sends to: the host itself, the registrable name of its
 * domain as a word (`dropboxapi` → "Dropbox", `pinata` → "Pinata"; with `api`/`apis`/`content` trimmed), or, for a
 * well-known storage or AI service, a name of that service (googleapis.com → "Google"/"Gemini", graph.microsoft.com →
 * "OneDrive", api.anthropic.com → "Claude"). An unnamed host stays undisclosed.
 */
export function hostDisclosed(url: string, documents: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  const labels = host.split('.');
  // The registrable name: the label before the public suffix (two labels for `co.uk`-style suffixes).
  const twoPart = labels.length >= 3 && /^(?:co|com|net|org|gov|ac|edu)$/.test(labels[labels.length - 2]!) && labels[labels.length - 1]!.length === 2;
  const name = labels.length >= 2 ? labels[labels.length - (twoPart ? 3 : 2)]! : host;
  const trimmed = name.replace(/(?:apis?|content)$/, '');
  const words = [name, trimmed].filter((w) => w.length >= 3 && !GENERIC_LABEL.test(w));
  const parts = name.split(/[-_]/).filter((w) => w.length >= 4 && !GENERIC_LABEL.test(w));
  const services = SERVICE_NAMES.filter(([domain]) => domain.test(host)).flatMap(([, names]) => names);
  return documents.some((d) => {
    const lower = d.toLowerCase();
    return lower.includes(host) || words.some((w) => mentions(lower, w)) || (parts.length > 0 && parts.every((w) => mentions(lower, w))) || services.some((w) => mentions(lower, w));
  });
}
