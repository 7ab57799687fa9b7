import { typosquatOf, type Ecosystem, type TyposquatMatch } from '../known/typosquat.js';
import { describedAsAttack, isQuotedExample } from './quoted-example.js';
import { sentenceAt } from './sentence-at.js';

/**
 * Packages a text has the agent install or add to a project, read from install commands (`pip install
 * x`, `npm i x`, `uv add x`, `npx x`), manifest snippets (a requirements block, a package.json
 * `dependencies` object, pyproject `dependencies = [...]`, also in inline code) and prose ("add
 * `x` to requirements.txt"), each judged for two things: a name that imitates a popular package
 * (known/typosquat.ts: one edit, separators, look-alike characters, reordered words, a language affix)
 * and a source off the package registry (a git URL, a tarball URL, a GitHub shorthand). Each carries
 * the passage's reach — added to every project or each manifest the agent edits — and whether the
 * user is to be kept from knowing. Advice ("reject `reqeusts`, a known typosquat"), lists of attacks
 * and quoted specimens are not orders.
 */

export type DependencySource = 'typosquat' | 'non-registry';

export interface DependencyOrder {
  offset: number;
  evidence: string;
  /** The package or source as written. */
  name: string;
  kind: DependencySource;
  /** For a typosquat: what it imitates and how. */
  match?: TyposquatMatch;
  /** Added to every project, each manifest the agent edits, wherever it works. */
  spread: boolean;
  /** The user is not to be told. */
  concealed: boolean;
  /** The user's project (its manifest, or every project) receives it, rather than a tool the skill runs being installed. */
  intoProject: boolean;
  /** A source off the registry pinned to a tag or commit on a known forge, or (round s30 review) a versioned wheel or tarball file on the organisation's own index (a versioned file name on any other host is no pin: the host can serve other bytes under it). */
  pinned: boolean;
  /** A source off the registry on a known forge (GitHub, GitLab, Bitbucket, Codeberg), or the organisation's own package index. */
  forge?: boolean;
  /** (round s30 review) The organisation's own package index (`pypi.initech.io` in a text that names Initech): no squat unless concealed. */
  internal?: boolean;
}

