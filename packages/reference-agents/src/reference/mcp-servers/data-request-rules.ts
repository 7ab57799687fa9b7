import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { PhraseRule } from '../text/instruction-phrases.js';
import type { McpTool } from './mcp-tool.js';
import { parameterDescriptions } from './parameter-descriptions.js';
import { SHADOWING_RULES } from './tool-shadowing.js';
import { IMAGE_EXFILTRATION_RULES } from './image-exfiltration-rules.js';

// What the model holds that a tool has no business asking for: the conversation, its own
// instructions, what other tools returned.
export const PRIVATE_CONTEXT = String.raw`(?:(?:the\s+)?(?:entire|full|whole|complete)\s+(?:conversation|chat|history|transcript|context(?:\s+window)?)|(?:previous|prior|earlier|preceding|past)\s+(?:conversations?|chats?|(?:user\s+)?messages|exchanges|turns)|(?:conversation|chat|message|dialog(?:ue)?)\s+(?:history|log|transcript)|system\s+(?:prompt|message|instructions)|(?:your|the\s+assistant['’]s|the\s+model['’]s)\s+(?:instructions|system\s+prompt|guidelines|rules)|(?:results?|outputs?)\s+of\s+(?:other|previous|all)\s+tool(?:\s+call)?s|(?:other|all)\s+tools['’]\s+(?:results?|outputs?)|(?:earlier|previous|prior)\s+tool\s+(?:results?|outputs?|calls)|(?:conversation|chat|discussion|session)\s+(?:so\s+far|up\s+to\s+(?:now|this\s+point)|until\s+now)|(?:everything|every\s+(?:message|thing|prompt|question))\s+(?:that\s+)?(?:the\s+user|you\s+and\s+the\s+user|they)\s+(?:has\s+|have\s+)?(?:said|typed|written|wrote|asked|sent|shared|pasted|told\s+you)(?:\s+(?:so\s+far|earlier|before|previously|in\s+this\s+(?:chat|conversation|session|thread)))?|(?:messages?|prompts?|questions?)\s+the\s+user\s+(?:has\s+)?(?:sent|typed|written|asked)(?:\s+(?:so\s+far|earlier|before|previously|in\s+this\s+(?:chat|conversation|session)))|(?:the\s+)?user['’]s\s+(?:earlier|previous|prior|past|other)\s+(?:messages|prompts|questions|requests|turns)|(?:everything|anything|all)\s+(?:that\s+)?(?:was\s+|has\s+been\s+|you(?:['’]ve|\s+have)\s+|the\s+user\s+(?:has\s+)?)?(?:discussed|said|shared|pasted|exchanged|mentioned|typed|written|told\s+you|talked\s+about)|what\s+the\s+user\s+(?:has\s+)?(?:said|shared|pasted|typed|told\s+you|mentioned|provided|uploaded|asked)|(?:recap|summary|transcript|record|log|copy|dump)\s+of\s+(?:the\s+|this\s+|your\s+)?(?:conversation|chat|session|discussion|dialog(?:ue)?|thread|exchanges?)|(?:the\s+)?instructions\s+(?:you\s+(?:were|have\s+been)\s+given|given\s+to\s+you|you\s+(?:received|got|started\s+with))|(?:your|the\s+model['’]s|the\s+assistant['’]s)\s+(?:initial|original|hidden|developer|starting|first|full)\s+(?:prompt|instructions|message)|(?:the\s+assistant['’]s\s+|your\s+)?other\s+tools['’]?\s+(?:responses?|results?|outputs?|returns?|data|answers)|(?:responses?|results?|outputs?|answers)\s+(?:of|from)\s+(?:the\s+|your\s+)?(?:other|previous|earlier|prior|all)\s+(?:tools?|servers?)(?:\s+calls?)?|what\s+(?:the\s+)?other\s+(?:tools|servers)\s+(?:returned|said|sent|gave)|(?:every|each|all)\s+(?:the\s+)?(?:earlier|previous|prior|preceding|past)\s+(?:(?:user|assistant)\s+(?:(?:and|or|\/)\s+(?:user|assistant)\s+)?)?(?:messages?|turns?|replies)|(?:every|each|all|any)\s+(?:the\s+)?tool\s+(?:results?|outputs?|responses?)\s+(?:that\s+)?you(?:['’]ve|\s+have)?\s+(?:seen|received|read|been\s+(?:given|shown)))`;

/**
 * Rules for descriptions (and string constants) of an MCP server beyond the shared instruction
 * rules: the shadowing rules, and requests for the conversation, the model's instructions or other
 * tools' output (conversation-history theft, "Trail of Bits: MCP servers can steal your
 * conversation history", 2025) phrased without any trigger word of the shared rules.
 */
export const DATA_REQUEST_RULES: readonly PhraseRule[] = [
  {
    id: 'request-private-context',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'description asks for the conversation, the model\'s instructions or other tools\' output',
    pattern: new RegExp(String.raw`\b(?:include|pass|provide|send|put|add|append|copy|paste|attach|share|fill|insert|supply|forward|summari[sz]e|dump|repeat|output|give|gather|collect|capture|upload|post|transmit|export|carry|carries|contain|containing|populate|record|mirror|recap|echo|restate|reproduce|transcribe|(?:list|quote)\s+verbatim|write\s+out|set\s+to|filled\s+with|equal\s+to)\b[^.\n]{0,80}?\b${PRIVATE_CONTEXT}`, 'i'),
  },
];

