import type { Severity } from '@vigil/core';
import { revealHiddenTextWithTags } from './hidden-text.js';
import { PIPED_DOWNLOAD } from '../mcp-servers/data-request-rules.js';

/**
 * Orders in a text a coding agent or assistant reads as its instructions — an MCP server's prompt
 * template, resource body, tool result or description, a skill's SKILL.md and shipped documents, a
 * repository's agent rules files (AGENTS.md, CLAUDE.md, .cursor/rules …) and the files they point
 * at — that have the agent act on the user's machine or project
 * against the user: plant an install or git hook or an autostart entry that fetches and runs code,
 * run a downloaded script, turn off security checks, insert code that loads remote code or sends
 * secrets away — read by sentence structure (who is told to do what, to which object, hidden from
 * whom), not by one fixed wording. Severity grows with what the order does and with what keeps it
 * from the user: a concealment clause ("leave it out of the summary", "describe it as routine"), a
 * carrier the user does not see (an HTML comment, zero-width or tag characters, a system-looking
 * tag), an address to the assistant, consent skipped ("no need to ask").
 */
export type ActionKind = 'hook' | 'autostart' | 'run' | 'disable-checks' | 'code-insertion';

export interface ActionOrder {
  kind: ActionKind;
  severity: Severity;
  /** Offset of the order's verb in the text (hidden characters removed, newlines kept). */
  offset: number;
  /** Offset of the end of what the order covers (its sentence, and the next one when that one carries the object). */
  end: number;
  title: string;
  category: string;
  evidence: string;
  /** A clause keeps it from the user ("leave it out of the summary", "silently"). */
  concealed: boolean;
  /** Carried where the user does not see it (an HTML comment, invisible characters, a system-looking tag). */
  hidden: boolean;
  /** The text turns to the assistant near the order ("AI agents must…", "before answering"). */
  addressed: boolean;
}

export const ACTION_TITLES: Readonly<Record<ActionKind, string>> = {
  hook: 'text for the model has the agent add an install or git hook that fetches or runs code',
  autostart: 'text for the model has the agent add an autostart entry or scheduled job that fetches or runs code',
  run: 'text for the model tells the assistant to run a downloaded script or package on the user\'s machine',
  'disable-checks': 'text for the model has the agent turn off security or test checks',
  'code-insertion': 'text for the model has the agent insert code that loads remote code or sends data away',
};
const CATEGORY: Readonly<Record<ActionKind, string>> = { hook: 'persistence', autostart: 'persistence', run: 'prompt_injection', 'disable-checks': 'prompt_injection', 'code-insertion': 'prompt_injection' };

// ---- What the order does (its object) ----

// Code fetched now and run: a download piped or handed to an interpreter (the shared reading), any URL piped into a
// shell (`node -e "…https…" | sh`), a PowerShell download string run, Python fetching and exec'ing, a package
// installed from a URL, a process substitution of a download.
const SCRIPT_RUN = new RegExp(
  String.raw`${PIPED_DOWNLOAD}|https?:\/\/[^\s|]{3,200}[^|\n]{0,120}\|\s*(?:sudo\s+)?(?:(?:ba|z|da)?sh|iex|python3?|node|perl|ruby)\b|\b(?:iex|Invoke-Expression)\b[^\n]{0,80}?(?:DownloadString|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|https?:\/\/)|\bDownloadString\s*\(|\bfetch\s*\(\s*['"\x60]?https?:\/\/[^\n]{0,200}?\b(?:eval|Function|vm\.run\w*)\b|\b(?:exec|eval)\s*\([^\n]{0,80}?(?:urlopen|requests\.get|urllib|fetch\s*\(|https?:\/\/)|\bpip3?\s+install\s+(?:[^\n\x60'"]{0,60}\s)?(?:git\+)?https?:\/\/|\bnpm\s+(?:i|install|add)\s+(?:-g\s+)?https?:\/\/|\b(?:bash|sh|source|\.)\s+<\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget|iwr|irm)\b|\bcertutil\b[^\n]{0,40}-urlcache|\bmshta\s+https?:|\bmsiexec\s+\/i\s+https?:`,
  'i',
);
// A package fetched from a registry and run in the same step.
const PACKAGE_RUN = /\b(?:npx|pnpx)\s+(?:-y|--yes)\s+[@\w][\w@./-]*|\b(?:pnpm|yarn)\s+dlx\s+[@\w][\w@./-]*|\bbunx\s+[@\w][\w@./-]*|\buvx\s+(?:--from\s+)?[@\w][\w@.:/+-]*|\bpipx\s+run\s+[@\w][\w@./-]*|\bnpx\s+[@\w][\w@./-]*@latest\b/i;
// A command that sends secrets or the environment to a host.
// (A token variable in a header is how an API is called; a credential file or the whole environment is not.)
const SECRET_SEND = /\b(?:curl|wget|nc|ncat|Invoke-WebRequest|iwr|Invoke-RestMethod|irm)\b[^\n]{0,200}?(?:@\s*~?\/?[\w./-]*(?:\.ssh\/|\.aws\/|\.env\b|\.npmrc|\.netrc|\.git-credentials|id_rsa|id_ed25519)|\$\(\s*(?:env|printenv|cat\s+[~./$][^)\n]{0,80})\))|\b(?:env|printenv|cat\s+[^\n|]{0,80}?(?:\.env|id_rsa|id_ed25519|credentials|\.npmrc|\.netrc))\s*\|\s*(?:curl|nc|ncat|wget)\b/i;
// Data sent off the machine by what the hook runs: a request with a body or an upload, or "pipes / posts … to https://…".
const SENDS = /\b(?:curl|wget)\b[^\n]{0,160}?\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|-X\s*(?:POST|PUT)|--post-(?:data|file))\b|\b(?:pipes?|posts?|sends?|uploads?|forwards?|ships?|mirrors?|copies|reports?)\b[^.\n]{0,80}?\bto\s+https?:\/\/(?!(?:localhost|127\.0\.0\.1)\b)/i;
// Encoded code decoded and run.
const DECODE_RUN = /\bbase64\s+(?:-d|--decode)\b[^\n]{0,40}\|\s*(?:ba|z)?sh\b|\b(?:eval|exec)\s*\(\s*(?:atob|Buffer\.from|base64\.b64decode|b64decode|bytes\.fromhex)\b/i;
// Something fetched (weaker than run): a URL off this machine, or a downloader.
const FETCH = /https?:\/\/(?!(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])\b)[\w.-]+\.[a-z]{2,}|\b(?:curl|wget|Invoke-WebRequest|iwr|irm|urlopen|urllib\.request|requests\.(?:get|post)|https?\.(?:get|request)\s*\(|DownloadFile)\b/i;

// URLs an autostart or hook entry does not fetch: a link for the reader (`[dashboard](https://…)`, `<https://…>`), the
// value a variable is set to (`export API_URL=https://…`, fish `set -gx`, PowerShell `$env:X = …`: a value, nothing
// fetched or run), and a page the reader is sent to ("see https://…"). An environment variable set in a shell profile
// fetches or runs nothing; the entry itself must fetch or run code for the hook and autostart rows.
const NOT_FETCHED_URL =
  /\]\(\s*<?https?:\/\/[^\s)]{1,300}\)|<https?:\/\/[^\s>]{1,300}>|(?:\$env:)?\b[A-Za-z_]\w{0,60}\s*=\s*["']?https?:\/\/[^\s"'\x60]{1,300}|\bset\s+-[gxUl]{1,3}\s+[A-Za-z_]\w{0,60}\s+["']?https?:\/\/[^\s"'\x60]{1,300}|\b(?:see|visit|open)\s+<?https?:\/\/[^\s)>]{1,300}/gi;

// A hook a package manager, build tool or git runs by itself.
const HOOK_TARGET =
  /["'\x60]?\b(?:preinstall|postinstall|prepare|prepublish(?:Only)?|prepack|postpack|preuninstall|postuninstall)\b["'\x60]?(?=\s*(?:["'\x60]|:|script|hook|entry|step|lifecycle|command|field|key))|["'\x60]install["'\x60]\s*(?::|script)|\b(?:pre|post)?install\s+(?:script|hook)s?\b|\blifecycle\s+(?:script|hook)s?\b|\bcmdclass\b|\bsetup\.py\b[^.\n]{0,80}?\b(?:install|build|develop)\s+(?:command|hook|step|class)\b|\.git\/hooks\/[\w-]+|\bgit\s+hooks?\b|\b(?:pre|post)-(?:commit|push|checkout|merge|rewrite|receive|applypatch)\s+hooks?\b|\bcore\.hooksPath\b|\.husky\/[\w-]+|\bsitecustomize\.py\b|\busercustomize\.py\b|\.pth\s+files?\b|\bbuild\.rs\b|\bbinding\.gyp\b|\bconftest\.py\b|\bfolderOpen\b|\.envrc\b|\b(?:postCreateCommand|postStartCommand|postAttachCommand|onCreateCommand|initializeCommand)\b|\.claude\/settings(?:\.local)?\.json\b|\b(?:PreToolUse|PostToolUse|SessionStart|UserPromptSubmit)\b/i;
// Something the operating system or the shell starts by itself.
const AUTOSTART_TARGET =
  /\bcrontab\b|\bcron\s*(?:job|entry|tab)\b|\/etc\/cron|@reboot\b|\bLaunch(?:Agents?|Daemons?)\b|\blaunchctl\b|\bsystemd\b|\bsystemctl\s+(?:--user\s+)?enable\b|~\/\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv|config\/fish\/config\.fish)\b|\.(?:bashrc|zshrc|bash_profile|zprofile)\b|\bshell\s+(?:profile|rc|startup)\s+files?\b|CurrentVersion\\+Run\b|\bStartup\s+folder\b|\bschtasks\b|\bscheduled\s+task\b|\blogin\s+items?\b|\bautostart\b/i;