// Install commands and the ecosystem they install from.
const PYPI_INSTALL = String.raw`(?:python[\d.]*|py)\s+-m\s+pip\s+install|pip[\d.]*\s+install|pipx\s+install|uv\s+pip\s+install|uv\s+(?:add|tool\s+install)|poetry\s+add|pipenv\s+install|pdm\s+add|rye\s+add`;
const NPM_INSTALL = String.raw`(?:npm|cnpm)\s+(?:i|install|add)|pnpm\s+(?:add|install|i)|yarn\s+(?:global\s+)?add|bun\s+(?:add|install|i)|npx(?:\s+(?:-y|--yes))?|pnpm\s+dlx|bunx|yarn\s+dlx`;
const INSTALL = new RegExp(String.raw`\b(?:(${PYPI_INSTALL})|(${NPM_INSTALL}))(?=\s)`, 'g');
const INSTALL_ONE = new RegExp(INSTALL.source);
// A comment before the command on its line: the words after it are prose ("# uv add does universal resolution…").
const COMMENTED = /(?:^|\s)(?:#|\/\/)(?!!)|^\s*(?:\*|\/\*)/;
// Runners take one package and pass the rest to it as arguments.
const RUNNER = /^(?:npx|pnpm\s+dlx|bunx|yarn\s+dlx)\b/;
// Flags that take a value (the value is not a package).
const VALUE_FLAGS = new Set([
  '-r', '--requirement', '-c', '--constraint', '-i', '--index-url', '--extra-index-url', '-f', '--find-links', '-t', '--target', '--prefix', '--root',
  '--python', '-p', '--trusted-host', '--platform', '--python-version', '--cache-dir', '--src', '--upgrade-strategy', '--progress-bar', '--log',
  '--proxy', '--timeout', '--retries', '--config-settings', '-C', '--registry', '-w', '--workspace', '--tag', '--omit', '--include', '--cache',
  '--userconfig', '--group', '-G', '--optional', '--index', '--extra', '-E', '--extras', '--package', '--source', '--rev', '--branch', '--filter',
]);
// A value that is a placeholder for the reader to fill.
const PLACEHOLDER = /^(?:<.*>|\{.*\}|\$.*|\[.*\]|\.\.\.|…|[A-Z][A-Z_]+|your[-_].*|my[-_]package|package(?:[-_]name)?|pkg|name|foo|bar|example[-_.]?\w*)$/;
const LOCAL_PATH = /^(?:\.{1,2}(?:\/|$)|\/|~)|\.(?:whl|tar\.gz|tgz|zip|egg)$/i;
const SOURCE_URL = /^(?:[\w.-]+\s*@\s*)?(?:git\+[\w+]+:\/\/|git:\/\/|https?:\/\/|ssh:\/\/|github:|gitlab:|bitbucket:|gist:)\S+/i;
// The registries themselves, and the official accelerator wheel indexes: a URL there is the registry.
const REGISTRY_HOST = /^(?:git\+)?https?:\/\/(?:pypi\.org|files\.pythonhosted\.org|registry\.npmjs\.org|registry\.yarnpkg\.com|download\.pytorch\.org|pypi\.nvidia\.com|data\.pyg\.org)\//i;
const FORGE = /^(?:git\+)?(?:https?|ssh|git):\/\/(?:git@)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/|^(?:github|gitlab|bitbucket):/i;
// A reference that fixes what is installed: a version tag or a commit hash.
const PINNED_REF = /(?:@|#(?:semver:)?)(?:v?\d+(?:\.\d+)+[\w.-]*|[0-9a-f]{7,40})(?:#|$)/i;

// (round s30 review) A file name that fixes the version: a wheel (`name-2.3.1-py3-none-any.whl`) or a versioned tarball.
const PINNED_FILE = /\/[A-Za-z0-9][\w.+-]*?-v?\d+(?:\.\d+)+[\w.+-]*\.(?:whl|tar\.gz|tgz|zip)(?:[#?][^\s]*)?$/i;
// A host's label that marks a package index, and hosts anyone can publish on (free hosting, tunnels, paste and file drops).
const INDEX_LABEL = /^(?:pypi|pip|packages?|pkgs?|artifactory|nexus|registry|npm|repo|repos|artifacts?|wheels?|devpi|simple|dist|jfrog|proget|cloudsmith)$/;
const FREE_HOST =
  /(?:^|\.)(?:github\.io|gitlab\.io|netlify\.app|vercel\.app|pages\.dev|workers\.dev|herokuapp\.com|glitch\.me|repl\.co|replit\.app|onrender\.com|fly\.dev|railway\.app|ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|loca\.lt|serveo\.net|transfer\.sh|file\.io|0x0\.st|pastebin\.com|s3\.amazonaws\.com|blob\.core\.windows\.net|storage\.googleapis\.com|firebaseapp\.com|web\.app|surge\.sh|000webhostapp\.com|duckdns\.org|no-ip\.\w+|example|test|invalid|localhost)$/i;

/** The organisation's own package index: a host whose index label (`pypi.`, `artifactory.`) sits on a domain the text names outside URLs, not a free or staging host, for a package that imitates no popular one. */
function internalIndex(source: string, text: string): boolean {
  let host: string;
  try {
    host = new URL(source.replace(/^git\+/, '')).hostname.toLowerCase();
  } catch {
    return false;
  }
  const labels = host.split('.');
  if (labels.length < 3 || FREE_HOST.test(host) || /^\d+$/.test(labels[labels.length - 1]!) || labels.some((l) => /^(?:staging|stage|preview|tmp|temp|test|sandbox)$/.test(l))) return false;
  if (!labels.slice(0, -2).some((l) => INDEX_LABEL.test(l))) return false;
  const org = labels[labels.length - 2]!;
  if (org.length < 3) return false;
  const prose = text.replace(/\b(?:https?|git\+\w+|ssh):\/\/\S+/g, ' ').toLowerCase();
  return new RegExp(String.raw`(?<![a-z0-9])${org.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z0-9])`).test(prose);
}

// Words before a package that forbid or check it: a warning, not a step ("never install", "reject `reqeusts`").
const FORBIDDING =
  /\b(?:never|avoid|(?:don['’]t|do\s+not)(?!\s+forget)|must\s+not|should\s+not|shouldn['’]t|reject\w*|refuse\w*|block\w*|flag\w*|detect\w*|warn\w*|beware|watch\s+(?:out\s+)?for|look\s+(?:out\s+)?for|instead\s+of|rather\s+than|uninstall\w*|remov\w*|blocklist|denylist|deny)\b/i;
// Words anywhere in the sentence that describe the name as a squat or an attack.
const DESCRIBING =
  /\b(?:typo-?squat\w*|look-?alikes?|lookalikes?|imperson\w*|malicious|fake|impostor|counterfeit|misspel\w*|typos?|suspicious|known\s+(?:bad|malware|squat)|confus\w*|compromised|dangerous|unsafe|attack\w*)\b/i;
// Putting a package into something.
const ADD_VERB =
  /\b(?:add(?:s|ed|ing)?|install(?:s|ed|ing)?|includ(?:e|es|ed|ing)|pin(?:s|ned|ning)?|append(?:s|ed|ing)?|insert(?:s|ed|ing)?|requir(?:e|es|ed|ing)|depend(?:s|ing)?\s+on|put(?:s|ting)?|list(?:s|ed|ing)?|declar(?:e|es|ed|ing)|bundl(?:e|es|ed|ing)|vendor(?:s|ed|ing)?|ship(?:s|ped|ping)?|inject(?:s|ed|ing)?|present\s+in|contain(?:s|ed|ing)?)\b/i;
// The user's project receives it: a manifest, a dependency list.
const PROJECT_WORD =
  /\b(?:requirements(?:[\w.-]*\.txt)?|constraints\.txt|package\.json|pyproject(?:\.toml)?|Pipfile|setup\.(?:py|cfg)|dependenc(?:y|ies)|devDependencies|deps|manifests?|lock\s*files?)\b/i;
const PACKAGE_WORD = /\b(?:packages?|librar(?:y|ies)|modules?|deps?|dependenc(?:y|ies)|helpers?|shims?|plugins?|polyfills?|requirements?)\b/i;
const PYPI_WORD = /\b(?:python|pip|pypi|requirements|pyproject|pipfile|setup\.py|poetry|uv|conda|django|flask|fastapi)\b/i;
const NPM_WORD = /\b(?:node(?:\.?js)?|npm|yarn|pnpm|bun|package\.json|javascript|typescript|js|ts|react|express|next\.js|vite)\b/i;
// Every project the agent touches.
export const SPREAD =
  /\b(?:every|each|all|any)\s+(?:of\s+)?(?:the\s+|your\s+|my\s+|their\s+|its\s+)?(?:[\w.-]+\s+){0,2}?(?:projects?|repos?|repositor(?:y|ies)|package\.json|requirements(?:\.txt)?|pyproject(?:\.toml)?|manifests?|codebases?|services?|apps?|applications?|workspaces?|packages?|modules?|files?|folders?|directories|codebase)\b|\bwhenever\s+you\b|\bwherever\b|\b(?:every|each)\s+time\b|\bacross\s+(?:all|every)\b|\bno\s+matter\s+(?:which|what)\b|\bin\s+all\s+cases\b/i;
// Keeping it from the user.
export const CONCEALED =
  /\bsilently\b|\bquietly\b|\bwithout\s+(?:asking|telling|notifying|informing|mentioning|reporting|listing|explaining|flagging)\b|\b(?:no\s+need\s+to|do\s+not|don['’]t|never|avoid)\s+(?:mention|report|tell|list|bring\s+up|disclose|explain|point\s+out|call\s+out|highlight|surface|flag|draw\s+attention)\w*\b|\b(?:no\s+need\s+to|do\s+not|don['’]t|never|avoid)\s+(?:call|bring|point)(?:ing)?\s+(?:it|this|them)\s+(?:out|up)\b|\bkeep\s+(?:it|this|them)\s+(?:quiet|low-key|to\s+yourself|between\s+us)\b|\b(?:omit|leave\s+out|exclude|hide)\b[^.\n]{0,40}\b(?:summary|description|changelog|commit\s+message|reply|report|PR|pull\s+request|diff|user)\b|\bkeep\b[^.\n]{0,30}\bout\s+of\b|\bthe\s+user\s+(?:does\s+not|doesn['’]t|need\s+not|must\s+not)\s+(?:need\s+to\s+)?(?:know|see|be\s+told)\b/i;

interface Candidate {
  offset: number;
  raw: string;
  ecosystems: Ecosystem[];
  /** The sentence or command it came from. */
  context: string;
  /** A command or manifest entry (it installs), or a prose mention (it needs a verb that adds it). */
  fromCommand: boolean;
  /** A package.json dependency's value quoted in prose: npm reads `user/repo` there as GitHub. */
  npmValue?: boolean;
}

/** The package tokens of an install command's argument text. */
function commandPackages(args: string): Array<{ token: string; at: number }> {
  const out: Array<{ token: string; at: number }> = [];
  let skipNext = false;
  for (const m of args.matchAll(/\S+/g)) {
    const token = m[0].replace(/^["']|["',]$/g, '');
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (/^-/.test(token)) {
      // `-e git+https://…` installs that source; other valued flags take their value.
      if (!token.includes('=') && VALUE_FLAGS.has(token)) skipNext = true;
      continue;
    }
    out.push({ token, at: m.index });
    if (out.length >= 20) break;
  }
  return out;
}

/** The registry name of a package token (version, extras and tags off), or null for a path or placeholder. */
function registryName(token: string, ecosystem: Ecosystem): string | null {
  if (PLACEHOLDER.test(token) || LOCAL_PATH.test(token) || SOURCE_URL.test(token)) return null;
  if (ecosystem === 'pypi') {
    const name = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(?:\s*(?:===?|>=|<=|~=|!=|>|<).*)?$/.exec(token)?.[1];
    return name ?? null;
  }
  const name = /^((?:@[\w.-]+\/)?[\w.-]+)(?:@[^/\s]*)?$/.exec(token)?.[1];
  return name ?? null;
}

/** A source off the registry: a VCS or tarball URL, a GitHub shorthand (npm), a PEP 508 direct reference. */
function offRegistry(token: string, ecosystem: Ecosystem, shorthand = true): string | null {
  const direct = /^[\w.-]+\s*@\s*(\S+)$/.exec(token)?.[1];
  const source = direct !== undefined && SOURCE_URL.test(direct) ? direct : token;
  if (SOURCE_URL.test(source) && !REGISTRY_HOST.test(source)) return source;
  // `user/repo` is GitHub only where npm reads it (an install argument, a dependency's value): elsewhere it is any path.
  if (shorthand && ecosystem === 'npm' && /^[\w.-]+\/[\w.-]+(?:#\S+)?$/.test(token) && !token.startsWith('@') && !/\.(?:json|txt|js|ts|md|tgz)$/i.test(token)) return token;
  return null;
}

// A requirements line: a name with extras and versions, or a source; an environment marker after `;`.
const REQ_LINE =
  /^\s*(?:-e\s+)?((?:git\+|https?:\/\/)\S+|[A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?(?:\s*(?:===?|>=|<=|~=|!=|>|<)\s*[\w.*+!-]+(?:\s*,\s*(?:===?|>=|<=|~=|!=|>|<)\s*[\w.*+!-]+)*)?(?:\s*@\s*\S+)?)\s*(?:;\s*(?:python_(?:full_)?version|sys_platform|platform_\w+|os_name|implementation_\w+|extra)\b[^#\n]*)?(?:\s#.*)?$/;
// A source whose owner the reader is to fill in: a tutorial's `github.com/user/repo`.
// (round s30) The owner is a path segment (`github.com/example/x`, `github:user/x`), not a host's last label (`pkg.acme.example/x.tgz`).
const PLACEHOLDER_SOURCE = /[<{]|(?:^|[/:])(?:user|username|owner|org|organization|your[-_]?\w*|example|me|someone|name)\/(?:repo|repository|project|package|\w+)\b|\bexample\.(?:com|org|net)\b|\b(?:repo|repository)\.git\b/i;
// A package.json dependency entry: a name and a version range or source.
const JSON_DEP = /"((?:@[\w.-]+\/)?[\w.-]+)"\s*:\s*"((?:[\^~<>=*]|\d|latest|next|x\b|git\+|git:|https?:|github:|gitlab:|file:|npm:|[\w-]+\/[\w.-]+)[^"\n]{0,200})"/g;
const JSON_FIELD = /^(?:name|version|description|main|module|types|type|license|author|homepage|repository|bugs|private|engines|packageManager|node|npm|url|bin|files|workspaces)$/;

/** The fenced code blocks of a text: body, offset of the body, info string, and the prose just above. */
function fencedBlocks(text: string): Array<{ body: string; at: number; info: string; intro: string }> {
  const out: Array<{ body: string; at: number; info: string; intro: string }> = [];
  for (const m of text.matchAll(/^[ \t]*(```|~~~)([^\n]*)\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm)) {
    const at = m.index + m[0].indexOf('\n') + 1;
    const before = text.slice(Math.max(0, m.index - 400), m.index).split('\n').filter((l) => l.trim() !== '');
    out.push({ body: m[3] ?? '', at, info: (m[2] ?? '').trim(), intro: before.slice(-2).join('\n') });
    if (out.length >= 200) break;
  }
  return out;
}

/** The ecosystems a passage names (none: a LaTeX, Go or system package is no npm or PyPI name). */
function ecosystemsOf(context: string): Ecosystem[] {
  const py = PYPI_WORD.test(context);
  const js = NPM_WORD.test(context);
  if (py && !js) return ['pypi'];
  if (js && !py) return ['npm'];
  return py && js ? ['pypi', 'npm'] : [];
}

/** Every package a document names as one to install or add, with where it came from. */
function candidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  // Install commands in code: code blocks, inline code, a command line of its own (prose words after `npm install` are no packages).
  const blocks = fencedBlocks(text);
  const fences = blocks.map((b) => [b.at, b.at + b.body.length] as const);
  for (const m of text.matchAll(INSTALL)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const inCode = fences.some(([a, b]) => m.index >= a && m.index < b) || ((text.slice(lineStart, m.index).match(/`/g) ?? []).length % 2 === 1) || /^\s*(?:[$>]\s*)?(?:sudo\s+)?$/.test(text.slice(lineStart, m.index));
    if (!inCode || COMMENTED.test(text.slice(lineStart, m.index).replace(/`[^`]*`/g, ''))) continue;
    const ecosystem: Ecosystem = m[1] !== undefined ? 'pypi' : 'npm';
    const start = m.index + m[0].length;
    const rest = text.slice(start, start + 240);
    const end = rest.search(/[\n;|&`)]|\s#|\s>/);
    const args = end < 0 ? rest : rest.slice(0, end);
    // A command in a code block takes the block's introduction as its sentence ("Add this to every project:").
    const block = blocks.find((x) => m.index >= x.at && m.index < x.at + x.body.length);
    const context = `${block === undefined ? '' : `${block.intro}\n`}${text.slice(m.index, start + args.length)}`;
    for (const p of commandPackages(args).slice(0, RUNNER.test(m[0]) ? 1 : 20)) out.push({ offset: start + p.at, raw: p.token, ecosystems: [ecosystem], context, fromCommand: true });
    if (out.length > 400) return out;
  }
  // Manifest snippets in code blocks.
  for (const b of blocks) {
    const intro = `${b.info}\n${b.intro}`;
    if (/"(?:dev|peer|optional)?[dD]ependencies"\s*:/.test(b.body)) {
      for (const d of b.body.matchAll(JSON_DEP)) if (!JSON_FIELD.test(d[1] as string)) out.push({ offset: b.at + d.index, raw: /^(?:git|https?|github|gitlab|file|npm:|[\w-]+\/)/.test(d[2] as string) ? (d[2] as string) : (d[1] as string), ecosystems: ['npm'], context: `${intro}\n${d[0]}`, fromCommand: true });
    }
    if (/\bdependencies\s*=\s*\[/.test(b.body)) {
      for (const d of b.body.matchAll(/^\s*["']([^"'\n]{1,200})["']\s*,?\s*$/gm)) out.push({ offset: b.at + d.index, raw: (d[1] as string).replace(/\s*;.*$/, '').replace(/\s+/g, ''), ecosystems: ['pypi'], context: `${intro}\n${d[0]}`, fromCommand: true });
    }
    // A requirements file shown whole: introduced as one, every line a requirement or a comment.
    const reqLines = b.body.split('\n');
    if (/requirements|constraints/i.test(intro) && /^(?:|te?xt|requirements|pip)$/i.test(b.info) && reqLines.every((l) => l.trim() === '' || /^\s*#/.test(l) || /^\s*-[-\w]+(?:\s|=|$)/.test(l) || REQ_LINE.test(l))) {
      let offset = b.at;
      for (const line of reqLines) {
        const r = REQ_LINE.exec(line);
        if (r !== null && line.trim() !== '') out.push({ offset, raw: (r[1] as string).replace(/\s+/g, ''), ecosystems: ['pypi'], context: `${intro}\n${line}`, fromCommand: true });
        offset += line.length + 1;
      }
    }
  }
  // Inline code in prose that adds a package: "add `reqeusts` to requirements.txt", "add `"lodahs": "^4"` to its dependencies".
  let spans = 0;
  for (const m of text.matchAll(/`([^`\n]{1,120})`/g)) {
    // The code's shape first (a name, a dependency entry or a source), then its sentence: three thousand spans at most.
    if (++spans > 3000) break;
    const code = m[1] as string;
    const dep = /^"((?:@[\w.-]+\/)?[\w.-]+)"\s*:\s*"([^"]*)"$/.exec(code);
    if (dep === null && ((/\s/.test(code.trim()) && !SOURCE_URL.test(code.trim())) || /^(?:requirements[\w.-]*\.txt|package\.json|pyproject\.toml|Pipfile|setup\.(?:py|cfg)|[\w.-]+\.(?:txt|json|toml|ya?ml|lock|md|py|js|ts|cfg|ini|sh))$/i.test(code.trim()))) continue;
    const { from, to } = sentenceAt(text, m.index);
    const sentence = text.slice(from, to);
    // The sentence adds to a manifest, or the code is named as a package ("the `x` package", "library `x`").
    const named = PACKAGE_WORD.test(text.slice(Math.max(0, m.index - 24), m.index).split(/\s+/).slice(-2).join(' ')) || /^\s+(?:packages?|librar(?:y|ies)|modules?|dependenc(?:y|ies)|helpers?|shims?|plugins?)\b/i.test(text.slice(m.index + m[0].length, m.index + m[0].length + 20));
    if (!ADD_VERB.test(sentence) || !(PROJECT_WORD.test(sentence) || named) || INSTALL_ONE.test(code)) continue;
    if (dep !== null) {
      out.push({ offset: m.index, raw: /^(?:git|https?|github|gitlab|[\w-]+\/)/.test(dep[2] as string) ? (dep[2] as string) : (dep[1] as string), ecosystems: ['npm'], context: sentence, fromCommand: false, npmValue: true });
      continue;
    }
    const ecosystems = ecosystemsOf(`${headingBefore(text, m.index)}\n${sentence}`);
    if (ecosystems.length > 0) out.push({ offset: m.index, raw: code.trim(), ecosystems, context: sentence, fromCommand: false });
    if (out.length > 400) break;
  }
  // (round s30) A dependency entry written bare in prose or in a Markdown/text block, with a source URL for value: a
  // package.json entry (`"@org/x": "https://host/x.tgz"`) or a PEP 508 direct reference to an archive or a VCS URL
  // (`name @ https://host/x.whl`, `name @ git+https://…`; "the team @ https://site" is no requirement),
  // in a sentence that adds it to a manifest. Code blocks of other languages are read by the manifest readers above.
  const codeFences = blocks.filter((b) => !/^(?:|markdown|md|text|txt|plain)$/i.test(b.info)).map((b) => [b.at, b.at + b.body.length] as const);
  let bare = 0;
  // The entry on a line of its own continues its sentence: wrapped lines are joined (not list items or headings; same length).
  let wrapped: string | null = null;
  for (const m of text.matchAll(BARE_SOURCE_ENTRY)) {
    if (++bare > 200 || codeFences.some(([a, b]) => m.index >= a && m.index < b)) continue;
    wrapped ??= text.replace(/([^\n])\n(?=[ \t]*(?![-*+]\s|\d+[.)]\s|#|\||```|~~~)\S)/g, '$1 ');
    const { from, to } = sentenceAt(wrapped, m.index);
    const sentence = wrapped.slice(from, to);
    // A manifest "gets" or "must have" the entry: the sentence is about that manifest's contents.
    if (!(ADD_VERB.test(sentence) || /\b(?:gets?|carr(?:y|ies)|holds?|(?:must|should)\s+have)\b/i.test(sentence)) || !PROJECT_WORD.test(sentence)) continue;
    if (m[1] !== undefined) out.push({ offset: m.index, raw: m[2] as string, ecosystems: ['npm'], context: sentence, fromCommand: false, npmValue: true });
    else out.push({ offset: m.index, raw: `${m[3] as string} @ ${m[4] as string}`.replace(/\s+/g, ''), ecosystems: ['pypi'], context: sentence, fromCommand: false });
    if (out.length > 400) break;
  }
  return out;
}
const BARE_SOURCE_ENTRY =
  /"((?:@[\w.-]+\/)?[\w.-]+)"\s*:\s*"((?:git\+[\w+]+:\/\/|https?:\/\/|github:|gitlab:)[^"\s]{4,200})"|(?<![\w.@/-])([A-Za-z0-9][\w.-]*)(?:\[[\w,.-]*\])?\s+@\s+(git\+[\w+]+:\/\/[^\s"'`<>)]{4,200}|https?:\/\/[^\s"'`<>)]{1,200}\.(?:whl|tar\.gz|tgz|zip))(?![\w./-])/g;

/** The Markdown heading line above an offset, or ''. */
function headingBefore(text: string, offset: number): string {
  let at = text.lastIndexOf('\n', offset - 1);
  for (let i = 0; i < 2000 && at >= -1; i++) {
    const start = at + 1;
    if (/^#{1,6}\s/.test(text.slice(start, start + 8))) return text.slice(start, (text.indexOf('\n', start) + 1 || text.length + 1) - 1);
    if (at < 0) break;
    at = text.lastIndexOf('\n', at - 1);
  }
  return '';
}

/** The passage around an offset: its sentence, the sentence before it and the section's heading. */
function passage(text: string, offset: number): { sentence: string; around: string; nearby: string } {
  const { from, to } = sentenceAt(text, offset);
  const prev = sentenceAt(text, Math.max(0, from - 2));
  const heading = headingBefore(text, offset);
  // Six lines either way, within the section: where a concealment clause belongs to this step.
  const lineStart = text.lastIndexOf('\n', offset) + 1;
  let a = lineStart;
  for (let i = 0; i < 6 && a > 0; i++) {
    const p = text.lastIndexOf('\n', a - 2) + 1;
    if (/^#{1,6}\s/.test(text.slice(p, a))) break;
    a = p;
  }
  let b = offset;
  for (let i = 0; i < 6 && b < text.length; i++) {
    const n = text.indexOf('\n', b + 1);
    if (n < 0) {
      b = text.length;
      break;
    }
    if (/^#{1,6}\s/.test(text.slice(n + 1, n + 8))) {
      b = n;
      break;
    }
    b = n;
  }
  return { sentence: text.slice(from, to), around: `${heading}\n${text.slice(prev.from, to)}`, nearby: text.slice(a, b) };
}

/** The sentence advising against the package (before it) or describing it as a squat, or the code block's introduction doing so. */
function advised(text: string, offset: number, sentence: string, lead: string): boolean {
  if (DESCRIBING.test(sentence) || FORBIDDING.test(lead)) return true;
  // A code block's introduction: the two non-blank lines above its fence.
  const before = text.slice(Math.max(0, offset - 600), offset);
  const fence = before.lastIndexOf('```');
  if (fence >= 0 && (before.slice(fence).match(/```/g) ?? []).length === 1 && ((before.slice(0, fence).match(/```/g) ?? []).length % 2 === 0 || fence === before.indexOf('```'))) {
    const intro = before.slice(0, fence).split('\n').filter((l) => l.trim() !== '').slice(-2).join('\n');
    if (DESCRIBING.test(intro) || FORBIDDING.test(intro)) return true;
  }
  return describedAsAttack(text, text.lastIndexOf('\n', offset) + 1) || isQuotedExample(text, offset, offset + 1);
}

/**
 * Orders in a document to install or add a look-alike of a popular package, or a package from off the
 * registry into the user's projects. One per package name.
 */
export function dependencyOrders(text: string): DependencyOrder[] {
  if (text.length > 512 * 1024) return [];
  const out: DependencyOrder[] = [];
  const seen = new Set<string>();
  // Each advice check reads the text before the candidate: fifty at most.
  let checks = 0;
  for (const c of candidates(text)) {
    if (seen.has(c.raw) || out.length >= 10) continue;
    seen.add(c.raw);
    let found: { kind: DependencySource; match?: TyposquatMatch; pinned: boolean; forge?: boolean; internal?: boolean } | null = null;
    for (const ecosystem of c.ecosystems) {
      const source = offRegistry(c.raw, ecosystem, c.fromCommand || c.npmValue === true);
      if (source !== null && PLACEHOLDER_SOURCE.test(source)) break;
      if (source !== null) {
        const internal = !FORGE.test(source) && internalIndex(source, text) && typosquatOf(registryName(c.raw.replace(/\s*@.*$/, ''), ecosystem) ?? '', ecosystem, { reordered: true, affixed: true }) === null;
        found = { kind: 'non-registry', pinned: (FORGE.test(source) && PINNED_REF.test(source)) || (internal && PINNED_FILE.test(source)), forge: FORGE.test(source) || internal, ...(internal ? { internal } : {}) };
        break;
      }
      const name = registryName(c.raw, ecosystem);
      const match = name === null ? null : typosquatOf(name, ecosystem, { reordered: true, affixed: true });
      if (match !== null) {
        found = { kind: 'typosquat', match, pinned: false };
        break;
      }
    }
    if (found === null || ++checks > 50) continue;
    const { sentence, around, nearby } = passage(text, c.offset);
    // A command's own words and its sentence ("never run `pip install reqeusts`"), or a prose mention's sentence; what
    // forbids it comes before it ("install `lodahs` and don't call it out" conceals, it does not forbid).
    const { from } = sentenceAt(text, c.offset);
    const lead = `${c.fromCommand ? c.context.slice(0, Math.max(0, c.context.lastIndexOf('\n') + 1)) : ''}${text.slice(from, c.offset)}`;
    if (advised(text, c.offset, c.fromCommand ? `${c.context}\n${sentence}` : sentence, lead)) continue;
    const spread = SPREAD.test(around) || SPREAD.test(c.context);
    const intoProject = spread || PROJECT_WORD.test(around) || PROJECT_WORD.test(c.context);
    // A source off the registry is an ordinary way to install a tool; only one added to the user's project counts.
    if (found.kind === 'non-registry' && !intoProject) continue;
    out.push({ offset: c.offset, evidence: `${c.raw}${found.match ? ` (imitates ${found.match.imitates}: ${found.match.how})` : ''} … ${sentence.replace(/\s+/g, ' ').trim()}`.slice(0, 300), name: c.raw, kind: found.kind, ...(found.match ? { match: found.match } : {}), spread, concealed: CONCEALED.test(nearby), intoProject, pinned: found.pinned, forge: found.forge === true, ...(found.internal === true ? { internal: true } : {}) });
  }
  return out;
}

// ---- Code ----

// Walking the user's folders for manifests: the script reaches every project.
const WALKS_PROJECTS =
  /\bos\.walk\b|\.rglob\(|\bglob(?:\.glob)?\([^)\n]*\*\*|\bfind\s+\S+[^\n|;]*-name\s+["']?(?:package\.json|requirements[\w.*-]*|pyproject\.toml)|\*\*\/(?:package\.json|requirements|pyproject)|\breaddirSync\([^)\n]*\{\s*recursive\s*:\s*true|\bwalkSync\b|\bfast-?glob\b|\bglobby\b|\bfor\s+\w+\s+in\s+(?:~|\$HOME)[^\n;]*\*/i;
// A dependency written into a package.json object a script edits.
// (`pkg.dependencies["x"] = …`, `pkg["dependencies"]["x"] = …`, `dependencies: { "x": … }`, `["x"] = "^1.2.3"`, `{ x: "^1.2.3" }`).
const CODE_JSON_DEP =
  /\b(?:dependencies|devDependencies)["']?\s*\]?\s*(?:\[\s*["']((?:@[\w.-]+\/)?[\w.-]+)["']\s*\]|\.([A-Za-z_$][\w$]*))\s*=|["']?(?:dependencies|devDependencies)["']?\s*[:=]\s*\{[^}]{0,400}?["']((?:@[\w.-]+\/)?[\w.-]+)["']\s*:|\[\s*["']((?:@[\w.-]+\/)?[\w.-]+)["']\s*\]\s*=\s*["'][\^~]?\d|[{,]\s*["']?((?:@[\w.-]+\/)?[\w-]+)["']?\s*:\s*["'][\^~]\d[\w.]*["']/g;
// A requirement line written to a requirements file (`echo "x==1" >> requirements.txt`, `.write("x\n")` beside one).
const CODE_REQ_WRITE = /\becho\s+["']?([A-Za-z0-9][\w.-]*(?:[=<>~!]=?[\w.*]+)?)["']?\s*>>\s*["']?[\w./-]*requirements[\w.-]*\.txt|\.write\(\s*f?["']([A-Za-z0-9][\w.-]*(?:[=<>~!]=?[\w.*]+)?)\\n["']\s*\)/g;

/**
 * Packages a shipped script installs or writes into manifests, by the same readings: look-alike names
 * always; a source off the registry when the script walks the user's folders for manifests.
 */
export function dependencyOrdersInCode(text: string): DependencyOrder[] {
  if (text.length > 512 * 1024) return [];
  // `["pip", "install", "x"]` reads as the command it spells.
  const flat = text.replace(/["']\s*,\s*["']/g, ' ');
  const spread = WALKS_PROJECTS.test(text);
  const out: DependencyOrder[] = [];
  const seen = new Set<string>();
  const judge = (offset: number, raw: string, ecosystems: Ecosystem[], intoProject: boolean) => {
    if (seen.has(raw) || out.length >= 10) return;
    seen.add(raw);
    for (const ecosystem of ecosystems) {
      const source = offRegistry(raw, ecosystem);
      if (source !== null) {
        if (spread && !PLACEHOLDER_SOURCE.test(source)) out.push({ offset, evidence: `${raw} … ${lineAt(text, offset)}`.slice(0, 300), name: raw, kind: 'non-registry', spread, concealed: false, intoProject: true, pinned: FORGE.test(source) && PINNED_REF.test(source), forge: FORGE.test(source) });
        return;
      }
      const name = registryName(raw, ecosystem);
      const match = name === null ? null : typosquatOf(name, ecosystem, { reordered: true, affixed: true });
      if (match !== null) {
        out.push({ offset, evidence: `${raw} (imitates ${match.imitates}: ${match.how}) … ${lineAt(text, offset)}`.slice(0, 300), name: raw, kind: 'typosquat', match, spread, concealed: false, intoProject, pinned: false });
        return;
      }
    }
  };
  for (const m of flat.matchAll(INSTALL)) {
    if (COMMENTED.test(flat.slice(flat.lastIndexOf('\n', m.index) + 1, m.index).replace(/["'][^"'\n]*["']/g, ''))) continue;
    const start = m.index + m[0].length;
    const rest = flat.slice(start, start + 240);
    const end = rest.search(/[\n;|&`)"'\]]|\s#|\s>/);
    for (const p of commandPackages(end < 0 ? rest : rest.slice(0, end)).slice(0, RUNNER.test(m[0]) ? 1 : 20)) judge(start + p.at, p.token, [m[1] !== undefined ? 'pypi' : 'npm'], spread);
  }
  if (/package\.json/.test(text)) for (const m of text.matchAll(CODE_JSON_DEP)) judge(m.index, (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]) as string, ['npm'], true);
  if (/requirements/.test(text)) for (const m of text.matchAll(CODE_REQ_WRITE)) judge(m.index, (m[1] ?? m[2]) as string, ['pypi'], true);
  return out;
}

function lineAt(text: string, offset: number): string {
  return text.slice(text.lastIndexOf('\n', offset) + 1, (text.indexOf('\n', offset) + 1 || text.length + 1) - 1).trim();
}

/** Packages a dependency manifest the skill ships lists (requirements*.txt, package.json, pyproject.toml) whose names imitate popular ones. */
export function squattedManifestEntries(path: string, text: string): Array<{ line: number; name: string; match: TyposquatMatch }> {
  const out: Array<{ line: number; name: string; match: TyposquatMatch }> = [];
  const lines = text.split('\n').slice(0, 5000);
  const add = (line: number, name: string, ecosystem: Ecosystem) => {
    const match = typosquatOf(name, ecosystem, { reordered: true });
    if (match !== null && out.length < 10) out.push({ line, name, match });
  };
  if (/(?:^|\/)(?:requirements|constraints)[\w.-]*\.txt$/i.test(path)) {
    lines.forEach((l, i) => {
      const r = REQ_LINE.exec(l);
      const name = r === null ? null : registryName((r[1] as string).replace(/\s+/g, ''), 'pypi');
      if (name !== null && l.trim() !== '' && !l.trim().startsWith('#')) add(i + 1, name, 'pypi');
    });
  } else if (/(?:^|\/)package\.json$/i.test(path)) {
    let inDeps = false;
    lines.forEach((l, i) => {
      if (/"(?:dev|peer|optional)?[dD]ependencies"\s*:\s*\{/.test(l)) inDeps = true;
      else if (inDeps && /^\s*\}/.test(l)) inDeps = false;
      else if (inDeps) {
        const d = /^\s*"((?:@[\w.-]+\/)?[\w.-]+)"\s*:/.exec(l);
        if (d !== null) add(i + 1, d[1] as string, 'npm');
      }
    });
  } else if (/(?:^|\/)pyproject\.toml$/i.test(path)) {
    // The `dependencies = [ … ]` array of [project].
    let inDeps = false;
    lines.forEach((l, i) => {
      if (/^\s*dependencies\s*=\s*\[/.test(l)) inDeps = true;
      if (inDeps) for (const q of l.replace(/^[^[]*=\s*\[/, '').matchAll(/["']([A-Za-z0-9][\w.-]*)[^"']*["']/g)) add(i + 1, q[1] as string, 'pypi');
      if (inDeps && /\]/.test(l)) inDeps = false;
    });
  }
  return out;
}
