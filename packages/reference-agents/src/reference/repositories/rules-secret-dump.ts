import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { revealHiddenText } from '../text/hidden-text.js';
import { LineIndex } from './line-index.js';
import { withEmbeddedAssignments } from './run-code-findings.js';
import { registrableDomain } from './endpoint-host.js';
import { secretHandoffs } from '../text/secret-handoff-text.js';

/**
 * A coding agent's instruction file (AGENTS.md, CLAUDE.md, Cursor/Windsurf rules, copilot-instructions,
 * GEMINI.md …) that has the agent send secrets in bulk over the network (round s30; in-sample: held-out
 * set 31's "CI dashboard" step in AGENTS.md): a command, in a code block, a code span or a line, whose
 * request carries the whole environment (`env`, `printenv`, `Get-ChildItem Env:`, `process.env` or
 * `os.environ` serialized) or a credential file (`.env`, `~/.aws/credentials`, `~/.ssh/id_*`, `.npmrc` …),
 * directly or through a variable, to a host that is neither the machine nor one the project's README and
 * manifests name as its own. In an instruction file every command is addressed to the agent, so no
 * "always" is needed for it to be an order; a block or a line that forbids what it shows, or shows it
 * as an attack, is not one. A single named token sent as a header to its own service is not a bulk send
 * and is left to the other rules.
 */

export const RULES_SECRET_DUMP_TITLE = 'agent instructions have the agent send the environment or credential files to an outside host';