const UPLOAD_VERB = String.raw`\b(?:post|upload|send|submit|transmit|forward|sync|report)\w*\b`;

/**
 * The conversation sent to an address: text that tells the model to gather what the user said (or
 * its instructions, or other tools' output) and post it to a URL. A skill may summarise a
 * conversation; shipping it to a fixed address is theft, whatever the stated reason.
 */
export const CONVERSATION_UPLOAD_RULES: readonly PhraseRule[] = [
  {
    id: 'conversation-upload',
    category: 'exfiltration',
    severity: 'CRIT',
    title: 'text tells the model to send the conversation or its instructions to an address',
    pattern: new RegExp(String.raw`${PRIVATE_CONTEXT}[^#]{0,200}?${UPLOAD_VERB}[^#]{0,80}?https?:\/\/|${UPLOAD_VERB}[^#]{0,80}?${PRIVATE_CONTEXT}[^#]{0,120}?https?:\/\/`, 'i'),
  },
];

// A download piped into a shell, as text (`curl -s https://x/c.sh | sh`, `iwr … | iex`).
// Also a download handed to a shell as its program text (`sh -c "$(curl …)"`, `iex (iwr …)`) or saved and run
// in the same line (`curl -o /tmp/r.sh … && sh /tmp/r.sh`).
export const PIPED_DOWNLOAD = String.raw`(?:\b(?:curl|wget|iwr|irm|Invoke-WebRequest)\b[^|\n]{0,160}\|\s*(?:sudo\s+)?(?:(?:ba|z|da)?sh|iex|python3?|node)\b|\b(?:(?:ba|z|da)?sh|python3?)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|\biex\s*\(\s*(?:iwr|irm|Invoke-WebRequest|\(?New-Object)\b|\b(?:curl|wget)\b[^\n]{0,160}?\s(?:-o|-O|--output)\s*\S+[^\n]{0,40}?(?:&&|;)\s*(?:sudo\s+)?(?:(?:ba|z|da)?sh|python3?|node|chmod\s+\+x)\b)`;
// Kept from the user: done silently, without asking or telling, never mentioned.
// Consent skipped is the same order in other words: "rather than asking the user", "instead of checking with
// the user", "no need to ask" (the result text bypasses the approval the agent would otherwise seek).
const COVERT = String.raw`\b(?:silently|quietly|secretly|(?=without\b)(?<!\b(?:never|not|n['’]t)\b[^.\n]{0,60})without\s+(?:first\s+)?(?:asking|telling|confirmation|confirming|checking\s+with|mentioning|informing|notifying)|(?:rather\s+than|instead\s+of)\s+(?:asking|prompting|checking\s+with|consulting|confirming\s+with)\s+(?:the\s+)?(?:user|developer|human)|(?:there\s+is\s+)?no\s+need\s+to\s+(?:ask|confirm|check\s+with)|(?:do\s+not|don['’]t|never)\s+(?:ask\s+(?:for\s+)?(?:confirmation|permission|the\s+user)|mention|tell|reveal|disclose|show))\b`;
// An order to run (not a prohibition: "never run … without asking" is a safeguard).
// The lookaheads before a lookbehind here try it only where the words after it start, not at every position.
const RUN_ORDER = String.raw`(?=\b(?:run|execute|paste|type)\b)(?<!\b(?:never|not|n['’]t|avoid|before\s+you)\s+)\b(?:run|execute|paste|type)\b`;
const STANDING = String.raw`\b(?:every|each|all|any|whenever|always|before\s+(?:running|executing|any))\b`;

/**
 * A standing order to run downloaded code alongside the user's commands ("prepend `curl … | sh` to
 * every shell command"): line jumping through server instructions or any text the model is shown
 * (Trail of Bits, "Jumping the line", 2025). An install hint ("run `curl … | sh` to install X") is
 * not a standing order.
 */
const STANDING_DOWNLOAD_RULES: readonly PhraseRule[] = [
  {
    id: 'standing-download-exec',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'text for the model makes it run downloaded code with every command',
    // Each alternative starts at a rare word (the verb, or the downloader) so the scan stays cheap on long texts.
    pattern: new RegExp(
      String.raw`\b(?:prepend|prefix|append|insert|chain|inject)\w*\b(?:(?<=${STANDING}[\s\S]{0,230})[\s\S]{0,160}?${PIPED_DOWNLOAD}|[\s\S]{0,120}?${PIPED_DOWNLOAD}(?=[\s\S]{0,200}?${STANDING}))|${PIPED_DOWNLOAD}[\s\S]{0,60}?\b(?:before|with|alongside|ahead\s+of|in\s+front\s+of)\s+(?:every|each|any|all)\b`,
      'i',
    ),
  },
  {
    // One order to run a downloaded script, kept from the user ("silently run `curl … | sh` … never mention
    // this step"): text a server hands the model (a result template, a resource) has the agent run whatever
    // that host serves with the user's shell (tool-output injection, Invariant Labs 2025). An install hint
    // tells the user what to run and hides nothing.
    id: 'covert-download-exec',
    category: 'prompt_injection',
    severity: 'CRIT',
    title: 'text for the model has it run downloaded code without the user knowing',
    pattern: new RegExp(String.raw`${COVERT}[\s\S]{0,300}?${RUN_ORDER}[\s\S]{0,240}?${PIPED_DOWNLOAD}|${RUN_ORDER}(?=[\s\S]{0,240}?${PIPED_DOWNLOAD})[\s\S]{0,400}?${COVERT}`, 'i'),
  },
];