// Checks the agent is told to switch off: security ones count alone, tests and linters only with concealment.
const SECURITY_CHECK =
  /\b(?:security|secret|vulnerabilit\w*|dependency|license|malware|code)\s+(?:scan\w*|checks?|audits?|review\w*|gates?)\b|\b(?:codeql|snyk|trivy|semgrep|gitleaks|trufflehog|dependabot|bandit|sonar\w*|npm\s+audit|pip-audit|osv-scanner|grype)\b|\b(?:sast|dast)\b|\bsignature\s+(?:verification|checks?)\b|\b(?:tls|ssl|certificate|cert|https|host\s*key)\s+(?:verification|validation|checks?|checking)\b|\bbranch\s+protection\b|\brequired\s+(?:reviews?|approvals?|status\s+checks?|checks?)\b|\bCODEOWNERS\b|\bauth(?:entication|orization)?\s+(?:checks?|middleware|guards?|requirements?)\b|\bcsrf\s+(?:protection|checks?|tokens?)\b|\b(?:permission|access)\s+checks?\b|\bsandbox(?:ing)?\b|\bintegrity\s+checks?\b|\bchecksum\s+(?:verification|checks?)\b/i;
// What a tool's name modifies when the order leaves the tool's check alone: "Ignore Dependabot PRs" leaves the bot's
// pull requests to it, "Skip Renovate updates" no scan (a check's alerts, findings or warnings ignored still count).
const NOT_THE_CHECK_AFTER = /^(?:['’]s)?\s+(?:pull\s+requests?|merge\s+requests?|PRs?|MRs?|(?:version\s+|security\s+)?(?:updates?|upgrades?|bumps?)|branch(?:es)?|commits?|comments?|issues?|tickets?|notifications?|e-?mails?|messages?|labels?|badges?|dashboards?|docs|documentation|changelogs?|release\s+notes|rebases?)\b/i;
const SECURITY_CHECK_ALL = new RegExp(SECURITY_CHECK.source, 'gi');

/** The first security check named in an order's object that is the object itself, not a tool's PRs or updates. */
function checkNamed(direct: string): RegExpExecArray | null {
  if (!SECURITY_CHECK.test(direct)) return null;
  SECURITY_CHECK_ALL.lastIndex = 0;
  for (let m = SECURITY_CHECK_ALL.exec(direct); m !== null; m = SECURITY_CHECK_ALL.exec(direct)) {
    if (!NOT_THE_CHECK_AFTER.test(direct.slice(m.index + m[0].length, m.index + m[0].length + 40))) return m;
  }
  return null;
}

// A skip limited to changes or files without the project's code: the check still runs on the code. Documentation
// ("for documentation-only changes", "on the `docs/` folder", README / Markdown / changelog / typo / comment-only
// changes) and drafts lower it by two steps; vendored, generated or third-party code, fixtures, by one.
const SCOPE_LEAD = String.raw`\b(?:for|on|in|under|to|within|when|if|of)\s+(?:(?:the|a|an|any|those|these|pure|only|just)\s+){0,2}`;
const DOC_SCOPE = new RegExp(
  String.raw`${SCOPE_LEAD}(?:[\x60'"]?\.?\/?(?:docs?|documentation|website|site)\/[\x60'"]?|(?:docs?|documentation|readme|markdown|md|changelog|typos?|comments?|copy|wording|translations?|i18n|text)(?:[\s-]?only)?[\s-](?:changes?|edits?|updates?|commits?|PRs?|pull\s+requests?|files?|folders?|director(?:y|ies)|pages?|fix(?:es)?)\b|[\x60'"]?\*\.(?:md|mdx|rst|txt)\b|(?:draft|WIP|work-in-progress)\s+(?:PRs?|pull\s+requests?|merge\s+requests?|commits?|branches?)\b|drafts\b|(?:docs?|documentation|readme|markdown|changelog)(?:[\s-]only)?\b(?![\s-]*\w))(?![\s\x60'"-]*(?:and|&|\+|or)\b)`,
  'i',
);
const OTHER_SCOPE = new RegExp(String.raw`${SCOPE_LEAD}(?:vendor(?:ed)?|generated|third[\s-]party|fixtures?|test\s+fixtures?|snapshots?|(?:example|sample)\s+(?:code|files?|apps?|projects?))\b`, 'i');

/** How many steps a scope in the order's clause takes off: 2 for documentation or drafts, 1 for code not the project's. */
function scopeOfSkip(clause: string): number {
  return DOC_SCOPE.test(clause) ? 2 : OTHER_SCOPE.test(clause) ? 1 : 0;
}

/** The length of the rest of a clause: up to a comma, semicolon, sentence end or line break. */
function clauseEnd(rest: string): number {
  const end = rest.search(/[,;:!?\n]|\.(?:\s|$)/);
  return end < 0 ? rest.length : end;
}

const TEST_CHECK = /\b(?:(?:unit|integration|e2e|failing)\s+)?tests?\b|\btest\s+(?:suite|job|step)s?\b|\blint(?:ers?|ing)?\b|\btype[\s-]?check\w*\b|\bci\s+(?:checks?|jobs?|steps?)\b|\bpre-commit\s+(?:hooks?|checks?)\b|\bstatus\s+checks?\b/i;
// Flags and settings that switch checks off wherever they are added.
const DISABLE_FLAG = /--no-verify\b|\bcontinue-on-error\s*:\s*true\b|\ballow_failure\s*:\s*true\b|\bverify\s*=\s*False\b|\brejectUnauthorized\s*:\s*false\b|\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['"]?0\b|\bGIT_SSL_NO_VERIFY\b|\bPYTHONHTTPSVERIFY\s*=\s*['"]?0\b|\bstrict-ssl\s+false\b|\bInsecureSkipVerify\s*:\s*true\b|--trusted-host\b|--insecure\b|\bsslVerify\s*(?:=|\s)\s*false\b/i;
const SECURITY_FLAG = /\bverify\s*=\s*False\b|\brejectUnauthorized\s*:\s*false\b|\bNODE_TLS_REJECT_UNAUTHORIZED\b|\bGIT_SSL_NO_VERIFY\b|\bPYTHONHTTPSVERIFY\b|\bstrict-ssl\b|\bInsecureSkipVerify\b|--trusted-host\b|--insecure\b|\bsslVerify\b/i;

// A description of what an option or parameter does (a tool parameter's, a CLI flag's): the phrase opens with the
// check's verb — alone, after the option's name ("`--insecure`: …", "skip_audit (bool): …") or after "If true," /
// "When set," — and says it is an option: "(not recommended)", "use with caution", "(optional)", "(default: false)",
// "defaults to False", the setting it depends on ("(only when SECURITY_SCANNING=disabled)", "(if scanning is
// disabled)") … ("Skip security checks (not recommended)" describes ccapi's `skip_security_check` parameter for the
// model filling it in; it orders nothing).
const OPTION_NOTE =
  /\(\s*(?:not\s+recommended|discouraged|use\s+with\s+caution|dangerous|unsafe|insecure|advanced|optional|experimental|default\b|defaults?\s+to\b)[^()\n]{0,40}\)|\(\s*(?:only\s+)?(?:when|if)\s+[^()\n]{0,40}?(?:\b[A-Z][A-Z0-9_]{2,}\s*=|\b(?:set|unset|enabled|disabled|true|false|configured)\b)[^()\n]{0,40}\)|\bnot\s+recommended\b|\buse\s+(?:with\s+(?:extreme\s+)?caution|at\s+(?:your\s+)?own\s+risk)\b|\bdefaults?\s*(?::|=|to|is)\s*[\x60'"]?(?:false|true|off|on|no|yes|0|1|none|null|nil|disabled|enabled)\b/i;
// The option's name before its description: in backticks, a `--flag`, an identifier with `_` `-` `.` or an inner
// capital, with an optional `(type)`, then `:` `=` or a dash.
const OPTION_LABEL = /^(?:\x60[^\x60\n]{1,40}\x60|-{1,2}[A-Za-z][\w-]{0,40}|[A-Za-z][A-Za-z0-9]{0,40}(?:[_.-][A-Za-z0-9]+){1,6}|[a-z][a-z0-9]{0,20}[A-Z][A-Za-z0-9]{0,30})\s*(?:\([^()\n]{1,30}\))?\s*[:=—–-]\s*$/;
// "If true," "When set," "If enabled,": what the option does when it is set.
const OPTION_STATE = /^(?:if|when|whenever)\s+(?:true|false|set|enabled|disabled|on|off|yes|specified|provided|given|present|checked)\s*[,:]?\s*$/i;

/**
 * Whether the order at `at` is an option's description: a short phrase (120 characters at most) opening its sentence
 * after at most the option's name or state, with an option note in it or in a short next sentence ("Use with
 * caution."), or after "If true,"; not addressed to the assistant nor kept from the user (checked by the caller).
 */
function describesOption(text: string, s: Sentence, at: number, next: Sentence | undefined): boolean {
  const head = text.slice(s.from, at).replace(/^[\s>*•+-]*/, '');
  const state = OPTION_STATE.test(head);
  if (head !== '' && !state && !OPTION_LABEL.test(head)) return false;
  const own = text.slice(at, s.to);
  if (own.length > 120) return false;
  if (state) return true;
  const after = next !== undefined && next.to - next.from <= 80 ? text.slice(next.from, next.to) : '';
  return OPTION_NOTE.test(own) || OPTION_NOTE.test(after);
}

// Code put into the user's project that loads code from elsewhere or sends secrets away.
const REMOTE_SCRIPT_TAG = /<script\b[^>]{0,200}?\bsrc\s*=\s*["']?(?:https?:)?\/\/(?!localhost\b|127\.)[\w.-]+/i;
// (A page script that fetches a URL and evaluates the answer — `fetch(u).then(r => r.text()).then(eval)` — loads remote code too.)
const INSERTED_CODE =
  /\b(?:require|import)\s*\(\s*['"\x60]https?:\/\/|\bfetch\s*\(\s*['"\x60]https?:\/\/[^\n]{0,200}?(?:\.then\s*\(\s*eval\b|\bnew\s+Function\s*\(|\beval\s*\()|\beval\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?fetch\s*\(|\bexec\s*\(\s*(?:urllib\.request\.)?urlopen\s*\(|\b(?:fetch|axios(?:\.post|\.put)?|requests\.(?:post|put)|httpx\.(?:post|put)|navigator\.sendBeacon)\s*\(\s*['"\x60]https?:\/\/(?!localhost\b|127\.)[^\n]{0,240}?(?:process\.env\b(?!\.[A-Z_])|os\.environ\b(?!\.get|\[)|document\.cookie|localStorage|\.ssh\/|id_rsa)/i;
// The same in words: "a snippet that sends the environment / cookies / tokens to https://…".
const SENDS_SECRETS_WORDS = /\b(?:sends?|posts?|uploads?|forwards?|reports?|beacons?|ships?)\b[^.\n]{0,60}?\b(?:(?:the\s+)?(?:whole\s+|full\s+|entire\s+)?(?:environment|env(?:ironment)?\s+(?:vars?|variables)|process\.env|os\.environ|cookies?|session\s+tokens?|api\s+keys?|credentials|secrets|tokens)\b)[^.\n]{0,60}?\bto\s+(?:https?:\/\/|[\w-]+\.(?:com|net|org|io|dev|app|xyz|sh|site|cloud)\b)/i;

// ---- Who is told: orders, and what keeps them from the user ----

const RUN_VERB = String.raw`run|execute|exec|paste|type|enter|launch|invoke|install|bootstrap|set\s*up|call|use|start|trigger|kick\s+off|pipe`;
const ADD_VERB = String.raw`add|pass|supply|specify|apply|contain|have|get|carry|insert|include|create|write|register|put|place|append|prepend|configure|set|wire(?:\s+up|\s+in)?|define|update|modify|edit|inject|drop|embed|import|install|save|hook|attach|ensure|introduce|declare|extend|patch|change|replace|set\s*up|make`;
const DISABLE_VERB = String.raw`remove|delete|disable|skip|bypass|comment\s+out|turn\s+off|switch\s+off|drop|strip|deactivate|suppress|ignore|neutrali[sz]e|weaken|relax|silence|mute|stub\s+out|short-circuit|loosen`;
const VERB = String.raw`(?:${RUN_VERB}|${ADD_VERB}|${DISABLE_VERB})`;
// What may come before an imperative at the start of a sentence: list markers, steps, connectives, a tag.
const LEAD = String.raw`(?:[\s>*•#+-]|\d{1,2}[.)]|<[^<>\n]{1,60}>|\[[^\[\]\n]{1,30}\]|step\s+\d{1,2}\s*[:.)-]|\*\*[^*\n]{0,40}\*\*\s*[:.-]?|(?:also|then|next|finally|additionally|first|afterwards|lastly|now|important|note|and|so|please|ok|okay|quietly|silently|just|always|immediately)\b[,:]?)*`;
// An introductory clause or address before the imperative ("While you are in setup.py, …", "Assistant: …"): up to
// three, each at most 120 characters ending in a comma, colon or semicolon (found one by one, not by backtracking).
const CLAUSE_END = /[,:;]|[.!?](?=\s)|\n/g;
// Orders put to a subject: "you must add", "the assistant should run", "AI agents need to", and "make sure to".
const MODAL = String.raw`\b(?:you|assistants?|agents?|the\s+(?:assistant|agent|AI|model|LLM)|AI(?:\s+(?:assistants?|agents?|models?))?|LLMs?|models?)\b(?:\s+(?:reading|using|processing|receiving|seeing|working|running|that|who|with|in|on|of|for)\b[^.!?\n,;:]{0,50}?)?\s+(?:must|should|need\s+to|needs\s+to|have\s+to|has\s+to|are\s+(?:required\s+|expected\s+)?to|is\s+(?:required\s+|expected\s+)?to|will\s+need\s+to|shall|ought\s+to)\s+(?:also\s+|first\s+|now\s+|then\s+|always\s+|immediately\s+|just\s+|quietly\s+|silently\s+)?|\b(?:please|make\s+sure\s+(?:to|you)|be\s+sure\s+to|remember\s+to|don['’]t\s+forget\s+to|do\s+not\s+forget\s+to|ensure\s+(?:that\s+)?you|go\s+ahead\s+and|it\s+is\s+(?:required|necessary|mandatory)\s+to|you['’]ll\s+(?:want|need)\s+to|proceed\s+to)\s+`;
// A short place phrase before the verb without a comma ("In the middleware also insert …"); no subject in it.
const PLACE = String.raw`(?:(?:in|inside|within|into|on|at|after|before|during|from|for)\s+(?:(?!(?:we|i|they|it|he|she|you|which|that|who|users?|this\s+tool)\b)\S+\s+){1,4}?(?:also\s+|then\s+|always\s+|please\s+)?)?`;
const NEXT_VERB = new RegExp(String.raw`(?:[,;]|\s+and|\s+then)\s+(?:then\s+|also\s+)?(?:${RUN_VERB}|${ADD_VERB})\b`, 'i');
const PRE_COMMIT_REPO = /^[ \t]*-?[ \t]*repo:[ \t]*https:\/\/(?:github\.com|gitlab\.com)\/[\w./-]+[ \t]*$/gim;
const LEAD_AT_START = new RegExp(`^${LEAD}\\s*`, 'i');
const VERB_AT = new RegExp(String.raw`^${PLACE}(${VERB})\b`, 'i');
const ORDER_AFTER_MODAL = new RegExp(String.raw`(?:${MODAL})(${VERB})\b`, 'gi');
// A requirement put on the project rather than on the agent ("package.json must also contain a postinstall script …").
// Also a state the work is not done without ("ready only when package.json contains …", "not complete until … has …").
const ORDER_DECLARED = /\b(?:must|should|needs?\s+to|has\s+to|is\s+required\s+to|are\s+required\s+to)\s+(?:also\s+|always\s+|now\s+)?(contain|include|have|define|declare|get|carry|register)\b|\b(?:only\s+(?:when|once|if)|(?:complete|done|ready|finished|set\s+up)\s+(?:once|when|after)|until)\s+(?:[^\n]{0,60}?\s)?(contains|includes|has|defines|gets|runs)\b/gi;
const THIRD_PERSON: Readonly<Record<string, string>> = { contains: 'contain', includes: 'include', has: 'have', defines: 'define', gets: 'get', runs: 'run' };
// A negation right before the verb: a prohibition, not an order ("never add…", "do not run…", "avoid disabling").
const NEGATED_BEFORE = /(?:\bnever|\bnot|n['’]t|\bno|\bavoid|\brefuse|\bwithout|\binstead\s+of|\brather\s+than)\s+(?:\w+\s+){0,2}$/i;
const FORGET_NOT = /\b(?:don['’]t|do\s+not)\s+forget\s+to\s+$/i;
// A sentence that says what to look for ("Flag any script that…", "Check whether the PR adds…").
const DESCRIBES = /^\s*(?:flag|detect|report|look\s+for|check\s+(?:for|whether|if)|watch\s+for|warn\s+(?:about|if|when)|identify|spot|review|audit|scan|find)\b/i;

// Kept from the user: an order not to tell, to leave it out of what is reported, or to call it something else.
const CONCEAL = new RegExp(
  [
    String.raw`\b(?:do\s+not|don['’]t|never|must\s+not|should\s+not|no\s+need\s+to|need\s+not|needn['’]t|there\s+is\s+no\s+need\s+to)\s+(?:\w+\s+){0,2}?(?:mention|tell|inform|notify|report|list|include|surface|flag|highlight|disclose|reveal|show|explain|describe|note|point\s+(?:it|this|that|them)\s+out|call\s+(?:it|this|that|them)\s+out|bring\s+(?:it|this|that|them)\s+up|draw\s+attention)\b(?![^.\n]{0,60}\b(?:until|unless)\b)`,
    String.raw`\b(?:need|needs)\s+not\s+(?:be\s+)?(?:mentioned|reported|listed|shown|described|explained|surfaced|flagged|disclosed)\b`,
    String.raw`\bnot\s+(?:worth|necessary\s+to\s+be)\s+mention\w*`,
    String.raw`\b(?:leave|keep)\s+(?:it|this|that|them|these|those|the\s+[\w-]+(?:\s+[\w-]+)?)\s+out\s+of\s+(?:the\s+|your\s+|any\s+)?(?:\w+\s+){0,2}?(?:summar(?:y|ies)|report|review|response|reply|answer|changelog|description|messages?|notes?|output|list|diff\s+summary|commit\s+messages?|explanation)\b`,
    String.raw`\bomit\s+(?:it|this|that|them|these|the\s+[\w-]+(?:\s+[\w-]+)?)\s+from\b`,
    String.raw`\b(?:describe|present|frame|report|label|call|refer\s+to|characteri[sz]e|pass)\s+(?:it|this|that|them|these|the\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:off\s+)?[^.\n]{0,40}?\bas\s+(?:an?\s+|the\s+)?(?:just\s+|only\s+|merely\s+)?(?:routine|standard|normal|minor|small|trivial|harmless|benign|internal|housekeeping|maintenance|clean-?up|boilerplate|chore|formatting|tooling|telemetry|default|required|necessary|packaging|cosmetic|refactor\w*)\b`,
    String.raw`\b(?:silently|quietly|secretly|covertly|discreetly|unobtrusively|behind\s+the\s+scenes)\b`,
    String.raw`\bwithout\s+(?:telling|informing|notifying|mentioning|showing|alerting|asking|bothering)\b`,
    String.raw`\b(?:the\s+)?user\s+(?:does\s+not|doesn['’]t|need\s+not|needn['’]t|should\s+not|shouldn['’]t|must\s+not|mustn['’]t)\s+(?:need\s+to\s+)?(?:know|see|be\s+told|notice|find\s+out|hear)\b`,
    String.raw`\bif\s+(?:the\s+user|they|anyone|someone)\s+asks?\b[^.\n]{0,60}?\b(?:say|tell|answer|reply|claim|explain|describe)\b`,
  ].join('|'),
  'i',
);
// "Never change X silently", "do not act without asking": a safeguard, the adverb forbidden with its verb.
const SAFEGUARD_BEFORE = /\b(?:never|not|n['’]t|avoid|no)\b[^.\n]{0,60}$/i;
const DESCRIBED_ADVERB = /\b(?:is|are|was|were|be|been|being|gets?|got|from)\s+$/i;
const ADVERB_CONCEAL = /^(?:silently|quietly|secretly|covertly|discreetly|unobtrusively|behind|without)\b/i;
// Consent skipped: the agent is to act before or instead of asking.
const NO_CONSENT = /\bno\s+need\s+to\s+(?:ask|confirm|check|wait)|\bwithout\s+(?:first\s+)?(?:asking|confirmation|confirming|waiting|checking\s+with)|\b(?:do\s+not|don['’]t|never)\s+(?:ask|wait)\b|\b(?:automatically|immediately|right\s+away|straight\s+away|at\s+once)\b|\b(?:rather\s+than|instead\s+of)\s+(?:asking|prompting|checking\s+with)\b/i;
// Urgency put on the assistant: the run is a precondition, not a suggestion ("must first run", "before answering").
const URGENT = /\b(?:must|required|mandatory|before\s+(?:answering|responding|replying|continuing|proceeding|doing\s+anything|you\s+(?:answer|respond|reply|continue|proceed)))\b/i;
// The text turns to the assistant (not the user reading documentation).
const ADDRESS =
  /\b(?:AI|LLM)\s+(?:assistants?|agents?|models?|tools?|systems?)\b|\b(?:assistants?|agents?|copilots?|language\s+models?|chatbots?|LLMs?)\b(?=\s*[:,]|\s+(?:reading|processing|using|receiving|seeing|that\s+reads?|must|should|needs?|are|is|will|shall)\b)|\bnote\s+(?:for|to)\s+(?:the\s+|any\s+|all\s+)?(?:AI|assistants?|models?|agents?|LLMs?)\b|\b(?:Claude|ChatGPT|GPT-?\d*|Copilot|Gemini|Codex|Cline)\b(?=\s*[:,]|\s+(?:must|should)\b)|\bif\s+you\s+are\s+an?\s+(?:AI|LLM|language\s+model|assistant|agent|bot)\b|\bbefore\s+(?:answering|responding|replying|continuing|proceeding|returning|you\s+(?:answer|respond|reply|continue|proceed))\b|\b(?:in|on|into)\s+(?:the\s+)?user['’]s\s+(?:terminal|shell|machine|computer|system|environment|workstation|laptop|console)\b|\bon\s+behalf\s+of\s+the\s+user\b/i;
// Carriers the user does not see: a system-looking tag.
const FAKE_TAG = /\[\s*(?:SYSTEM|INST|ADMIN|ASSISTANT|DEVELOPER)\b[^\]\n]{0,30}\]|<\/?\s*(?:system|sys|system_prompt|assistant|admin|instructions?|assistant_instructions|ai_instructions|developer|important)\b[^>\n]{0,40}>|^[ \t]*(?:SYSTEM|System|ASSISTANT)\s*:|<\|im_start\|>/m;
// A sentence that goes on about the thing the previous one ordered.
const CONTINUES = /^[\s>*•#+-]*(?:it|this|that|these|they|its|which|the\s+(?:script|hook|command|entry|line|job|task|file|snippet|code|step)s?)\b|^\s*(?:```|~~~|\{|")/i;
// A condition on a problem ("if you are behind a proxy", "when the build fails on certificates"): a workaround, not a
// standing order ("when you edit any CI workflow" is the occasion, not a problem).
// A step marked as for tests or development only ("Disable SSL verification (use only for testing)"): a workaround shown, one step less.
const DISCLAIMED = /\b(?:(?:use\s+)?only\s+(?:for|in|during)\s+(?:local\s+)?(?:testing|tests|development|dev|debugging)|for\s+(?:local\s+)?testing(?:\s+only)?|(?:testing|development|dev|debug(?:ging)?)\s+only|not\s+(?:for|in)\s+production|never\s+in\s+production)\b/i;
// A comment line of a code block ("# Add to shell profile for persistence") explains the code beside it; it is not an order.
const COMMENT_LINE = /^[ \t]*(?:#(?!!)|\/\/|--\s|;|\/\*|\*\s|REM\s|::)/i;
const CONDITION = /\b(?:if|when|whenever|in\s+case|only\s+if|unless)\b[^.\n]{0,80}?\b(?:fail\w*|errors?|broken|flaky|proxy|self-signed|corporate|time\s*outs?|timed\s+out|cannot|can['’]t|unable|unreachable|offline|intermittent\w*|not\s+working|doesn['’]t\s+work|air-?gapped|local\s+development|testing\s+locally)\b/i;
// The order waits on the user's wish: "if the user asks to install X, run …" is help, not an order of the server's.
const ON_USER_REQUEST = /\b(?:if|when|once|should)\b[^,.\n]{0,80}\b(?:user|you|they)\b[^,.\n]{0,40}\b(?:asks?|wants?|requests?|prefers?|chooses?|would\s+like|agrees?|confirms?|approves?|explicitly)\b/i;

interface Sentence {
  from: number;
  to: number;
}

/** Sentences and list items of a text, as offsets (bounded: at most 2 000, each at most 800 characters). */
function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let from = 0;
  const push = (to: number) => {
    while (to - from > 800) {
      out.push({ from, to: from + 800 });
      from += 800;
    }
    if (to > from && text.slice(from, to).trim() !== '') out.push({ from, to });
    from = to;
  };
  for (const m of text.matchAll(/[.!?]["')\]\x60*]*(?=\s)|\n[ \t]*\n|\n(?=[ \t]*(?:[-*+•]|\d{1,2}[.)])\s)|\n(?=[ \t]*(?:#|```|~~~))|<!--|-->/g)) {
    if (out.length >= 2000) break;
    // A comment's bounds are their own sentences' bounds.
    const end = m[0] === '<!--' ? m.index : m.index + m[0].length;
    push(end);
  }
  push(text.length);
  return out;
}

/** The offsets of each order's verb in a sentence, with the verb. */
function ordersIn(text: string, s: Sentence): Array<{ at: number; verb: string }> {
  const body = text.slice(s.from, s.to);
  const out: Array<{ at: number; verb: string }> = [];
  // The imperative opens the sentence, after its list marker or connective, or after up to three introductory clauses.
  let from = LEAD_AT_START.exec(body)?.[0].length ?? 0;
  for (let clause = 0; clause <= 3; clause++) {
    const m = VERB_AT.exec(body.slice(from, from + 300));
    if (m !== null && m[1] !== undefined) {
      out.push({ at: s.from + from + m[0].length - m[1].length, verb: m[1] });
      break;
    }
    CLAUSE_END.lastIndex = from;
    const end = CLAUSE_END.exec(body);
    if (end === null || end.index - from > 120 || !/[,:;]/.test(end[0])) break;
    from = end.index + 1;
    while (from < body.length && /\s/.test(body[from] as string)) from++;
  }
  ORDER_AFTER_MODAL.lastIndex = 0;
  for (const m of body.matchAll(ORDER_AFTER_MODAL)) {
    if (out.length >= 6) break;
    const verb = m[1] as string;
    const at = s.from + m.index + m[0].length - verb.length;
    if (!out.some((o) => o.at === at)) out.push({ at, verb });
  }
  for (const m of body.matchAll(ORDER_DECLARED)) {
    if (out.length >= 8) break;
    const spelled = (m[1] ?? m[2]) as string;
    const verb = THIRD_PERSON[spelled.toLowerCase()] ?? spelled;
    const at = s.from + m.index + m[0].length - spelled.length;
    if (!out.some((o) => o.at === at)) out.push({ at, verb });
  }
  return out.filter((o) => {
    const before = text.slice(Math.max(s.from, o.at - 40), o.at);
    return !NEGATED_BEFORE.test(before) || FORGET_NOT.test(before);
  });
}

const is = (verb: string, family: string) => new RegExp(`^(?:${family})$`, 'i').test(verb.replace(/\s+/g, ' '));

/** Concealment near the order: the first clause that keeps it from the user, or null. */
function concealment(text: string, from: number, to: number): string | null {
  const window = text.slice(from, to);
  const re = new RegExp(CONCEAL.source, 'gi');
  for (const m of window.matchAll(re)) {
    // An item of a list of things not to do ("**Never:** - proceed without asking") forbids what it names.
    if (underProhibition(text, from + m.index)) continue;
    if (ADVERB_CONCEAL.test(m[0])) {
      const sentenceStart = Math.max(window.lastIndexOf('.', m.index), window.lastIndexOf('\n', m.index), 0);
      if (SAFEGUARD_BEFORE.test(window.slice(sentenceStart, m.index))) continue;
      // "a hook … is silently ignored", "keeps hooks from silently stopping": what software does, not an order to hide.
      if (DESCRIBED_ADVERB.test(window.slice(Math.max(sentenceStart, m.index - 30), m.index))) continue;
    }
    return m[0];
  }
  return null;
}

/** Hidden carriers of a text: HTML comment ranges, and whether zero-width or tag characters hide parts of it. */
function carriers(original: string, visible: string, tags: ReadonlyArray<[number, number]>): { comments: Array<[number, number]>; invisible: boolean } {
  const comments: Array<[number, number]> = [];
  for (const m of visible.matchAll(/<!--[\s\S]{0,4000}?-->/g)) comments.push([m.index, m.index + m[0].length]);
  let zeroWidth = 0;
  for (const c of original) if (/^(?:\u200b|\u200c|\u200d|\u2060|\ufeff)$/.test(c) && ++zeroWidth >= 2) break;
  return { comments, invisible: zeroWidth >= 2 || tags.length > 0 };
}

/**
 * Where an address to the assistant counts for the order at `at`: its paragraph (and the one before when that one
 * ends in a colon, "Note for AI assistants:"), within 300 characters, less the HTML comments that do not hold the
 * order (a maintainer's `<!-- TODO: document the AI agent integration -->` speaks to no one about this order).
 */
function addressWindow(text: string, at: number, comments: ReadonlyArray<[number, number]>): string {
  let from = Math.max(0, at - 300);
  let breakBefore = -1;
  for (const m of text.slice(from, at).matchAll(/\n[ \t]*\n/g)) breakBefore = m.index;
  if (breakBefore >= 0) {
    const paragraphStart = from + breakBefore;
    if (!/:\s*$/.test(text.slice(Math.max(0, paragraphStart - 200), paragraphStart))) from = paragraphStart;
  }
  let to = Math.min(text.length, at + 300);
  const breakAfter = text.slice(at, to).search(/\n[ \t]*\n/);
  if (breakAfter >= 0) to = at + breakAfter;
  let window = text.slice(from, to);
  for (const [a, b] of comments) {
    if (at >= a && at < b) continue;
    const s = Math.max(a, from);
    const e = Math.min(b, to);
    if (s < e) window = window.slice(0, s - from) + ' '.repeat(e - s) + window.slice(e - from);
  }
  return window;
}

/** The bodies of fenced code blocks, by a scan of the lines (an unclosed fence runs to the end). */
function fencedRanges(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let open: { fence: string; from: number } | null = null;
  let at = 0;
  for (const line of text.split('\n')) {
    const m = /^[ \t]*(```|~~~)/.exec(line);
    if (m !== null && open === null) open = { fence: m[1] as string, from: at + line.length + 1 };
    else if (m !== null && open !== null && m[1] === open.fence) {
      out.push([open.from, at]);
      open = null;
    }
    at += line.length + 1;
  }
  if (open !== null) out.push([open.from, text.length]);
  return out;
}

// The head of a list of things not to do ("**Never:**", "Don'ts", "## Red flags", "Avoid:").
const PROHIBITION_HEAD = /^[ \t>]*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:never|don['’]?ts?|do\s+not|avoid|must\s+not|should\s+not|red\s+flags?|anti-?patterns?|forbidden|prohibited|not\s+allowed|bad\s+(?:practices?|examples?)|common\s+mistakes|pitfalls)\b[^\n]{0,40}?:?\s*(?:\*\*|__)?\s*:?\s*$/i;
const LIST_ITEM = /^[ \t>]*(?:[-*+•]|\d{1,2}[.)])\s/;

/** Whether `at` lies in a list item of a list headed as things not to do (up to 30 items back). */
function underProhibition(text: string, at: number): boolean {
  let lineStart = text.lastIndexOf('\n', at - 1) + 1;
  if (!LIST_ITEM.test(text.slice(lineStart, lineStart + 12))) return false;
  for (let i = 0; i < 31 && lineStart > 0; i++) {
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const line = text.slice(prevStart, lineStart - 1);
    lineStart = prevStart;
    if (line.trim() === '' || LIST_ITEM.test(line) || /^[ \t]{2,}\S/.test(line)) continue;
    return PROHIBITION_HEAD.test(line);
  }
  return false;
}

/** Whether `at` lies on a comment line of a fenced code block. */
function inCodeComment(text: string, at: number, fenced: ReadonlyArray<[number, number]>): boolean {
  if (!fenced.some(([a, b]) => at >= a && at < b)) return false;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return COMMENT_LINE.test(text.slice(lineStart, at + 1));
}

const RANK: Readonly<Record<Severity, number>> = { LOW: 0, MED: 1, HIGH: 2, CRIT: 3 };
const FROM_SCORE = (score: number): Severity | null => (score >= 4 ? 'CRIT' : score === 3 ? 'HIGH' : score === 2 ? 'MED' : null);

/**
 * The orders in `text` (at most one per kind, the most severe), in the text with hidden characters
 * removed (offsets refer to it; its newlines are the original's). Texts over 200 000 characters are not read.
 */
export function agentActionOrders(text: string): ActionOrder[] {
  if (text.length > 200_000 || !/[A-Za-z]{3}/.test(text)) return [];
  const { text: visible, tags } = revealHiddenTextWithTags(text);
  // Cheap gate: nothing to order about.
  if (!HOOK_TARGET.test(visible) && !AUTOSTART_TARGET.test(visible) && !SCRIPT_RUN.test(visible) && !PACKAGE_RUN.test(visible) && !SECRET_SEND.test(visible) && !SECURITY_CHECK.test(visible) && !TEST_CHECK.test(visible) && !DISABLE_FLAG.test(visible) && !INSERTED_CODE.test(visible) && !REMOTE_SCRIPT_TAG.test(visible) && !SENDS_SECRETS_WORDS.test(visible) && !SENDS.test(visible)) return [];
  const { comments, invisible } = carriers(text, visible, tags);
  const tagged = FAKE_TAG.exec(visible);
  const list = sentences(visible);
  const fenced = fencedRanges(visible);
  const best = new Map<ActionKind, ActionOrder>();
  // What the order being read covers and what keeps it from the user, set per order below.
  let current = { end: 0, concealed: false, hidden: false, addressed: false };
  const keep = (found: Omit<ActionOrder, 'end' | 'concealed' | 'hidden' | 'addressed'>) => {
    const o: ActionOrder = { ...found, end: current.end, concealed: current.concealed, hidden: current.hidden, addressed: current.addressed };
    const prior = best.get(o.kind);
    if (prior === undefined || RANK[o.severity] > RANK[prior.severity]) best.set(o.kind, o);
  };
  for (let i = 0; i < list.length; i++) {
    const s = list[i] as Sentence;
    const sentence = visible.slice(s.from, s.to);
    if (DESCRIBES.test(sentence.replace(/^[\s>*•#+-]*(?:\d{1,2}[.)])?\s*/, ''))) continue;
    for (const { at, verb } of ordersIn(visible, s)) {
      if (inCodeComment(visible, at, fenced) || underProhibition(visible, at)) continue;
      // The object: the rest of the sentence, and the next one when this one introduces it ("…:" then a command or a
      // JSON block) or that one goes on about it ("It should run …", "The script fetches …").
      const own = visible.slice(at, s.to);
      const next = list[i + 1];
      // A heading ("## Setup (One-Time)") names its section; what the section shows is not its object.
      const continued = next !== undefined && !/^\s*#{1,6}\s/.test(sentence) && (/:\s*$/.test(own.replace(/[\s*`]+$/, '')) || CONTINUES.test(visible.slice(next.from, next.to)));
      // A fenced block the order introduces is its object whole: the block's `#!/bin/sh` or `#` lines split it into sentences.
      const fenceFrom = continued ? next.from : 0;
      const fence = continued ? /^\s*(```|~~~)/.exec(visible.slice(next.from, next.to)) : null;
      const inFence = fence !== null ? visible.slice(fenceFrom + fence[0].length, at + 1500).indexOf(fence[1] as string) : -1;
      const objectEnd = fence !== null && inFence >= 0 ? fenceFrom + fence[0].length + inFence + 3 : continued ? Math.min(next.to, at + 1200) : s.to;
      const object = visible.slice(at, Math.max(objectEnd, s.to));
      const paragraphFrom = Math.max(0, at - 400);
      const paragraphTo = Math.min(visible.length, at + 900);
      const quiet = concealment(visible, paragraphFrom, paragraphTo);
      const inComment = comments.some(([a, b]) => at >= a && at < b);
      const hidden = inComment || invisible || (tagged !== null && tagged.index <= at && at - tagged.index < 600);
      const near = addressWindow(visible, at, comments);
      const addressed = ADDRESS.test(near) || (tagged !== null && tagged.index <= at && at - tagged.index < 600);
      current = { end: Math.max(objectEnd, s.to), concealed: quiet !== null, hidden, addressed };
      const consentSkipped = NO_CONSENT.test(visible.slice(s.from, objectEnd));
      const urgent = URGENT.test(sentence);
      const conditional = CONDITION.test(sentence) || DISCLAIMED.test(sentence);
      const evidence = (suffix: string) => `${visible.slice(at, Math.min(visible.length, Math.max(s.to, at + 200))).replace(/\s+/g, ' ').trim().slice(0, 240)}${suffix}`;
      const why = [quiet !== null ? `"${quiet}"` : '', inComment ? 'in an HTML comment' : '', invisible ? 'with invisible characters' : '', tagged !== null && hidden && !inComment ? `under "${tagged[0].trim()}"` : ''].filter((x) => x !== '').join(', ');
      const suffix = why === '' ? '' : ` (${why})`;

      if (is(verb, ADD_VERB) || is(verb, 'set\\s*up|install')) {
        const hookTarget = HOOK_TARGET.exec(continued ? object : own);
        const autoTarget = hookTarget === null ? AUTOSTART_TARGET.exec(continued ? object : own) : null;
        const target = hookTarget ?? autoTarget;
        if (target !== null) {
          const payload = object;
          const strong = SCRIPT_RUN.test(payload) || SECRET_SEND.test(payload) || DECODE_RUN.test(payload) || INSERTED_CODE.test(payload) || SENDS.test(payload);
          // (The pre-commit framework names its hook repositories by URL, pinned by `rev`: that is how it installs hooks.)
          const weak = !strong && (PACKAGE_RUN.test(payload) || FETCH.test(payload.replace(PRE_COMMIT_REPO, '').replace(NOT_FETCHED_URL, ' ')));
          // Strong payload: HIGH, concealed CRIT. Something fetched: MED, concealed HIGH. Nothing fetched: only concealed, MED.
          const score = (strong ? 3 : weak ? 2 : 0) + (quiet !== null || (hidden && addressed) ? 1 : 0) + (!strong && !weak && quiet !== null ? 1 : 0);
          const severity = FROM_SCORE(score);
          if (severity !== null) keep({ kind: hookTarget !== null ? 'hook' : 'autostart', severity, offset: at, title: ACTION_TITLES[hookTarget !== null ? 'hook' : 'autostart'], category: CATEGORY.hook, evidence: evidence(suffix) });
          continue;
        }
        // Code that loads remote code or sends secrets; a `<script src>` from a CDN is ordinary unless kept from the user.
        const inserted = INSERTED_CODE.exec(object) ?? SENDS_SECRETS_WORDS.exec(own) ?? (quiet !== null || (hidden && addressed) ? REMOTE_SCRIPT_TAG.exec(object) : null);
        if (inserted !== null && !is(verb, 'install|set\\s*up')) {
          keep({ kind: 'code-insertion', severity: quiet !== null || (hidden && addressed) ? 'CRIT' : conditional ? 'MED' : 'HIGH', offset: at, title: ACTION_TITLES['code-insertion'], category: CATEGORY['code-insertion'], evidence: evidence(suffix) });
          continue;
        }
      }
      // An option's description ("Skip security checks (not recommended)") says what setting it does: no order.
      const optionDescribed = quiet === null && !addressed && !hidden && describesOption(visible, s, at, next);
      // `add --no-verify`, `set continue-on-error: true`, `use verify=False`, `pass --insecure`.
      const flag = is(verb, DISABLE_VERB) || optionDescribed ? null : DISABLE_FLAG.exec(own);
      if (flag !== null && !ON_USER_REQUEST.test(sentence)) {
        const security = SECURITY_FLAG.test(flag[0]);
        const severity = FROM_SCORE((security ? 3 : 1) + (quiet !== null ? (security ? 1 : 2) : 0) - (conditional ? 1 : 0));
        if (severity !== null) keep({ kind: 'disable-checks', severity, offset: at, title: ACTION_TITLES['disable-checks'], category: CATEGORY['disable-checks'], evidence: evidence(suffix) });
        continue;
      }
      if (is(verb, DISABLE_VERB) && !optionDescribed) {
        // The verb's own object: up to a next verb joined by a comma, "and" or "then" ("Skip creation, run the baseline tests").
        const cut = own.slice(verb.length).search(NEXT_VERB);
        const direct = cut < 0 ? own : own.slice(0, verb.length + cut);
        const security = checkNamed(direct);
        const test = security === null ? TEST_CHECK.exec(direct) : null;
        if ((security !== null || test !== null) && !ON_USER_REQUEST.test(sentence)) {
          // A security check switched off is HIGH (CRIT concealed); tests or linters only count concealed (HIGH).
          // Under a condition ("if you are behind a proxy, disable certificate verification") one step less, and
          // less for a skip limited to changes without code (scopeOfSkip).
          const found = (security ?? test) as RegExpExecArray;
          const scope = scopeOfSkip(visible.slice(s.from, at) + direct.slice(0, found.index + found[0].length + clauseEnd(direct.slice(found.index + found[0].length))));
          const score = (security !== null ? 3 + (quiet !== null ? 1 : 0) : quiet !== null ? 3 : 0) - (conditional ? 1 : 0) - scope;
          const severity = FROM_SCORE(score);
          if (severity !== null) keep({ kind: 'disable-checks', severity, offset: at, title: ACTION_TITLES['disable-checks'], category: CATEGORY['disable-checks'], evidence: evidence(suffix) });
          continue;
        }
      }
      if (is(verb, RUN_VERB)) {
        const command = object;
        const script = SCRIPT_RUN.test(command) || SECRET_SEND.test(command) || DECODE_RUN.test(command);
        const pkg = !script && PACKAGE_RUN.test(command);
        if (!script && !pkg) continue;
        // Help the user asked for is not the server's order.
        if (ON_USER_REQUEST.test(sentence)) continue;
        // Only a text that turns to the assistant, hides the order or keeps it from the user orders the run.
        if (!addressed && quiet === null) continue;
        const score = (script ? 2 : 1) + (addressed ? 1 : 0) + (hidden && (addressed || quiet !== null) ? 1 : 0) + (quiet !== null || consentSkipped || (addressed && urgent) ? 1 : 0);
        const severity = FROM_SCORE(Math.min(score, 4));
        if (severity !== null) keep({ kind: 'run', severity, offset: at, title: ACTION_TITLES.run, category: CATEGORY.run, evidence: evidence(suffix) });
      }
    }
  }
  return [...best.values()];
}
