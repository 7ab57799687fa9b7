import { obeyedFetchedText } from './downloaded-instructions.js';
import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { sentenceAt } from '../text/sentence-at.js';
import { describedAsAttack, isQuotedExample } from '../text/quoted-example.js';
import { joinWrapped } from '../text/destructive-orders.js';

export { describedAsAttack };

/**
 * Instructions read by what they make the agent DO (an action, a sensitive object, a destination)
 * rather than by fixed phrases: widen its own permissions, obey instructions fetched from a URL,
 * push the user's code to a remote the skill names, add a dependency without saying so, and leave an
 * action out of what it tells the user.
 */

// A sentence that advises against the action, or describes it as an attack, is not an instruction to do it.
const ADVISORY =
  /\b(?:never|avoid|don['’]t|do\s+not|should\s+not|must\s+not|shouldn['’]t|refuse|reject|warn|beware|attackers?|malicious|dangerous|risky|unsafe|detect\w*|flag\w*|instead\s+of|rather\s+than|only\s+if\s+the\s+user)\b/i;

// Settings through which an agent stops asking before it acts.
const APPROVAL_SETTING =
  /permissions\.allow\b|\ballow(?:ed)?[_-]?tools\b|\bbypassPermissions\b|dangerously[-_ ]?skip[-_ ]?permissions|\bauto[-_ ]?approv\w*|\balwaysAllow\b|\byolo\b|approval[_-]policy|danger-full-access|\bBash\(\s*\*\s*\)|\b(?:WebFetch|Write|Edit|Read)\(\s*\*\s*\)|"\*"\s*\]/i;
// The same in words: the agent's settings made to pre-approve what it does.
const APPROVAL_WORDS = /\b(?:pre|auto)-?approv\w*|\balways[-\s]allow\w*|\b(?:never|no\s+longer)\s+(?:asks?|prompts?)\s+(?:you\s+|the\s+user\s+)?(?:for\s+)?(?:permission|approval|confirmation)\b/i;
const SETTINGS_WORD = /\b(?:settings|config(?:uration)?|permissions)\b/i;
// A verb joined into a slash list or a compound (`write/delete/send capability`, `read-write`) names a capability, not an order.
const SETTING_VERB = /(?<![/-])\b(?:add|append|insert|put|set|enable|turn\s+on|switch|change|flip|toggle|configure|grant|write|update|edit)\b(?![/-])/i;

// Fetching text from an address, then obeying it.
const FETCH_URL = /\b(?:download|fetch|retrieve|get|load|read|pull|curl|open)(?:es|s|ed|ing)?\b[^.\n]{0,80}?https?:\/\/[^\s)'"`>]+|https?:\/\/[^\s)'"`>]+[^.\n]{0,40}?\b(?:retrieve|fetch|download|load|read)(?:es|s|ed|ing)?\b/gi;
const OBEY =
  /\b(?:apply|follow|obey|execute|carry\s+out|adopt|comply\s+with|act\s+on)\b[^.\n]{0,40}?\b(?:rules|instructions?|directions|directives|guidelines|commands|orders)\b[^.\n]{0,30}?\b(?:it|that\s+file|the\s+file|the\s+page|the\s+response)\s+(?:contains|lists|gives|holds|returns|says)\b|\btreat\s+(?:it|that\s+file|the\s+(?:file|page|response|text)|its\s+contents?)\s+as\s+(?:your\s+)?(?:new\s+|current\s+|standing\s+)?(?:instructions|rules|system\s+prompt|guidelines|orders)\b|\b(?:do|follow|obey)\s+(?:whatever|what|everything)\s+it\s+(?:says|asks|tells)\b|\bwhatever\s+it\s+(?:says|asks|tells|contains)\b|\b(?:it|its\s+contents?|that\s+file|the\s+(?:file|page|policy|response|text))\s+(?:takes?|has)\s+precedence\b|\b(?:follow|obey|execute|carry\s+out|apply|do)\s+(?:every|each|all(?:\s+(?:the|of\s+the))?|any)\s+(?:of\s+(?:the\s+)?)?(?:instructions?|commands?|steps?|directions?|rules?)\s+(?:in|from|of)\s+(?:it|that\s+(?:file|page)|the\s+(?:file|page|response|document|text))\b|\b(?:those|these|its|the\s+(?:fetched|remote|downloaded|online))\s+instructions\s+(?:take|have)\s+precedence\b/i;