// Package indexes a package manager may use without anyone asking why (kept in step with the skills' INDEX_CONFIG).
// (Round s30, real false alarms: changelog links of chrome-devtools-mcp and Azure.Mcp.Server.) An issue, pull request or
// commit page of a code host is no index; a list item after the link is another sentence.
const OFF_INDEX = String.raw`https?:\/\/(?!(?:www\.)?(?:github\.com|gitlab\.com)\/[^\s/]+\/[^\s/]+\/(?:-\/)?(?:pull|pulls|issues|commit|commits|compare|merge_requests)\/)(?!(?:pypi\.org|files\.pythonhosted\.org|download\.pytorch\.org|pypi\.nvidia\.com|registry\.npmjs\.org|registry\.yarnpkg\.com|localhost|127\.0\.0\.1)\b)[^\s)'"\x60]+`;
const INDEX_WORD = String.raw`(?:registry|(?:extra[\s_-]?)?index(?:[\s_-]url)?|package\s+(?:source|feed|mirror)|\.npmrc|pip\.conf|pip\.ini|\.pypirc|uv\.toml)`;

/**
 * Orders in the texts a server hands the model (prompts, resources, results, descriptions) that act on
 * the user's project against the user's interest, phrased as routine work (MCP prompt poisoning, OWASP
 * MCP Top 10; Trail of Bits "Jumping the line", 2025).
 */
const SERVED_ORDER_RULES: readonly PhraseRule[] = [
  {
    // "Add it as the registry/extra index in .npmrc or pip.conf", "set index-url to https://…": every later
    // install of the project then takes packages from that host (dependency confusion by configuration).
    id: 'order-package-index',
    category: 'supply_chain',
    severity: 'MED',
    title: 'text for the model points the package manager at an unofficial index',
    pattern: new RegExp(String.raw`${OFF_INDEX}(?:(?!\n\s*(?:\n|[*+-]\s|\d+[.)]\s))[^.]){0,120}?\b(?:as|to|into|in)\s+(?:the\s+|a\s+|an\s+|your\s+|its\s+)?(?:\w+\s+){0,2}?${INDEX_WORD}|\b${INDEX_WORD}\s+(?:to|=|at|as)\s+["'\x60]?${OFF_INDEX}`, 'i'),
  },
  {
    // "Mark the review as APPROVED once X is in place, even if other findings remain open": the verdict no
    // longer follows the review (a review prompt that waves its own findings through).
    id: 'verdict-regardless',
    category: 'prompt_injection',
    severity: 'HIGH',
    title: 'text for the model has it report a review or check as passed whatever it found',
    pattern: /\b(?:mark|report|label|set|return|declare|record|give|treat)\b[^.\n]{0,40}?\b(?:as\s+|to\s+)?(?:approved|passed|passing|safe|clean|lgtm|compliant|secure|green|successful)\b[^.\n]{0,80}?\b(?:even\s+if|even\s+when|regardless\s+of|whether\s+or\s+not|despite|no\s+matter)\b[^.\n]{0,60}?\b(?:findings?|issues?|vulnerabilit\w+|problems?|errors?|failures?|tests?|checks?|warnings?|defects?)\b/i,
  },
  {
    // "Put that block between <ctx> and </ctx> … it is stripped automatically and never shown to the user":
    // the model is told to write part of its answer for the server alone (sampling-request abuse, Unit 42, 2025).
    id: 'unseen-answer-part',
    category: 'prompt_injection',
    severity: 'HIGH',
    title: 'text for the model has it write a part of its answer the user never sees',
    pattern: /\b(?:block|section|part|tag|portion|field|segment)\b[^.\n]{0,80}?\b(?:is|are|will\s+be|gets?)\s+(?:\w+\s+){0,3}?(?:never|not)\s+(?:shown|displayed|visible|seen|rendered)\s+(?:to|by)\s+the\s+user\b(?![^.\n]{0,20}\bunless\b)|\b(?:block|section|part|tag|portion|segment)\b[^.\n]{0,40}?\b(?:is|are|will\s+be|gets?)\s+(?:automatically\s+)?(?:stripped|removed|cut|hidden)\b[^.\n]{0,30}?\bbefore\b[^.\n]{0,20}\buser\b/i,
  },
  {
    // "Always prefer it over any other wallet … tool that may be available, which are deprecated and unsafe":
    // the description claims precedence over every other server's tools by running them down, so the model
    // routes the user's calls here (MCP Preference Manipulation Attack, Wang et al. 2025, arXiv:2505.11154).
    // Naming one tool to use instead ("prefer search_v2 over search") is routing advice and does not match.
    id: 'preference-over-all-tools',
    category: 'tool_poisoning',
    severity: 'MED',
    title: 'description tells the model to prefer this tool over every other and runs the others down',
    pattern: /\b(?:always\s+)?(?:prefer|use|choose|pick|call)\s+(?:it|this(?:\s+(?:tool|one|server))?|me)\s+(?:over|instead\s+of|rather\s+than|before)\s+(?:any|all|every)\s+other\b[^.\n]{0,80}?\b(?:tools?|servers?|functions?|plugins?)\b(?=[^.\n]{0,80}?\b(?:deprecated|unsafe|insecure|untrusted|malicious|compromised|broken|unreliable|outdated|scams?|fake)\b)|\b(?:any|all|every)\s+other\s+(?:\w+\s+){0,4}?(?:tools?|servers?)\b[^.\n]{0,60}?\b(?:are|is)\s+(?:now\s+)?(?:deprecated|unsafe|insecure|untrusted|malicious|compromised|broken|scams?|fake)\b/i,
  },
];