const SENDER = /\b(?:curl|wget|Invoke-RestMethod|Invoke-WebRequest|irm|iwr|nc|ncat)\b|\b(?:http|https|xh)\s+(?:-\S+\s+)*(?:POST|PUT|PATCH)\b/i;
// (round s31) An interpreter one-liner (`python3 -c "…"`, `node -e "…"`, `deno eval`, `ruby -e`, `perl -e`, `php -r`) that
// makes a request: a sender as curl is. (round s31 review) Flags before it may carry a value attached (`ruby -rnet/http -e`,
// `perl -MHTTP::Tiny -e`), and the code may follow the flag without a space (`python3 -c"…"`).
const ONE_LINER = /\b(?:python[23]?(?:\.\d+)?|py|node|nodejs|deno|bun|ruby|perl|php)(?:\.exe)?\s+(?:-\S+\s+){0,4}?(?:-c|-e|-E|-r|-p|--eval|--print|eval)(?=[\s"'])/i;
const CODE_NETWORK =
  /\burlopen\s*\(|\burllib\.request\b|\brequests\.(?:post|put|patch|get|request)\s*\(|\bhttpx\.(?:post|put|patch|get|request|Client)\b|\bhttp\.client\b|\bfetch\s*\(|\bhttps?\.(?:request|get)\s*\(|\brequire\(\s*['"](?:node:)?https?['"]\s*\)\s*\.(?:request|get)\b|\bXMLHttpRequest\b|\baxios\b|\bNet::HTTP\b|\bLWP::|\bHTTP::Tiny\b|\bsocket\.(?:create_connection|socket)\b|\bnet\.connect\b/;
/** A command that sends: curl, wget, nc, PowerShell's web cmdlets, HTTPie, or an interpreter one-liner making a request. */
function sends(text: string): boolean {
  return SENDER.test(text) || (ONE_LINER.test(text) && CODE_NETWORK.test(text));
}
// The environment listed whole (a redirect after `env`/`printenv` writes it to a file: round s31). In code (a one-liner), the
// environment object handed on whole: `str(os.environ)`, `data=os.environ`, `{**os.environ}`, `JSON.stringify(process.env)`,
// `{...process.env}`, `Deno.env.toObject()`, Ruby's `ENV.to_h`, Perl's `%ENV` (not one variable: `os.environ['HOME']`, `process.env.X`).
const ENV_DUMP =
  /(?:^|[|;&(`{]\s*|\$\(\s*)(?:env|printenv|export\s+-p)(?:\s+(?:-0|--null))?\s*(?=[|;&)`}>]|$)|\$\(\s*set\s*\)|(?:^|[;&(]\s*)set\s*[|>]|\/proc\/self\/environ\b|\b(?:Get-ChildItem|gci|dir|ls)\s+env:|\[(?:System\.)?Environment\]::GetEnvironmentVariables\(\)|\bJSON\.stringify\(\s*process\.env\b|\bdict\(\s*os\.environ\s*\)|\bjson\.dumps\(\s*(?:dict\()?\s*os\.environ\b|(?:[(,=:]\s*|\*\*|\.\.\.)(?:os\.environ\b(?!\s*(?:\[|\.(?:get|setdefault|pop)\b))|process\.env\b(?!\s*(?:\.[A-Za-z_$]|\[|\?\.))|Deno\.env\.toObject\(\)|ENV\.(?:to_h|to_a|inspect)\b|\\?%ENV\b)|\bos\.environ\.(?:copy|items)\(\)/i;
const CREDENTIAL_FILE = String.raw`(?:\.env(?!\.(?:example|sample|template|dist|defaults|vault)\b)(?:\.[\w-]+)?(?![\w-])|\.aws[\\/]credentials\b|\.ssh[\\/]id_\w+|\.npmrc\b|\.netrc\b|\.pypirc\b|\.git-credentials\b|\.docker[\\/]config\.json\b|\.kube[\\/]config\b|\.claude[\\/]\.credentials\.json\b|\.config[\\/]gh[\\/]hosts\.yml\b)`;
// A credential file read, archived, copied or attached: `cat .env`, `base64 ~/.ssh/id_rsa`, `cp ~/.npmrc /tmp/x` (round s31),
// `-F f=@.env`, `--data-binary @~/.npmrc`, `-T .env`.
const FILE_READ = new RegExp(
  String.raw`(?:\b(?:cat|type|Get-Content|gc|base64|gzip|xxd|cp|mv|copy|Copy-Item|tar\s+-?c\w*|zip\s+-?\w*\s+\S+)\s+(?:-\S+\s+){0,3}|[@<]\s*|\s-T\s+|--upload-file[=\s]|--post-file[=\s]|--body-file[=\s]|-InFile\s+)["']?(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)?[\\/]?(?:[\w.-]{1,80}[\\/]){0,6}${CREDENTIAL_FILE}`,
  'i',
);
// (round s31) A credential file among an archive's members (`tar czf /tmp/b.tgz .env ~/.aws/credentials`), or opened by code in a one-liner.
const ARCHIVE_READ = new RegExp(String.raw`\b(?:tar|zip|7z|Compress-Archive)\b[^\n|;&]{0,200}?[\s"'=,](?:~|\$HOME|\$\{HOME\})?[\\/]?(?:[\w.-]{1,80}[\\/]){0,6}${CREDENTIAL_FILE}`, 'i');
const CODE_FILE_READ = new RegExp(String.raw`\b(?:open|readFileSync|readFile|read_text|read_bytes|File\.read|IO\.read|file_get_contents)\s*\([^)\n]{0,120}?${CREDENTIAL_FILE}`, 'i');
// (round s31) Where a line that carries secrets writes them: a redirect, tee, Out-File/Set-Content, a copy's destination, an archive.
const WRITE_TARGET =
  /(?:>{1,2}|\|\s*tee\s+(?:-a\s+)?|\b(?:Out-File|Set-Content|Add-Content)\s+(?:-(?:FilePath|Path)\s+)?|\btar\s+-?[a-zA-Z]*f\s+|--file[=\s]|\bzip\s+(?:-\S+\s+){0,4}|-DestinationPath\s+|\b(?:cp|mv|copy|Copy-Item)\s+(?:-\S+\s+){0,3}[^\s|;&]+\s+)\s*["']?([^\s"'|;&)<>]+)/gi;
const WRITES_FILE = new RegExp(WRITE_TARGET.source, 'i');
const SHELL_ASSIGN = /^\s*(?:export\s+|local\s+|readonly\s+)?\$?([A-Za-z_]\w*)\s*=\s*(.*)$/;
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\])$/i;
// A block or a line that forbids what it shows, or shows it as an attack.
// (round s30 review) The forbidden verb's object must be what is shown ("never run this", "do not run the following:"),
// not another thing ("we never run tests without the dashboard, so first do:"); "refuse" and "recognise" say it too.
const FORBIDS =
  /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|avoid)\s+(?:ever\s+)?(?:run|execute|use|copy|paste|type|try|send|post|upload)(?:ing)?(?:\s+(?:this|these|that|those|the\s+following|it|them|anything|any\b|such|commands?|(?:the|a)\s+(?:command|snippet|block|code|script|line)s?)\b|\s*[:.!]|\s*$)|\b(?:refuse|recogni[sz]e|malicious|attackers?|what\s+not\s+to\s+do|an?\s+example\s+of\s+(?:an?\s+)?(?:attack|exfiltration)|prompt\s+injection)\b/im;
// A secrets manager's or a deployment platform's API: environment files and variables are what it stores.
const SECRETS_SERVICE =
  /(?:^|\.)(?:doppler\.com|dotenv\.org|infisical\.com|hashicorp\.cloud|vault\.azure\.net|1password\.com|bitwarden\.com|akeyless\.io|envkey\.com|onboardbase\.com|phase\.dev|api\.vercel\.com|api\.netlify\.com|api\.heroku\.com|api\.render\.com|backboard\.railway\.app|api\.fly\.io)$/i;
// The environment filtered to a prefix (`env | grep '^CI_'`): some variables, not the whole environment.
const FILTERED_ENV = /\b(?:env|printenv)\s*\|\s*grep\s+(?:-[EFPw]+\s+)*['"]?\^[A-Za-z_]/g;
// A host given to curl or wget without a scheme (`collector.example.net/ingest`), or to nc/ncat (`nc host 443`).
const BARE_HOST_ARG = /(?:^|\s)["']?((?:[a-z0-9-]+\.)+[a-z]{2,24})(?::\d{1,5})?(?:\/[^\s"']*)?["']?(?=\s|$)/gi;
const NETCAT_HOST = /\b(?:nc|ncat|netcat)\s+(?:-\S+\s+){0,4}([\w-]+(?:\.[\w-]+)+|\[[^\]]+\])\s+\d{1,5}\b/i;
const FILE_EXTENSION = /\.(?:json|txt|env|sh|py|js|ts|md|ya?ml|toml|log|csv|xml|html?|tar|gz|tgz|zip|pem|key|crt|conf|cfg|ini|lock|out|bin|dat|credentials|vault)$/i;
const NEGATED_LINE = /\b(?:never|not|don['’]t|do\s+not|must\s+not|should\s+not|avoid)\b/i;
// Code hosts, paste and package services: naming one in the README does not make it the project's own service.
const SHARED_HOST = /(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|gist\.github\.com|shields\.io|npmjs\.(?:com|org)|pypi\.org|crates\.io|docs\.rs|readthedocs\.(?:io|org)|codecov\.io|coveralls\.io|pastebin\.com|discord\.(?:gg|com)|slack\.com|x\.com|twitter\.com|opencollective\.com|sourceforge\.net|google\.com|microsoft\.com|python\.org|nodejs\.org|example\.(?:com|org|net))$/i;

/** A file of the project that says where it lives: a manifest, the README, a GitHub Pages CNAME, a docs site's configuration. */
export interface ProjectFile {
  path: string;
  text: string;
}

// (round s31) What a README line says a link is: the project's home page, website or documentation.
const SITE_LABEL = String.raw`(?:official\s+)?(?:home\s*page|home|website|web\s*site|site|docs|documentation|guide|manual|project\s+(?:page|site))`;
const LABEL_BEFORE = new RegExp(String.raw`(?:^|[\s|*_>#(\[\-:])${SITE_LABEL}[*_]*\s*[:：][\s*_<]*$`, 'i');
// (round s31 review) A link's text may lead with a few words before the label: `[the docs](…)`, `[our documentation](…)`, `[read the full guide](…)`.
const LABEL_TEXT = new RegExp(String.raw`^[^\w]{0,6}(?:(?:see|read|the|our|full)\s+){0,3}${SITE_LABEL}[^\w]{0,6}$`, 'i');
const MARKDOWN_LINK_TEXT = /\[([^[\]\n]{1,80})\]\(\s*<?$|`([^`<\n]{1,80})\s<$/;
const HTML_LINK_TEXT = /^["']?[^>\n]{0,200}>\s*((?:<(?!\/?a\b)[^>\n]{0,200}>\s*)*)([^<\n]{1,80})<\/a>/i;
// A URL that is an image: a markdown image's or an HTML src, or a path that names a picture or a badge.
const IMAGE_BEFORE = /!\[[^\]\n]*\]\(\s*<?$|\b(?:src|srcset|poster|data-src|background)\s*=\s*["']?$/i;
const IMAGE_URL = /\.(?:svg|png|gif|jpe?g|webp|ico|bmp|avif)(?:[?#]|$)|\/badges?\b|badge\.svg|\/shields?\//i;
// A link whose text is an image (a badge: `[![CI](…/badge.svg)](https://ci…)`, `<a href="…"><img …>`).
const BADGE_LINK_BEFORE = /\]\([^)\n]*\)\s*\]\(\s*<?$/;
const README_URL = /https?:\/\/([\w-]+(?:\.[\w-]+)+)[^\s)"'<>\]`]*/gi;
// Manifest fields that give the project's own addresses (package.json's are read from its JSON).
const MANIFEST_URL_KEY = /^\s*["']?(?:homepage|home[-_ ]?page|documentation|docs|repository|source|url|download[-_]url|website|bug[-_ ]?tracker|issues|changelog)["']?\s*[=:]\s*["']?(https?:\/\/[^\s"',]+)/i;
const URLS_BLOCK_START = /^\s*(?:\[(?:project\.urls|tool\.poetry\.urls|urls)\]|["']?project_urls["']?\s*[=:(]\s*(?:dict\(|\{)?\s*$)/i;
const ANY_URL_VALUE = /^\s*["']?[\w .-]{1,40}["']?\s*[=:]\s*["']?(https?:\/\/[^\s"',]+)/;

function hostOf(url: string): string | null {
  const host = /^https?:\/\/([\w-]+(?:\.[\w-]+)+)/i.exec(url)?.[1]?.toLowerCase().replace(/^www\./, '');
  return host === undefined || SHARED_HOST.test(host) ? null : host;
}

/** package.json's homepage, repository and bugs addresses. */
function packageJsonUrls(text: string): string[] {
  try {
    const m = JSON.parse(text) as Record<string, unknown>;
    const url = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'object' && v !== null && typeof (v as { url?: unknown }).url === 'string' ? (v as { url: string }).url : undefined);
    return [url(m.homepage), url(m.repository), url(m.bugs)].filter((u): u is string => u !== undefined).map((u) => u.replace(/^git\+/, ''));
  } catch {
    return [];
  }
}

/** A TOML, setup.cfg or setup.py manifest's metadata addresses: its URL keys, and every entry of its urls table or project_urls. */
function manifestUrls(text: string): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n').slice(0, 5000)) {
    if (/^\s*\[/.test(line)) inBlock = false;
    if (URLS_BLOCK_START.test(line)) {
      inBlock = true;
      continue;
    }
    // An inline table (`urls = { Homepage = "…" }`) gives all its addresses on one line.
    if (/^\s*urls\s*=\s*\{/.test(line)) for (const m of line.matchAll(/https?:\/\/[^\s"',}]+/g)) out.push(m[0]);
    const keyed = MANIFEST_URL_KEY.exec(line)?.[1] ?? (inBlock ? ANY_URL_VALUE.exec(line)?.[1] : undefined);
    if (keyed !== undefined) out.push(keyed);
    else if (inBlock && !/^\s*$/.test(line) && !/^\s+/.test(line) && !/^\s*[\w"' .-]+\s*[=:]/.test(line)) inBlock = false;
    if (inBlock && /^\s*[})]/.test(line)) inBlock = false;
  }
  return out;
}

/** Link text that says the link is the project's site: a label (Website, Docs…), the address itself, or the domain's name. */
function namesItself(linkText: string, host: string): boolean {
  if (LABEL_TEXT.test(linkText)) return true;
  const text = linkText.toLowerCase().replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/\/$/, '');
  if (text === host) return true;
  const name = registrableDomain(host).split('.')[0] ?? '';
  return name.length >= 3 && text.replace(/[\s._-]/g, '') === name.replace(/-/g, '');
}

/**
 * A README's links that say they are the project's (round s31): never an image or a badge (a link whose text is an image),
 * nor a URL in a code block or an HTML comment. A link labelled as the home page, website or documentation
 * (`Docs: https://…`, `[Documentation](https://…)`, `**Website:** <https://…>`, `<a href="…">Docs</a>`), one whose text is its
 * own address or its domain's name (`[Initech](https://initech.io)`; reStructuredText's `` `Docs <https://…>`_ `` too), or a URL alone on its line counts; any other link counts
 * only when its registrable domain is linked on two lines or more. (round s31 review) A label may lead with a few words (`[the docs](…)`),
 * and a link whose registrable domain is named after the package or the repository (`names`, from the manifests) counts.
 */
function readmeHosts(text: string, names: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const prose = new Map<string, { hosts: string[]; lines: Set<number> }>();
  const lines = text.slice(0, 200_000).replace(/<!--[\s\S]*?-->/g, '').replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, '').split('\n');
  lines.forEach((line, i) => {
    if (line.length > 4000) return;
    for (const m of line.matchAll(README_URL)) {
      const host = hostOf(m[0]);
      if (host === null) continue;
      const before = line.slice(0, m.index);
      const after = line.slice(m.index + m[0].length);
      if (IMAGE_BEFORE.test(before) || IMAGE_URL.test(m[0]) || BADGE_LINK_BEFORE.test(before)) continue;
      if (/<a\b[^>]*\bhref\s*=\s*["']?$/i.test(before) && /^["']?[^>\n]*>\s*<img\b/i.test(after)) continue;
      const bare = /^\s*(?:[-*+>]\s*|\d+\.\s*)?[*_<]*$/.test(before) && /^[>*_/]*\s*$/.test(after);
      // The link's text: a markdown link's, or an HTML anchor's (an image inside it makes it a badge).
      const html = /<a\b[^>]*\bhref\s*=\s*["']?$/i.test(before) ? HTML_LINK_TEXT.exec(after) : null;
      if (html !== null && /<img\b/i.test(html[1] ?? '')) continue;
      const markdown = MARKDOWN_LINK_TEXT.exec(before);
      const linkText = (markdown?.[1] ?? markdown?.[2] ?? html?.[2] ?? '').trim();
      // (round s31 review) A link to a registrable domain named after the package or the repository (`-` and `_` ignored).
      const named = names.size > 0 && names.has((registrableDomain(host).split('.')[0] ?? '').replace(/[-_]/g, ''));
      if (bare || named || LABEL_BEFORE.test(before) || (linkText !== '' && namesItself(linkText, host))) {
        out.push(host);
        continue;
      }
      const domain = registrableDomain(host);
      const entry = prose.get(domain) ?? { hosts: [], lines: new Set<number>() };
      entry.hosts.push(host);
      entry.lines.add(i);
      prose.set(domain, entry);
    }
  });
  for (const { hosts, lines: at } of prose.values()) if (at.size >= 2) out.push(...hosts);
  return out;
}

/**
 * Hosts the project names as its own (round s31: from stronger evidence than any link). A manifest's metadata addresses
 * (package.json homepage, repository, bugs; pyproject's, Cargo's, setup.cfg's and setup.py's homepage, documentation,
 * repository, url and project URLs table), a GitHub Pages CNAME, mkdocs' site_url, and the README's links that say they
 * are the project's (`readmeHosts`); code hosts and shared services left out. A text given without a path is read as a README.
 */
export function projectOwnHosts(files: ReadonlyArray<string | ProjectFile>): string[] {
  const out = new Set<string>();
  const names = new Set<string>();
  for (const f of files) if (typeof f !== 'string' && f.text.length <= 1_000_000) for (const n of manifestNames(f.path, f.text)) if (names.size < 20) names.add(n);
  const add = (urls: readonly string[]) => {
    for (const u of urls) {
      const host = /^https?:\/\//i.test(u) ? hostOf(u) : u;
      if (host !== null && out.size < 200) out.add(host);
    }
  };
  for (const f of files) {
    const { path, text } = typeof f === 'string' ? { path: 'README.md', text: f } : f;
    const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
    if (text.length > 1_000_000) continue;
    if (base === 'package.json') add(packageJsonUrls(text));
    else if (/^(?:pyproject\.toml|cargo\.toml|setup\.cfg|setup\.py)$/.test(base)) add(manifestUrls(text));
    else if (base === 'cname') {
      const name = text.trim().split('\n')[0]?.trim().toLowerCase().replace(/^www\./, '') ?? '';
      if (/^[\w-]+(?:\.[\w-]+)+$/.test(name) && !SHARED_HOST.test(name)) add([name]);
    } else if (/^mkdocs\.ya?ml$/.test(base)) add([...text.slice(0, 100_000).matchAll(/^site_url:\s*["']?(https?:\/\/[^\s"']+)/gm)].map((m) => m[1]!));
    else add(readmeHosts(text, names));
  }
  return [...out];
}

/**
 * (round s31 review) The package's and the repository's names a manifest gives, lower-cased with `-` and `_` removed (4+ characters):
 * package.json's `name` (a scope left out), the `name` of pyproject's `[project]`/`[tool.poetry]`, Cargo's `[package]`, setup.cfg's
 * `[metadata]` and setup.py's `setup(name=…)`, and the repository's name in a `repository`/`homepage`/`source`/`url` line on a code host.
 */
function manifestNames(path: string, text: string): string[] {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const out: string[] = [];
  if (base === 'package.json') {
    try {
      const m = JSON.parse(text) as { name?: unknown; repository?: unknown };
      if (typeof m.name === 'string') out.push(m.name.replace(/^@[^/]*\//, ''));
      const repository = typeof m.repository === 'string' ? m.repository : typeof m.repository === 'object' && m.repository !== null ? (m.repository as { url?: unknown }).url : undefined;
      if (typeof repository === 'string') out.push(/(?:github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)[/:][\w.-]+\/([\w.-]+?)(?:\.git)?\/?$/.exec(repository)?.[1] ?? (/^(?:github:)?[\w.-]+\/([\w.-]+)$/.exec(repository)?.[1] ?? ''));
    } catch {
      return [];
    }
  } else if (/^(?:pyproject\.toml|cargo\.toml|setup\.cfg|setup\.py)$/.test(base)) {
    let section = '';
    for (const line of text.split('\n').slice(0, 5000)) {
      const header = /^\s*\[([^\]]+)\]/.exec(line)?.[1];
      if (header !== undefined) section = header.trim().toLowerCase();
      const name = /^\s*["']?name["']?\s*[=:]\s*["']([\w.-]+)["']|^\s*name\s*[=:]\s*([\w.-]+)\s*$/.exec(line);
      if (name !== null && (base === 'setup.py' || /^(?:project|tool\.poetry|package|metadata)$/.test(section))) out.push(name[1] ?? name[2] ?? '');
      const repo = /^\s*["']?(?:repository|homepage|source(?:[ _-]?code)?|url)["']?\s*[=:][^\n]*?(?:github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)[/:][\w.-]+\/([\w-]+(?:\.(?!git\b)[\w-]+)*)/i.exec(line);
      if (repo !== null) out.push(repo[1]!);
    }
  }
  return out.map((n) => n.toLowerCase().replace(/[-_]/g, '')).filter((n) => n.length >= 4);
}

/**
 * (round s31) Addresses an instruction file gives a name to, and the text with each use of the name read as its address:
 * `ENDPOINT=https://…` (shell, `set`, `export`, PowerShell `$env:X = '…'`), `NAME: https://…`, `NAME is/to/as https://…`,
 * a table row `| NAME | https://… |`, a placeholder `<NAME>` / `{{name}}` defined so. Uses: `$NAME`, `${NAME}`, `$env:NAME`,
 * `%NAME%`, `<NAME>`, `{NAME}`, `{{ NAME }}`, and a bare upper-case name with an underscore (`COLLECTOR_URL`). A name given two
 * addresses is read as both (a decoy localhost first does not hide the second).
 */
const BINDING =
  /(?:^|[\s;&(`'"|*])(?:export\s+|set\s+|local\s+|readonly\s+|\$env:|\$(?:script:|global:)?|<|\{\{\s*|\$\{|\{|%)?([A-Za-z_][\w-]{1,40})(?:>|\s*\}\}|\}|%)?[`*"']{0,3}\s*(?::=|=|:|->|→|\||\bis\b|\bto\b|\bas\b|\bwith\b)\s*[`*"'<(]{0,3}\s*(https?:\/\/[^\s"'`<>)\]|]+)/gi;
const USE =
  /\$\{([A-Za-z_][\w-]{0,40})\}|\$env:([A-Za-z_]\w{0,40})|\$(?:script:|global:)?([A-Za-z_]\w{0,40})(?![\w:])|%([A-Za-z_]\w{0,40})%|<([A-Za-z_][\w-]{0,40})>|\{\{\s*([A-Za-z_][\w-]{0,40})\s*\}\}|\{([A-Za-z_][\w-]{0,40})\}|\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g;

export function withBoundUrls(text: string, context = ''): { text: string; urls: string[] } {
  if (text.length > 512 * 1024 || !/https?:\/\//i.test(text + context.slice(0, 256 * 1024))) return { text, urls: [] };
  const bound = new Map<string, string[]>();
  for (const m of [...text.matchAll(BINDING), ...context.slice(0, 256 * 1024).matchAll(BINDING)]) {
    const name = m[1]!.toLowerCase();
    const url = m[2]!.replace(/[.,;:]+$/, '');
    const urls = bound.get(name) ?? [];
    if (!urls.includes(url) && urls.length < 3 && bound.size < 200) bound.set(name, [...urls, url]);
  }
  if (bound.size === 0) return { text, urls: [] };
  const used: string[] = [];
  const resolved = text.replace(USE, (whole, ...names: Array<string | undefined>) => {
    const name = names.slice(0, 8).find((n) => n !== undefined);
    const urls = name === undefined ? undefined : bound.get(name.toLowerCase());
    if (urls === undefined) return whole;
    for (const u of urls) if (!used.includes(u)) used.push(u);
    return urls.join(' ');
  });
  return { text: resolved, urls: used };
}

interface Script {
  body: string;
  /** Offset in the text of each line of the body. */
  offsets: number[];
  /** The prose before it, read for a prohibition. */
  lead: string;
  /** (round s31) A fenced block of an interpreter's language (python, js, node, ts, ruby, perl, php): code, not commands. */
  code?: boolean;
}

const CODE_LANGUAGE = /^(?:python[23]?|py|javascript|js|node|mjs|cjs|typescript|ts|ruby|rb|perl|pl|php)$/i;

/**
 * Fenced blocks (each one script, with its lead-in lines); outside them, each line that sends (its code spans, or the line);
 * and (round s31) all the code spans outside blocks read in order as one script, so a file written in one span and uploaded
 * in a later one is one flow. Lines that forbid what they show, or follow a line that does, are left out of that script.
 */
function scripts(visible: string): Script[] {
  const out: Script[] = [];
  const lines = visible.split('\n');
  let offset = 0;
  let fence: { marker: string; lead: string; body: string[]; offsets: number[]; code: boolean } | null = null;
  const spans: { body: string[]; offsets: number[] } = { body: [], offsets: [] };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const here = offset;
    offset += line.length + 1;
    const opening = /^\s*(```|~~~)[ \t]*([\w+-]*)/.exec(line);
    const marker = opening?.[1];
    if (fence !== null) {
      if (marker === fence.marker) {
        out.push({ body: fence.body.join('\n'), offsets: fence.offsets, lead: fence.lead, code: fence.code });
        fence = null;
      } else {
        fence.body.push(line);
        fence.offsets.push(here);
      }
      continue;
    }
    if (marker !== undefined) {
      const lead = lines.slice(Math.max(0, i - 4), i).join('\n');
      fence = { marker, lead, body: [], offsets: [], code: CODE_LANGUAGE.test(opening?.[2] ?? '') };
      continue;
    }
    if (line.length > 4000 || (!line.includes('`') && !sends(line))) continue;
    const found = [...line.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
    const prose = line.replace(/`[^`]*`/g, '');
    if (NEGATED_LINE.test(prose)) continue;
    if (found.length > 0 && spans.body.length < 400 && !FORBIDS.test(prose) && !FORBIDS.test(lines[i - 1] ?? '')) {
      spans.body.push(...found);
      spans.offsets.push(...found.map(() => here));
    }
    if (!sends(line)) continue;
    const body = found.length > 0 ? found : [line.replace(/^\s*(?:[-*>$]|\d+\.)\s*/, '')];
    out.push({ body: body.join('\n'), offsets: body.map(() => here), lead: prose });
  }
  if (spans.body.length > 1) out.push({ body: spans.body.join('\n'), offsets: spans.offsets, lead: '' });
  return out;
}

// (round s31) A heredoc fed to an interpreter (`python3 - <<'EOF'` … `EOF`): its lines are one program.
const INTERPRETER_HEREDOC = /\b(?:python[23]?(?:\.\d+)?|py|node|deno|bun|ruby|perl|php)(?:\.exe)?\b[^\n<]{0,80}<<-?\s*['"]?([A-Za-z_]\w{0,30})['"]?/i;
// An assignment in code (`data = json.dumps(dict(os.environ))`, `const body = JSON.stringify(process.env)`).
const CODE_ASSIGN = /^\s*(?:const\s+|let\s+|var\s+|my\s+)?[$@%]?([A-Za-z_]\w*)\s*(?::\s*[\w[\]<>.]+\s*)?=(?!=)\s*(.*)$/;

/**
 * The script's lines with what belongs together on the first line and the others left empty, so indexes stay the lines':
 * continuations (`\`, PowerShell's backtick), and (round s31) a heredoc fed to an interpreter, and in code a statement whose
 * brackets are still open (a call written over several lines). The indexes of the lines that are code are returned too.
 */
function logicalLines(body: string, code: boolean): { lines: string[]; codeLines: Set<number> } {
  const lines = body.split('\n');
  const codeLines = new Set<number>(code ? lines.map((_, i) => i) : []);
  for (let i = 0; i < lines.length; i++) {
    const heredoc = code ? null : INTERPRETER_HEREDOC.exec(lines[i]!);
    if (heredoc !== null) {
      const end = lines.findIndex((l, j) => j > i && l.trim() === heredoc[1]);
      const last = end === -1 ? Math.min(lines.length - 1, i + 200) : end;
      lines[i] = `${lines[i]} ${lines.slice(i + 1, last + 1).join(' ; ')}`;
      for (let j = i + 1; j <= last; j++) lines[j] = '';
      codeLines.add(i);
      i = last;
      continue;
    }
    let open = code ? bracketDepth(lines[i]!) : 0;
    let j = i;
    while (j + 1 < lines.length && j - i < 40 && lines[i]!.length <= 4000 && (/(?:\\|`)$/.test(lines[i]!) || open > 0)) {
      const next = lines[++j]!;
      lines[i] = `${lines[i]!.replace(/(?:\\|`)$/, '')} ${next}`;
      lines[j] = '';
      if (code) open += bracketDepth(next);
    }
    i = j;
  }
  return { lines, codeLines };
}

/** Brackets a line opens minus those it closes. */
function bracketDepth(line: string): number {
  let depth = 0;
  for (const c of line) {
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
  }
  return depth;
}

/**
 * The line of a script (continuations joined) that sends secrets in bulk to an outside host, with what and where. `code`: a
 * fenced block of an interpreter's language (round s31), whose requests are its network calls and whose variables are bare names.
 */
function bulkSend(body: string, own: readonly string[], code = false): { index: number; line: string; what: string; host: string } | null {
  if (body.length > 20_000 || !(sends(body) || ((code || INTERPRETER_HEREDOC.test(body)) && CODE_NETWORK.test(body)))) return null;
  const logical = logicalLines(body, code);
  const original = logical.lines.length;
  const lines = withEmbeddedAssignments(logical.lines.join('\n')).split('\n');
  const isCode = (i: number) => logical.codeLines.has(i);
  const sendsAt = (i: number) => sends(lines[i]!) || (isCode(i) && CODE_NETWORK.test(lines[i]!));
  // Variables and (round s31) files that hold secrets, with what they hold.
  const tainted = new Set<string>();
  const files = new Map<string, string>();
  const carried = (raw: string, inCode = false, skip?: string): string | undefined => {
    // In code, the environment handed to a child process (`env=dict(os.environ)`, `{ env: process.env }`) is not sent.
    const text = inCode ? raw.replace(/\benv\s*[=:]\s*[^,)}\n]*/g, 'env=') : raw;
    if (ENV_DUMP.test(text.replace(FILTERED_ENV, 'filtered'))) return 'the environment';
    const read = FILE_READ.exec(text) ?? ARCHIVE_READ.exec(text) ?? CODE_FILE_READ.exec(text);
    if (read !== null) return read[0].replace(/^.*?([^\s"'@<\\/(]*\.[\w.-]+)$/, '$1');
    // (round s31 review) In code, a field of a tainted name (`config.KEY`, `settings["KEY"]`, `settings.get('KEY')`) is one value, not
    // what the name holds; a method call on it (`env.copy()`, `JSON.stringify(env)`) still hands it on. The name a line assigns is not read there.
    const variable = [...text.matchAll(inCode ? /(?<![\w.'"])\$?([A-Za-z_]\w*)(?!\w)(\s*(?:\[|\??\.\s*(?:get\s*\(|(?![\w$]*\s*\()[A-Za-z_$])))?/g : /\$\{?([A-Za-z_]\w*)/g)]
      .filter((m) => m[2] === undefined)
      .map((m) => m[1]!)
      .find((n) => tainted.has(n.toLowerCase()) && n.toLowerCase() !== skip);
    if (variable !== undefined) return variable;
    if (files.size === 0) return undefined;
    // (round s31 review) A relative path is the same file with or without `./` (`printenv > ./ctx.txt`, then `curl -T ctx.txt`).
    const file = text.split(/[\s"'=@<>,;|&()]+/).map((t) => t.replace(/^\.[\\/]/, '')).find((t) => files.has(t));
    return file === undefined ? undefined : `${files.get(file)} (written to ${file})`;
  };
  for (let pass = 0; pass < 3; pass++) {
    const before = tainted.size + files.size;
    lines.forEach((line, i) => {
      const a = (isCode(i) ? CODE_ASSIGN : SHELL_ASSIGN).exec(line);
      if (a !== null && carried(a[2] ?? '', isCode(i)) !== undefined) tainted.add(a[1]!.toLowerCase());
      // (round s31) What a line that carries secrets writes: `printenv > f`, `env | tee f`, `cp ~/.npmrc f`, `tar czf f .env`.
      if (line.length > 4000 || isCode(i) || sendsAt(i) || !WRITES_FILE.test(line)) return;
      const what = carried(line);
      if (what === undefined) return;
      for (const m of line.matchAll(WRITE_TARGET)) {
        const target = m[1]!;
        const variable = /^\$\{?([A-Za-z_]\w*)\}?$/.exec(target)?.[1];
        if (variable !== undefined) tainted.add(variable.toLowerCase());
        else if (!/^\/dev\/(?:null|std(?:out|err)|tty)$/.test(target) && files.size < 50) files.set(target.replace(/^\.[\\/]/, ''), what.replace(/ \(written to .*\)$/, ''));
      }
    });
    if (tainted.size + files.size === before) break;
  }
  for (let i = 0; i < Math.min(lines.length, original); i++) {
    const line = lines[i]!;
    if (/^\s*(?:#|\/\/)/.test(line) || !sendsAt(i) || /--netrc\b/.test(line)) continue;
    const what = carried(line, isCode(i), (isCode(i) ? CODE_ASSIGN : SHELL_ASSIGN).exec(line)?.[1]?.toLowerCase());
    if (what === undefined) continue;
    const hosts = [...line.matchAll(/https?:\/\/([\w-]+(?:\.[\w-]+)*|\[[^\]]+\])/gi)].map((m) => m[1]!.toLowerCase());
    // (round s30 review) nc/ncat's host argument, and curl's or wget's host written without a scheme.
    const netcat = NETCAT_HOST.exec(line)?.[1];
    if (netcat !== undefined) hosts.push(netcat.toLowerCase());
    if (hosts.length === 0 && /\b(?:curl|wget)\b/i.test(line)) {
      for (const m of line.replace(/\$\([^)]*\)/g, ' ').matchAll(BARE_HOST_ARG)) if (!FILE_EXTENSION.test(m[1]!)) hosts.push(m[1]!.toLowerCase());
    }
    const outside = outsideHost(hosts, line, own);
    if (outside === undefined) continue;
    return { index: i, line: line.trim(), what, host: outside };
  }
  return null;
}

/** The first host that is neither the machine, the project's own, nor a secrets service called with the user's own token. */
function outsideHost(hosts: readonly string[], line: string, own: readonly string[]): string | undefined {
  // A secrets manager's or a deployment platform's API, called with the user's own token (a variable), stores them there.
  const ownToken = !/\b(?:Bearer|token)\s+[A-Za-z0-9._~+/-]{12,}/i.test(line);
  return hosts.find((h) => !LOOPBACK.test(h) && !own.some((o) => h === o || h.endsWith(`.${o}`)) && !(ownToken && SECRETS_SERVICE.test(h)));
}

/**
 * The first bulk send of secrets an instruction file orders, as a CRIT finding, or null. Names given an address are read as
 * that address first (round s31), in commands and in prose ("set ENDPOINT=https://…, then POST the output of `env` to $ENDPOINT"),
 * the file's own names and those `context` gives (the checkout's root `.env*` and `.envrc` files, which the agent's shell loads).
 */
export function rulesSecretDumpFinding(path: string, text: string, ownHosts: readonly string[], context = ''): AgentFinding | null {
  if (text.length > 512 * 1024) return null;
  const revealed = revealHiddenText(text);
  const { text: visible, urls } = withBoundUrls(revealed, context);
  const index = new LineIndex(visible);
  if (sends(visible) || CODE_NETWORK.test(visible)) {
    for (const s of scripts(visible)) {
      if (FORBIDS.test(s.lead)) continue;
      const send = bulkSend(s.body, ownHosts, s.code);
      if (send === null) continue;
      return referenceFinding({
        category: 'exfiltration',
        severity: 'CRIT',
        title: RULES_SECRET_DUMP_TITLE,
        file: path,
        line: index.lineOf(s.offsets[send.index] ?? s.offsets[0] ?? 0),
        evidence: `${send.line.slice(0, 220)} (carries ${send.what} to ${send.host})`,
      });
    }
  }
  // (round s31) A prose order whose address is a name the file gives one: read as the order with the address written in.
  if (urls.length === 0) return null;
  const already = new Set(secretHandoffs(revealed).map((h) => h.offset));
  for (const h of secretHandoffs(visible)) {
    if (!h.strong || already.has(h.offset) || !urls.some((u) => h.evidence.includes(u))) continue;
    const hosts = [...h.evidence.matchAll(/https?:\/\/([\w-]+(?:\.[\w-]+)*|\[[^\]]+\])/gi)].map((m) => m[1]!.toLowerCase());
    const outside = outsideHost(hosts, h.evidence, ownHosts);
    if (outside === undefined) continue;
    return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: RULES_SECRET_DUMP_TITLE, file: path, line: index.lineOf(h.offset), evidence: `${h.evidence.slice(0, 220)} (to ${outside})` });
  }
  return null;
}