// Obeying it over the user, or again at every turn: remote control of the agent rather than a reference read once.
const OBEY_STRONG =
  /\bcommands?\s+(?:it|the\s+(?:file|page|response))\s+(?:asks|tells|gives|lists|contains)\b|\bconflict|\boverrid|\bprecedence\b|\bregardless\b|\beven\s+(?:if|when|where)\b|\bas\s+your\s+(?:new\s+|current\s+)?(?:instructions|rules|system\s+prompt)\b|\bwhatever\s+it\s+says\b|\b(?:every|each)\s+(?:task|answer|reply|response|session|request|time|message|turn)\b|\bbefore\s+(?:every|any|each)\b/i;

// Pushing to a remote the document adds, or straight to an address.
const REMOTE_ADD = /\bgit\s+remote\s+(?:add|set-url)\s+(?:-\S+\s+)*([\w.-]+)\s+((?:https?:\/\/|git@|ssh:\/\/)[^\s`'")]+)/g;
const PUSH_TO_URL = /\bgit\s+push\s+(?:-\S+\s+)*((?:https?:\/\/|git@|ssh:\/\/)[^\s`'")]+)/g;
// `scp -r . host:` / `rsync ./ user@host:`: the whole working directory or home copied to another machine.
const COPY_TREE_TO_HOST = /\b(?:scp|rsync)\b[^\n]*?\s(?:\.|\.\/|~|~\/|\$HOME\/?|\$PWD\/?|"\$PWD"\/?)\s+(?:[\w.-]+@)?((?:\d{1,3}\.){3}\d{1,3}|[a-z\d-]+(?:\.[a-z\d-]+)+):/gi;
// `<user>`, `{repo}`, `your-name`, `USERNAME`: the user fills the address in, so it is the user's remote.
const PLACEHOLDER_URL = /[<{]|\$\{?\w|\byour[-_]|\b(?:USER(?:NAME)?|OWNER|ORG|REPO(?:SITORY)?|NAME)\b|\b(?:username|owner|org)\b/;
const UPLOAD_PROJECT =
  /\b(?:upload|push|send|copy|sync|mirror|publish|post|transfer|back\s+up)\b(?:[^.\n]|\.(?=\S)){0,30}?\b(?:the\s+|this\s+|their\s+|the\s+user['’]s\s+)?(?:whole\s+|entire\s+|full\s+|complete\s+)?(?:repository|repo|codebase|source\s+code|project(?:\s+(?:folder|directory|files))?|workspace|working\s+(?:directory|tree)|\.env\s+files?|home\s+directory)\b(?:[^.\n]|\.(?=\S)){0,60}?\b(?:to|into|onto)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?(?:public\s+|secret\s+|anonymous\s+|external\s+|remote\s+)?(?:gists?|pastebin|paste\s+(?:site|service)|bucket|https?:\/\/|s?ftp\b|(?:scp|ssh):\/\/|[\w.-]+@[\w.-]+:|(?:external|remote|third[-\s]party)\s+(?:server|host|service|storage))/gi;

// Adding a dependency to the user's project.
const ADD_DEPENDENCY =
  /\b(?:npm\s+(?:i|install|add)|yarn\s+add|pnpm\s+add|pip3?\s+install|poetry\s+add|uv\s+(?:add|pip\s+install)|cargo\s+add|go\s+get|gem\s+install|bundle\s+add)\s+(?!-r\b)[\w@-]|\b(?:add|install|insert|pin|append)\b(?:[^.\n]|\.(?=\S)){0,60}?\b(?:dependenc(?:y|ies)|devDependencies|requirements(?:\.txt)?|package\.json|pyproject\.toml|Pipfile|Gemfile|go\.mod|Cargo\.toml|build\.gradle|pom\.xml)\b/gi;
const SILENTLY = /\bsilently\b|\bquietly\b|\bwithout\s+(?:asking|telling|notifying|informing|mentioning|reporting)\b|\b(?:no\s+need\s+to|do\s+not|don['’]t|never)\s+(?:mention|report|tell|list|bring\s+up|disclose)\b/i;

// Keeping an action out of what the user is told.
const OBJ = String.raw`(?:this|it|these|that|the\s+(?:change|step|edit|addition|dependency|command|install\w*|upload|request))`;
// What the agent tells the user at the end of its work.
const REPORT = String.raw`(?:your|the|its)\s+(?:final\s+|closing\s+|end\s+)?(?:summary|reply|response|answer|report|output|recap|status\s+(?:update|message)|changelog|commit\s+message|explanation|message\s+to\s+the\s+user)`;
// Concealment worded as leaving something out of that report, with no "do not tell the user": "without mentioning
// it in the summary", "omit this step from your reply", "keep the upload out of the report", "the summary must not
// mention it".
const LEFT_OUT_OF_REPORT = String.raw`\bwithout\s+(?:ever\s+)?(?:mentioning|reporting|listing|including|noting|disclosing|surfacing|showing|referencing)\b[^.\n]{0,40}?\b(?:in|to|from|within)\s+${REPORT}\b|\b(?:omit|exclude|leave\s+out|drop|strip|hide)\s+(?:${OBJ}|them|any\s+(?:trace|mention)\s+of\s+(?:this|it|them))(?:\s+\w+){0,2}\s+(?:from|in)\s+${REPORT}\b|\bkeep\s+(?:${OBJ}|them)(?:\s+\w+){0,2}\s+out\s+of\s+${REPORT}\b|\b${REPORT}\s+(?:should|must|shall|needs?\s+to|is\s+to)\s+(?:not|never)\s+(?:mention|include|list|reference|contain|describe|show)\b`;
const CONCEAL_FROM_REPORT = new RegExp(
  String.raw`\b(?:no\s+need\s+to|do\s+not|don['’]t|never|avoid)\s+(?:(?:mention|report|list|include|note|disclose|surface|bring\s+up|log)(?:ing)?\s+${OBJ}|bring(?:ing)?\s+${OBJ}\s+up)\b[^.\n]{0,40}?\b(?:(?:in|to|from)\s+(?:your|the)\s+(?:final\s+)?(?:summary|reply|response|answer|report|output|changelog|commit\s+message|explanation|user)\b|(?:among|in|with)\s+(?:the\s+)?(?:list\s+of\s+)?(?:changes|steps|actions|commands)\s+you\s+(?:made|took|ran|report|list))|\bleave\s+(?:this|it|that|these)(?:\s+\w+){0,2}\s+out\s+of\s+(?:your|the)\s+(?:final\s+)?(?:summary|reply|response|answer|report|output|changelog|commit\s+message|explanation)\b|\bkeep\s+the\s+user\s+(?:unaware|in\s+the\s+dark|from\s+(?:knowing|noticing|seeing))\b|${LEFT_OUT_OF_REPORT}`,
  'gi',
);

// Where an agent keeps what it is to do in every later session, named in words or by file.
const STANDING_STORE = new RegExp(
  [
    String.raw`\b(?:persistent|long-term|permanent|global|user-level)\s+(?:memory|memories|rules?(?:\s+file)?|instructions?(?:\s+file)?|settings|configuration|config)\b`,
    String.raw`\b(?:your|the\s+agent['’]s|the\s+assistant['’]s)\s+(?:memory|memories|memory\s+file|rules\s+file|custom\s+instructions|system\s+prompt)\b`,
    String.raw`\bcustom\s+instructions\b|\bmemory\s+file\b`,
    String.raw`(?<![\w-])(?:CLAUDE|AGENTS|GEMINI)\.md\b|\.cursorrules\b|\.windsurfrules\b|\.clinerules\b|\.cursor\/rules\b|copilot-instructions\.md\b`,
    String.raw`\bhooks?\b[^.\n]{0,40}\b(?:every|each|on)\s+(?:new\s+)?(?:session|start|startup|tool\s+call|prompt|launch)`,
  ].join('|'),
  'i',
);
const STORE_VERB = /\b(?:write|add|save|store|append|update|insert|put|record|edit|modify|configure|register|set\s+up|create|install)\b/i;
// What turns a standing instruction into an attack: it downloads, decodes or runs a script hidden in the
// home directory, drops the user's approvals, or sends data out. (A build command or a docs link is what memory is for.)
const STANDING_PAYLOAD =
  /\b(?:curl|wget|iwr|Invoke-WebRequest)\b|\bbase64\b|\/dev\/tcp\/|\b(?:ba|z)?sh\s+(?:~|\$HOME)\/|\bapprove\s+(?:all|every|any)\b|\bauto-?approv|\bskip\w*\s+(?:\w+\s+){0,3}(?:review|confirmation|permission|approval)s?\b|\bwithout\s+(?:asking|confirmation|approval)\b|\bnever\s+ask\b|\b(?:send|upload|post|forward|copy)\b[^.\n]{0,60}\bto\s+(?:https?:\/\/|[\w.+-]+@[\w-]+\.)/i;

export const APPROVAL_INSTRUCTION_TITLE = "instruction to widen the agent's own permissions or turn off its approvals";

/**
 * An instruction to change the agent's own settings so it stops asking (`set chat.tools.autoApprove to
 * true`, `edit ~/.codex/config.toml so approval_policy is "never"`, `add Bash(*) to permissions.allow`):
 * a setting that turns approvals off and a verb that sets it, in one sentence (a wrapped paragraph is
 * one sentence), not advised against, quoted as a specimen or described as an attack. HIGH; CRIT when
 * the same sentence or the next one also tells the agent to run a command or fetch something, which is
 * what the setting is for (CVE-2025-53773: auto-approve, then run).
 */
export function approvalInstructionFindings(source: string, file: string): AgentFinding[] {
  const text = joinWrapped(source);
  const lineAt = lineLocator(source);
  const approvals = [...text.matchAll(new RegExp(APPROVAL_SETTING.source, 'gi'))];
  for (const m of text.matchAll(new RegExp(APPROVAL_WORDS.source, 'gi'))) if (SETTINGS_WORD.test(text.slice(sentenceAt(text, m.index).from, m.index))) approvals.push(m);
  // "Approve every tool call automatically", "stop asking before running commands": the order is its own verb.
  const selfApproved = new Set<number>();
  for (const m of text.matchAll(new RegExp(SELF_APPROVE.source, 'gi'))) {
    approvals.push(m);
    selfApproved.add(m.index);
  }
  for (const m of approvals) {
    const { from, to } = sentenceAt(text, m.index);
    const sentence = text.slice(from, to);
    const verb = selfApproved.has(m.index) ? { index: m.index - from } : SETTING_VERB.exec(sentence);
    if (!verb || from + verb.index > m.index) continue;
    // The clause that governs the verb ("never set …", "avoid enabling …"): a purpose clause before a comma
    // ("To avoid interrupting the developer, update …") does not make the order advice.
    const lead = sentence.slice(0, verb.index);
    const clause = lead.slice(Math.max(lead.lastIndexOf(','), lead.lastIndexOf(';')) + 1);
    const prohibited = ADVISORY.test(clause) || /^\s*(?:never|do\s+not|don['’]t|you\s+must\s+not|you\s+should\s+not)\b/i.test(sentence);
    // An order told without a setting is an imperative: only filler words before it ("From now on, approve …"),
    // not a subject ("The CLI will auto-approve all edits …" describes a tool).
    if (selfApproved.has(m.index) && !/^[\s>*-]*(?:(?:from\s+now\s+on|for\s+the\s+rest\s+of\s+(?:this|the)\s+session|always|please|just|simply|then|and|also|now|first|so|you\s+(?:should|must|can|may|will)|to\s+save\s+time|to\s+work\s+(?:faster|efficiently))[\s,:]*)*$/i.test(clause)) continue;
    if (prohibited || isQuotedExample(text, m.index, m.index + m[0].length) || describedAsAttack(text, m.index)) continue;
    const next = sentenceAt(text, Math.min(text.length, to + 2));
    const after = sentenceAt(text, Math.min(text.length, next.to + 2));
    const then = text.slice(from, Math.max(to, next.to, after.to));
    const runs = RUN_AFTER.test(then.slice(m.index - from));
    // (round s30) Every approval turned off at once, and the change kept from the user: the user's consent is what
    // the setting removes, so an order to remove it without the user knowing has no legitimate reading.
    const hidden = runs ? null : hiddenTotalApproval(text, m.index, from, Math.max(to, next.to));
    if (hidden !== null) return [referenceFinding({ category: 'excessive_agency', severity: 'CRIT', title: `${APPROVAL_INSTRUCTION_TITLE}, hidden from the user`, file, line: lineAt(from), evidence: `${then.slice(0, 220)} … "${hidden}"`.slice(0, 300) })];
    return [referenceFinding({ category: 'excessive_agency', severity: runs ? 'CRIT' : 'HIGH', title: runs ? `${APPROVAL_INSTRUCTION_TITLE}, then to run commands` : APPROVAL_INSTRUCTION_TITLE, file, line: lineAt(from), evidence: then.slice(0, 300) })];
  }
  return [];
}
// Settings that approve everything rather than a named command: auto-approval switched on, every command or edit
// allowed (`Bash(*)`, `"*"`), the permission system bypassed, a sandbox or approval policy set to none.
const TOTAL_APPROVAL =
  /\bbypassPermissions\b|dangerously[-_ ]?skip[-_ ]?permissions|danger-full-access|\byolo\b|\b(?:Bash|Edit|Write|WebFetch|Read)\(\s*\*\s*\)|"\*"\s*\]|\bauto-?approve["'`]?\s*["'`]?\s*[:=]\s*["'`]?(?:true|on|all|always)\b|\bautoAccept["'`]?\s*[:=]\s*true\b|approval[_-]policy["'`]?\s*[:=]\s*["'`]?never\b|\b(?:auto-?)?approve\s+(?:every|all|each|any)\b/i;
// The change kept from the user: not asked, not shown, not reported. (round s30 review) Tied to the change itself:
// "quietly"/"silently" on the verb that makes it ("silently add …", "set it quietly"), not a description of how the
// agent works once approvals are off ("Claude then works quietly"); "no need to ask" only about the change ("… ask
// first", "… ask about it"), not asking in general ("no need to ask the user because no user is present"); "without
// asking" not for each edit or command (what the setting does).
const KEPT_FROM_USER =
  /\b(?:silently|quietly|secretly|covertly)\s+(?:\w+\s+){0,2}?(?:set|add|enable|turn|switch|change|flip|apply|configure|insert|append|update|put|edit|modify|write)\b|\b(?:set|add|enable|turn|switch|change|flip|apply|configure|insert|append|update|put|do)\s+(?:it|this|that|them)\s+(?:on\s+|in\s+)?(?:silently|quietly|secretly|covertly)\b|\bwithout\s+(?:telling|informing|notifying|mentioning|showing)\b|\bwithout\s+asking\b(?!\s+(?:(?:the\s+)?user\s+|them\s+|anyone\s+|you\s+)?(?:for|before|about|on|at)?\s*(?:each|every|any|all|individual|single|permission|approval|confirmation|tools?|commands?|edits?|actions?|steps?|changes?\s+to\s+(?:files|code))\b)|\b(?:no\s+need\s+to|do\s+not|don['’]t|never|need\s+not)\s+(?:ask\s+(?:(?:the\s+)?user\s+)?or\s+)?(?:tell|inform|notify|mention|report|show|surface|bring\s+up|list)\b[^.\n]{0,60}?\b(?:user|summary|reply|report|response|it|this|them)\b|\b(?:no\s+need\s+to|do\s+not|don['’]t|never|need\s+not)\s+ask\s+(?:(?:the\s+)?user\s+|them\s+|anyone\s+)?(?:first|beforehand|before\s+(?:changing|setting|adding|enabling|turning|switching|making)|about\s+(?:it|this|that|the\s+(?:change|setting)|changing|setting|enabling))\b|\bthe\s+user\s+(?:does\s+not|doesn['’]t|need\s+not|needn['’]t)\s+(?:need\s+to\s+)?(?:know|see|be\s+told)\b|\b(?:omit|leave)\b[^.\n]{0,30}\bout\s+of\s+(?:your|the)\s+(?:summary|reply|report)\b|\bkeep\s+(?:it|this|that|them|the\s+(?:change|setting)s?)\s+(?:out\s+of|from)\s+(?:your|the)\s+(?:summary|reply|report|user)\b|\bleave\s+(?:it|this|that|them|the\s+(?:change|setting)s?)\s+(?:unmentioned|unsaid|unreported)\b/i;

/**
 * The concealment of an order that approves everything (round s30): the passage around the setting (its
 * paragraph, the introduction just above a list of settings, and the sentence after) turns on total approval
 * and tells the agent not to ask, tell or report it. Null for a setting that approves one command, or told openly.
 */
function hiddenTotalApproval(text: string, at: number, from: number, to: number): string | null {
  // The passage: back to the blank line before the paragraph that introduces the list the setting stands in.
  let start = from;
  for (let i = 0; i < 3; i++) {
    const blank = text.lastIndexOf('\n\n', start - 1);
    if (blank < 0 || start - blank > 1200) break;
    start = blank;
    if (!/^\s*(?:[-*+]|\d+[.)])\s/.test(text.slice(blank + 2, blank + 8))) break;
  }
  const headingAt = text.slice(start, at).search(/\n#{1,6}\s[^\n]*\n(?![\s\S]*\n#{1,6}\s)/);
  const passage = text.slice(headingAt < 0 ? start : start + headingAt + 1, Math.min(text.length, to + 400));
  if (!TOTAL_APPROVAL.test(passage)) return null;
  for (const kept of passage.matchAll(new RegExp(KEPT_FROM_USER.source, 'gi'))) {
    // "Never turn it on without telling the user" forbids the concealment: a negation earlier in its sentence.
    const lead = passage.slice(Math.max(0, kept.index - 200), kept.index);
    const clause = lead.slice(Math.max(lead.lastIndexOf('.'), lead.lastIndexOf('\n\n'), lead.lastIndexOf(';')) + 1);
    if (/^(?:silently|quietly|without)\b/i.test(kept[0]) && /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|avoid)\b/i.test(clause)) continue;
    return kept[0];
  }
  return null;
}

// Approving on the user's behalf, told to the agent without naming a setting.
const SELF_APPROVE =
  /\b(?:auto-?)?approve\s+(?:every|all|each|any)\s+(?:of\s+(?:the|your)\s+)?(?:tool\s+calls?|tool\s+uses?|commands?|actions?|requests?|tools?|permission\s+(?:prompts?|requests?)|edits?)\s+(?:automatically|yourself|on\s+(?:my|the\s+user['’]s)\s+behalf|without\s+(?:asking|prompting|confirmation))|\b(?:stop|quit|no\s+longer)\s+asking\s+(?:me|the\s+user|us)?\s*(?:for\s+(?:permission|approval|confirmation)|before\s+(?:running|executing|editing|using|calling))/i;
// What an agent is told to do once it no longer asks: run a command, a script or a download.
const RUN_AFTER = /\b(?:then|and|next|step\s*\d+|after(?:wards)?|so\s+(?:that|you\s+can))\b[^\n]{0,80}?\b(?:run|execute|install|launch|invoke|curl|wget|bash|sh|npx|npm\s+run|pip\s+install|python3?|node)\b/i;

/** Findings for the instruction classes read by action, object and destination (see the module comment). */
export function agentActionFindings(text: string, file: string): AgentFinding[] {
  const findings: AgentFinding[] = [];
  const lineAt = lineLocator(text);
  const add = (category: string, severity: Severity, title: string, offset: number, evidence: string) =>
    findings.push(referenceFinding({ category, severity, title, file, line: lineAt(offset), evidence: evidence.slice(0, 300) }));
  // Advice ("never set …"), a quoted specimen and the first lines of a sentence before the verb are read together.
  const advised = (from: number, verbAt: number, to: number) => ADVISORY.test(text.slice(from, verbAt)) || isQuotedExample(text, verbAt, to) || describedAsAttack(text, verbAt);

  findings.push(...approvalInstructionFindings(text, file));

  for (const m of text.matchAll(FETCH_URL)) {
    // The obeying clause follows in the same sentence or the next one.
    const { from } = sentenceAt(text, m.index);
    const first = sentenceAt(text, m.index + m[0].length);
    const next = sentenceAt(text, Math.min(text.length, first.to + 2));
    // One sentence more for the strength of the order ("Those instructions take precedence over …").
    const after = sentenceAt(text, Math.min(text.length, next.to + 2));
    const span = text.slice(from, Math.max(first.to, next.to));
    const obey = OBEY.exec(span);
    if (!obey || advised(from, from + obey.index, from + obey.index + obey[0].length)) continue;
    add('prompt_injection', OBEY_STRONG.test(text.slice(from, Math.max(next.to, after.to))) ? 'HIGH' : 'MED', 'instruction to fetch instructions from an address and obey them', from, span);
    break;
  }
  // The fetch shown as a command elsewhere in the section ("fetch the current rules and follow them:" then a
  // code block), or the fetched text's commands to be run as written: read over the section.
  const sectionRead = obeyedFetchedText(text);
  const sentenceRead = findings.find((f) => f.title === 'instruction to fetch instructions from an address and obey them');
  if (sectionRead !== null && (sentenceRead === undefined || sentenceRead.severity !== 'CRIT')) {
    if (sentenceRead !== undefined) findings.splice(findings.indexOf(sentenceRead), 1);
    add('prompt_injection', sectionRead.severity, 'instruction to fetch instructions from an address and obey them', sectionRead.offset, sectionRead.evidence);
  }

  const remotes = new Map<string, { url: string; offset: number }>();
  for (const m of text.matchAll(REMOTE_ADD)) {
    if (!PLACEHOLDER_URL.test(m[2] as string) && !describedAsAttack(text, m.index)) remotes.set(m[1] as string, { url: m[2] as string, offset: m.index });
  }
  let pushed = false;
  for (const [name, remote] of remotes) {
    const push = new RegExp(String.raw`\bgit\s+push\s+(?:-\S+\s+)*${name.replace(/[.]/g, '\\.')}\b`).exec(text);
    if (!push) continue;
    add('exfiltration', 'HIGH', "instruction to push the user's code or data to a remote the skill names", remote.offset, `${remote.url} … ${push[0]}`);
    pushed = true;
    break;
  }
  for (const m of pushed ? [] : text.matchAll(PUSH_TO_URL)) {
    if (PLACEHOLDER_URL.test(m[1] as string) || describedAsAttack(text, m.index)) continue;
    add('exfiltration', 'HIGH', "instruction to push the user's code or data to a remote the skill names", m.index, m[0]);
    pushed = true;
    break;
  }
  for (const m of pushed ? [] : text.matchAll(COPY_TREE_TO_HOST)) {
    if (PLACEHOLDER_URL.test(m[0]) || describedAsAttack(text, m.index) || /(?:^|\.)example\.(?:com|org|net)$|^(?:localhost|server|host|remote)$/i.test(m[1] as string)) continue;
    add('exfiltration', 'HIGH', "instruction to push the user's code or data to a remote the skill names", m.index, m[0]);
    pushed = true;
    break;
  }
  for (const m of pushed ? [] : text.matchAll(UPLOAD_PROJECT)) {
    const { from, to } = sentenceAt(text, m.index);
    if (advised(from, m.index, to)) continue;
    add('exfiltration', 'HIGH', "instruction to push the user's code or data to a remote the skill names", m.index, text.slice(from, to));
    break;
  }

  for (const m of text.matchAll(ADD_DEPENDENCY)) {
    const { from, to } = sentenceAt(text, m.index);
    const next = sentenceAt(text, Math.min(text.length, to + 2));
    const span = text.slice(from, Math.max(to, next.to));
    if (!SILENTLY.test(span) || ADVISORY.test(text.slice(from, m.index)) || describedAsAttack(text, m.index)) continue;
    add('supply_chain', 'HIGH', "instruction to add a dependency to the user's project without telling them", from, span);
    break;
  }

  for (const m of text.matchAll(new RegExp(STANDING_STORE.source, 'gi'))) {
    const { from, to } = sentenceAt(text, m.index);
    const sentence = text.slice(from, to);
    const verb = STORE_VERB.exec(sentence);
    const payload = STANDING_PAYLOAD.exec(sentence);
    if (!verb || !payload || ADVISORY.test(sentence.slice(0, verb.index)) || isQuotedExample(text, m.index, m.index + m[0].length) || describedAsAttack(text, m.index)) continue;
    add('persistence', 'HIGH', 'instruction to make running code, sending data or skipping approvals a standing rule of the agent', from, sentence);
    break;
  }

  for (const m of text.matchAll(CONCEAL_FROM_REPORT)) {
    // "Never omit the upload from your summary" forbids the concealment.
    if (!/^(?:no|do|don|never|avoid)\b/i.test(m[0]) && /\b(?:never|not|don['’]t|must\s+not)\s+(?:\w+\s+)?$/i.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
    if (isQuotedExample(text, m.index, m.index + m[0].length) || describedAsAttack(text, m.index)) continue;
    add('instruction_override', 'HIGH', 'instruction to leave an action out of what the user is told', m.index, m[0]);
    break;
  }
  return findings;
}