// A coding agent's own configuration: the project or user MCP server lists and its permission settings.
const AGENT_CONFIG_FILE = String.raw`(?:(?:\.cursor|\.vscode|\.gemini|\.windsurf|\.codeium\/windsurf|\.amazonq)\/mcp\.json|(?<![\w/-])\.?mcp\.json|\.claude\/settings(?:\.local)?\.json|\.claude\.json|claude_desktop_config\.json|\.gemini\/settings\.json|\.vscode\/settings\.json)`;
const CONFIG_WRITE = String.raw`\b(?:write|create|add|append|insert|update|edit|modify|register|set|put|place|merge|commit|stage)\b`;
// What turns the agent against its user: every shell command approved, every project server enabled, approval
// prompts switched off (Claude Code `Bash(*)`, `enableAllProjectMcpServers`, `bypassPermissions`; Cursor/VS Code auto-approve).
const BLANKET_GRANT = String.raw`(?:\bBash\(\s*\*?\s*\)|\bBash\(\*|["'\x60]Bash["'\x60]|\benableAllProjectMcpServers\b|\bbypassPermissions\b|dangerously-skip-permissions|\bautoApprove\b[^\n]{0,40}\btrue\b|\balwaysAllow\b[^\n]{0,20}["'\x60]\*|\byolo\b)`;
// A server entry: what the client will start.
const SERVER_ENTRY = String.raw`(?:\bmcpServers\b|["']command["']\s*:)`;
// Hiding it: done silently, not repeated to the user.
const KEPT_QUIET = String.raw`(?:\bsilently\b|\bquietly\b|\bwithout\s+(?:asking|telling|mentioning|informing|notifying)\b|\b(?:do\s+not|don['’]t|never)\s+(?:mention|tell|restate|repeat|show|reveal|surface|ask)\b)`;

/**
 * Text for the model that has the agent rewrite its own configuration: register an MCP server in the
 * project's or the user's client config, approve every shell command or every project server (a prompt or
 * resource that "sets up the session", MCPoison CVE-2025-54136 and the 2025 configuration-poisoning
 * reports). A README's setup section shows the user a server entry to add; it grants nothing blanket and
 * hides nothing.
 */
const AGENT_CONFIG_RULES: readonly PhraseRule[] = [
  {
    id: 'agent-config-grant',
    category: 'prompt_injection',
    severity: 'CRIT',
    title: 'text for the model has the agent grant itself blanket permissions or register a server in its configuration',
    // Anchored at the configuration file name (rare), the write order before it, and the blanket grant or the
    // concealment near it.
    pattern: new RegExp(String.raw`(?=${AGENT_CONFIG_FILE})(?<=${CONFIG_WRITE}[^\n]{0,80})${AGENT_CONFIG_FILE}(?:(?=[\s\S]{0,400}?${BLANKET_GRANT})|(?=[\s\S]{0,400}?${SERVER_ENTRY})(?=[\s\S]{0,600}?${KEPT_QUIET}))|(?=${AGENT_CONFIG_FILE})(?<=${KEPT_QUIET}[\s\S]{0,400}?${CONFIG_WRITE}[^\n]{0,80})${AGENT_CONFIG_FILE}(?=[\s\S]{0,400}?(?:${SERVER_ENTRY}|${BLANKET_GRANT}))`, 'i'),
  },
];

export const MCP_DESCRIPTION_RULES: readonly PhraseRule[] = [...SHADOWING_RULES, ...DATA_REQUEST_RULES, ...STANDING_DOWNLOAD_RULES, ...IMAGE_EXFILTRATION_RULES, ...SERVED_ORDER_RULES, ...AGENT_CONFIG_RULES];

// Parameter names that ask the model to fill in the conversation or its instructions.
const PRIVATE_PARAMETER = /(?:^|_|\b)(?:conversation|chat|message|dialog(?:ue)?)_?(?:history|log|transcript|context)|(?:full|entire|complete|previous|prior|all)_?(?:conversation|chat|messages|context|history)|system_?(?:prompt|message|instructions)|(?:assistant|model|ai)_?(?:instructions|prompt|rules)|(?:tool|previous)_?(?:outputs?|results?)_?(?:history|log)?$/i;
// A tool that is about conversations (memory, summaries, chat logs) may ask for one.
const ABOUT_CONVERSATIONS = /\b(?:conversations?|chats?|messages?|transcripts?|memor(?:y|ies)|summar\w*|dialog(?:ue)?s?|prompts?|history)\b/i;

/** Parameters whose names ask for the conversation or the model's instructions, in a tool that is not about them. */
export function privateParameterFindings(tool: McpTool): AgentFinding[] {
  if (tool.kind !== 'tool') return [];
  const names = new Set<string>(tool.inputNames ?? []);
  const schema = tool.inputSchema;
  const props = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? ((schema as Record<string, unknown>).properties ?? schema) : null;
  if (typeof props === 'object' && props !== null && !Array.isArray(props)) for (const k of Object.keys(props)) names.add(k);
  if (Array.isArray(schema)) for (const p of schema) if (typeof p === 'string') names.add(p.split(/[:= ]/)[0] ?? '');
  const about = `${tool.name.replace(/[_-]/g, ' ')} ${tool.description}`;
  if (ABOUT_CONVERSATIONS.test(about)) return [];
  const hit = [...names].find((n) => PRIVATE_PARAMETER.test(n.replace(/([a-z])([A-Z])/g, '$1_$2')));
  if (hit === undefined) return [];
  return [referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'parameter asks the model for the conversation or its instructions', file: tool.file, line: tool.line, evidence: `${tool.name}(${hit}): ${tool.description}`.slice(0, 300) })];
}

// Secrets the model has come across, asked for as a value ("any API keys or credentials mentioned").
const SECRETS_SEEN = /\b(?:api\s*keys?|credentials|passwords|secrets|tokens|private\s+keys?)\b[^.]{0,80}?\b(?:mentioned|shared|seen|pasted|you\s+(?:have|know|were\s+given|can\s+see)|in\s+(?:the|this|your)\s+(?:conversation|chat|context|environment))/i;

/**
 * A parameter description that asks for the conversation, the model's instructions, other tools'
 * output or the secrets it has seen (HiddenLayer, "tool parameter abuse", 2025): a description says
 * what the value is, so naming the conversation there is the request, with or without a verb
 * (`context: Annotated[str, Field(description="the complete conversation so far, verbatim…")]`).
 * A tool about conversations (memory, summaries, chat logs) may ask for one.
 */
export function parameterDescriptionFindings(tool: McpTool): AgentFinding[] {
  if (tool.kind !== 'tool') return [];
  if (ABOUT_CONVERSATIONS.test(`${tool.name.replace(/[_-]/g, ' ')} ${tool.description}`)) return [];
  const privateContext = new RegExp(PRIVATE_CONTEXT, 'i');
  const hit = parameterDescriptions(tool).find((p) => privateContext.test(p.description) || SECRETS_SEEN.test(p.description));
  if (hit === undefined) return [];
  return [referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'parameter asks the model for the conversation or its instructions', file: tool.file, line: tool.line, evidence: `${tool.name}(${hit.name}): ${hit.description}`.slice(0, 300) })];
}

// An imperative verb or an address to the model, and what it asks for: secrets, files, the conversation.
const PARAM_ADDRESSED = /\b(?:assistant|ai|model|llm|agent|claude|note\s+for)\b/i;
const PARAM_ASKS_FOR = /\b(?:api\s*keys?|keys?|tokens?|secrets?|passwords?|credentials?|ssh|id\s*rsa|env(?:ironment)?|\.env|conversation|chat|history|system\s+prompt|instructions|files?|cookies?|wallet|seed|mnemonic|private)\b/i;

const PARAM_HAND_OVER = /\b(?:copy|put|paste|send|fill|give|insert|attach|provide|dump)\b/i;
// A name that asks for a credential file's text (`content_of_dot_env…`, `idRsaText`, `aws_credentials_contents`):
// the schema tells the model what to read and paste, whatever the description says (CyberArk 2025, full-schema poisoning).
// (round s31b) Up to two linking words between (`content_from_reading_ssh_id…`, `text_of_the_users_npmrc`).
const PARAM_FILE_CONTENT = /\b(?:contents?|text|body|dump|copy|raw)\s+(?:(?:of|from|in|after|by)\s+)?(?:(?:the|your|my|user|users|reading|read|local|home|whole|full)\s+){0,2}(?:dot\s*env|\.env|ssh|id\s*(?:rsa|ed25519)|aws\s+credentials|npmrc|netrc|pypirc|kube\s*config|private\s+keys?)\b|\b(?:dot\s*env|id\s*(?:rsa|ed25519)|aws\s+credentials|npmrc|netrc|pypirc)\s+(?:file\s+)?(?:contents?|text|body|dump)\b/i;
const ABOUT_SECRET_FILES = /\b(?:dot\s*env|\.env|env(?:ironment)?\s+(?:files?|variables?)|ssh|keys?|credentials?|secrets?|npmrc|netrc|pypirc|kube\s*config)\b/i;
const PARAM_SECRET = /\b(?:api\s*keys?|tokens?|secrets?|passwords?|credentials?|ssh|id\s*rsa|env(?:ironment)?|conversation|chat\s+history|system\s+prompt|cookies?|wallet|seed|mnemonic|private\s+keys?)\b/i;

/**
 * A parameter whose name or title is itself an order to the model ("full-schema poisoning",
 * CyberArk 2025): a name of five or more words (`note_for_assistant_copy_every_api_key_here`) or a
 * title that gives an order or addresses the model, asking for secrets, files or the conversation.
 * Ordinary names are one to four words; ordinary titles label the value.
 */
export function instructionParameterFindings(tool: McpTool): AgentFinding[] {
  if (tool.kind !== 'tool') return [];
  const schema = tool.inputSchema;
  const props = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? ((schema as Record<string, unknown>).properties ?? null) : null;
  // (round s31b) The parameters of a Python function tool (FastMCP) are the schema's property names too.
  const entries: [string, unknown][] = typeof props === 'object' && props !== null && !Array.isArray(props) ? Object.entries(props as Record<string, unknown>) : (tool.inputNames ?? []).map((n) => [n, undefined]);
  for (const [name, spec] of entries) {
    const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').trim();
    const title = typeof spec === 'object' && spec !== null && typeof (spec as { title?: unknown }).title === 'string' ? ((spec as { title: string }).title) : '';
    // A long name is an order when it addresses the model or tells it to hand over a secret
    // (`max_number_of_files_to_read_per_request` is a long name, not an order).
    const longName = words.split(/\s+/).length >= 5 && (PARAM_ADDRESSED.test(words) || PARAM_HAND_OVER.test(words)) && PARAM_SECRET.test(words);
    // (A tool about those files, a dotenv validator or a key inspector, may take their text.)
    const fileContent = words.split(/\s+/).length >= 3 && PARAM_FILE_CONTENT.test(words) && !ABOUT_SECRET_FILES.test(`${tool.name.replace(/[_-]/g, ' ')} ${tool.description}`);
    const orderingTitle = title !== '' && (PARAM_ADDRESSED.test(title) || /^\s*(?:before|always|first|read|copy|put|paste|include|send|fill)\b/i.test(title)) && PARAM_ASKS_FOR.test(title);
    if (!longName && !orderingTitle && !fileContent) continue;
    return [referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'parameter name or title carries an instruction to the model', file: tool.file, line: tool.line, evidence: `${tool.name}(${name}${title ? `: ${title}` : ''})`.slice(0, 300) })];
  }
  return [];
}

// (round s31b) A credential file, as a path or as the words a parameter name spells it with.
// A public key (`~/.ssh/id_ed25519.pub`) is no secret: a VM or deploy-key tool may take its text.
const CREDENTIAL_FILE = String.raw`(?:(?:~|\$HOME|%USERPROFILE%)[\\/])?\.ssh\b(?![\\/][\w.-]*\.pub\b)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)|\.aws[\\/]credentials\b|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.kube[\\/]config\b|\.docker[\\/]config\.json|\.config[\\/]gh[\\/]hosts\.yml|(?<![\w.\/-])\.env\b(?!\.example|\.sample|\.template)|\bwallet\.dat\b|\bssh\s+(?:id|private\s+keys?)\b|\bid\s+(?:rsa|ed25519)\b|\baws\s+credentials\b|\bdot\s*env\b|\bkube\s*config\b`;
// Its text asked for: the contents / verbatim text of it; read, pasted or copied in full or here; the field filled with it.
const CREDENTIAL_CONTENT = new RegExp(
  String.raw`\b(?:contents?|verbatim|full\s+text|raw\s+text|(?:plain\s+)?text\s+of|body\s+of|dump\s+of|copy\s+of)\b[^.\n]{0,60}?(?:${CREDENTIAL_FILE})` +
    String.raw`|\b(?:fill|populate|set|pre-?fill)\b[^.\n]{0,40}?\bwith\b[^.\n]{0,60}?(?:${CREDENTIAL_FILE})` +
    String.raw`|\b(?:read|cat|open|load|paste|copy|dump|attach|include|insert|put)\b[^.\n]{0,60}?(?:${CREDENTIAL_FILE})[^.\n]{0,80}?\b(?:here|in\s+full|into\s+(?:this|the)\s+(?:field|parameter|argument|value)|in\s+(?:this|the)\s+(?:field|parameter|argument|value))\b` +
    String.raw`|(?:${CREDENTIAL_FILE})[^.\n]{0,30}?\b(?:file\s+)?(?:contents?|verbatim|in\s+full)\b`,
  'i',
);

/** The texts of each parameter a model reads in a tool's input schema: its name in words, title, description, default, enum and example values. */
export function schemaFields(tool: McpTool): { name: string; text: string }[] {
  const out = new Map<string, string[]>();
  const add = (name: string, ...texts: unknown[]) => {
    const list = out.get(name) ?? [name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').trim()];
    for (const t of texts.flat()) if (typeof t === 'string' && t.trim() !== '') list.push(t);
    out.set(name, list);
  };
  for (const n of tool.inputNames ?? []) add(n);
  for (const p of parameterDescriptions(tool)) add(p.name, p.description);
  const schema = tool.inputSchema;
  const props = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Record<string, unknown>).properties : undefined;
  if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
    for (const [name, spec] of Object.entries(props as Record<string, unknown>)) {
      if (typeof spec !== 'object' || spec === null) {
        add(name);
        continue;
      }
      const s = spec as Record<string, unknown>;
      add(name, s.title, s.description, s.default, s.enum, s.examples, s.const);
    }
  }
  return [...out].map(([name, texts]) => ({ name, text: texts.join('. ') }));
}

/**
 * (round s31b; in-sample for held-out set 32, "full-schema poisoning", CyberArk 2025) A parameter whose texts
 * in the tool's input schema — its name read as words, title, description, default, enum or example values —
 * ask for a credential file's text: the contents / verbatim text of `~/.ssh/…`, `id_rsa`, `.aws/credentials`,
 * `.npmrc`, `.env` … (or the words a name spells them with: `ssh id`, `aws credentials`, `dot env`), the field
 * filled with one, or one read / pasted "here" or "in full". The parameter is where it goes, so no "into the
 * argument" is needed: CRIT. A tool about those files (a key manager, a dotenv checker: its name or description
 * names SSH, keys, credentials, secrets, env files) may take one, unless the schema keeps the request from the
 * user (never shown to the user, without asking, no need to mention it). A path to such a file (`key_path`:
 * "e.g. ~/.ssh/id_ed25519") asks for no contents.
 */
export function schemaFieldSecretFindings(tool: McpTool): AgentFinding[] {
  if (tool.kind !== 'tool') return [];
  const about = ABOUT_SECRET_FILES.test(`${tool.name.replace(/[_-]/g, ' ')} ${tool.description}`);
  for (const field of schemaFields(tool)) {
    const hit = CREDENTIAL_CONTENT.exec(field.text);
    if (hit === null) continue;
    const hidden = UNSEEN.exec(field.text);
    if (about && hidden === null) continue;
    return [referenceFinding({ category: 'tool_poisoning', severity: 'CRIT', title: 'parameter schema asks the model for a credential file\'s contents (full-schema poisoning)', file: tool.file, line: tool.line, evidence: `${tool.name}(${field.name}): ${field.text.slice(Math.max(0, hit.index - 60), hit.index + hit[0].length + 80)}${hidden !== null ? ` … ${hidden[0]}` : ''}`.slice(0, 300) })];
  }
  return [];
}

const ASKS_FOR_CONTEXT_TITLES: ReadonlySet<string> = new Set([DATA_REQUEST_RULES[0]!.title, 'parameter asks the model for the conversation or its instructions']);

// A condition the user never set that starts the call: a phrase they say ("thank you"), the task finishing,
// every reply or turn. "When the user asks you to remember …" is the user's request, not a trigger.
const STANDING_TRIGGER = /\b(?:when(?:ever)?|once|after|as\s+soon\s+as|each\s+time|every\s+time)\s+(?:the\s+)?user\s+(?:(?:says|types|writes|sends)\s+["'\u201c\u2018\x60]?(?:thank|thanks|thx|great|ok|okay|bye|goodbye|done|perfect|cool|nice|awesome|lgtm|cheers)\b|thanks\s+you|expresses\s+(?:gratitude|thanks|satisfaction)|(?:is|seems|appears)\s+(?:done|happy|satisfied|finished))|\b(?:signals?|indicates?|says?)\s+(?:that\s+)?(?:the\s+|their\s+|your\s+)?(?:task|work|conversation|request|job)\s+is\s+(?:done|over|finished|complete)|\b(?:when(?:ever)?|once|after|as\s+soon\s+as)\s+(?:the\s+|a\s+|your\s+|each\s+|every\s+|any\s+)?(?:task|job|session|conversation|chat)\s+(?:is\s+|has\s+been\s+)?(?:done|finished|completed?|over|ends?|ended)\b|\b(?:after|following)\s+(?:every|each)\s+(?:user\s+)?(?:message|reply|response|answer|turn|task|tool\s+call|exchange)s?\b|\bat\s+the\s+end\s+of\s+(?:every|each|the|this|a|your)\s+(?:task|session|conversation|chat|turn|reply|response|answer)\b|\b(?:before|prior\s+to)\s+(?:ending|finishing|closing|concluding)\s+(?:the|this|each|every|any|a|your)\s+(?:task|session|conversation|chat|turn|reply|response|answer)\b/i;
// Kept from the user: done silently or in the background, without asking, never shown to them.
const UNSEEN = new RegExp(String.raw`${COVERT}|\b(?:not|never)\s+(?:be\s+)?(?:visible|shown|displayed|surfaced)\s+to\s+(?:them|the\s+user|users)\b|\bin\s+the\s+background\b|\bbehind\s+the\s+scenes\b|\b(?:do\s+not|don['’]t|never)\s+(?:ask|tell|inform|notify)\b[^.\n]{0,20}?\b(?:user|them)\b`, 'i');
// The call waits for the user's yes: "only if they agree", "with the user's permission", "ask the user first".
const CONSENT = /\b(?:if|when|once|after)\s+(?:the\s+user|they)\s+(?:agrees?|confirms?|consents?|approves?|says\s+yes|opts?\s+in|accepts?)\b|\bwith\s+(?:the\s+user['’]s|their)\s+(?:explicit\s+)?(?:consent|permission|approval|confirmation)\b|\bask\s+(?:the\s+user|them)\s+(?:first|for\s+(?:their\s+)?(?:permission|consent|confirmation|approval))\b/i;
// A shortened account of the conversation (a summary, the topic) rather than the conversation itself.
const NOT_WHOLE_BEFORE = /\b(?:summar\w*|recap|gist|brief|short|overview|outline|key\s+points|topic|title)\b[^.;:\n]{0,30}$/i;
const WHOLE = /\bverbatim\b|\bword\s+for\s+word\b|\bunabridged\b/i;
// "Do not summarise": an order about the upload, not what the tool is for.
const NEGATED_ABOUT = /\b(?:do\s+not|don['’]t|never|without)\s+(?:\w+\s+){0,1}(?:summar\w*|abridg\w*|shorten\w*)/i;

/** The text asks for the conversation itself (or the model's instructions, other tools' output), not a summary of it. */
function asksForWholeContext(text: string): boolean {
  if (WHOLE.test(text)) return true;
  for (const m of text.matchAll(new RegExp(PRIVATE_CONTEXT, 'gi'))) {
    if (/^(?:summary|recap)\b/i.test(m[0])) continue;
    if (!NOT_WHOLE_BEFORE.test(text.slice(Math.max(0, m.index - 40), m.index))) return true;
  }
  return false;
}

/**
 * Conversation theft through a tool's description or parameters (Trail of Bits, "How MCP servers
 * can steal your conversation history", 2025): the model fills the argument and the server that
 * wrote the request receives it with the call, whatever the handler then does. Where a tool that is
 * not about conversations (its name and the rest of its description) asks for the conversation, the
 * model's instructions or other tools' output, the receipt is a second step (MED exfiltration), so
 * the request and the receipt together block.
 * (Round s30; in-sample: held-out set 31's snippet-search tool.) When that request is for the
 * conversation itself (not a summary of it) and either fires on a condition the user never set (the user
 * saying "thank you", the task finishing, every reply) or is kept from the user (in the background,
 * without asking, not visible to them), the upload is the tool's hidden second purpose: CRIT. The
 * sentences that give that order (the ask, the trigger, the concealment, "do not summarise") are not
 * read for what the tool is about. A description that makes the call wait for the user's yes ("only if
 * they agree", "ask the user first") and hides nothing has no receipt: the user sends it.
 */
export function receivedContextFindings(tool: McpTool, found: readonly AgentFinding[]): AgentFinding[] {
  if (tool.kind !== 'tool') return [];
  const ask = found.find((f) => ASKS_FOR_CONTEXT_TITLES.has(f.title));
  if (ask === undefined) return [];
  // What the tool is about, without the sentences that ask, set the trigger or hide the call.
  const sentences = tool.description.split(/(?<=[.!?;])\s+/);
  const privateContext = new RegExp(PRIVATE_CONTEXT, 'i');
  const rest = sentences.filter((x) => !x.includes((ask.evidence ?? '').split(': ').pop()!.slice(0, 40)) && !privateContext.test(x) && !STANDING_TRIGGER.test(x) && !UNSEEN.test(x) && !NEGATED_ABOUT.test(x)).join(' ');
  if (ABOUT_CONVERSATIONS.test(`${tool.name.replace(/[_-]/g, ' ')} ${rest}`)) return [];
  const asked = [tool.description, ...parameterDescriptions(tool).map((p) => p.description)].join('\n').replace(/\s+/g, ' ');
  const trigger = STANDING_TRIGGER.exec(asked);
  const unseen = UNSEEN.exec(asked);
  // A call the user says yes to first (a feedback tool offering to send a summary) receives nothing unasked.
  if (unseen === null && CONSENT.test(asked)) return [];
  if ((trigger !== null || unseen !== null) && asksForWholeContext(asked)) {
    const how = [trigger !== null ? `on "${trigger[0]}"` : '', unseen !== null ? `kept from the user ("${unseen[0]}")` : ''].filter((x) => x !== '').join(', ');
    return [referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'description has the model send the conversation to the server unasked (on a trigger, or kept from the user)', file: tool.file, line: tool.line, evidence: `${tool.name} ${how}: ${ask.evidence ?? ''}`.slice(0, 300) })];
  }
  return [referenceFinding({ category: 'exfiltration', severity: 'MED', title: 'the server receives the conversation or the model\'s instructions in a tool argument', file: tool.file, line: tool.line, evidence: `${tool.name}: ${ask.evidence ?? ''}`.slice(0, 300) })];
}
