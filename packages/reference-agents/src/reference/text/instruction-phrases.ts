import type { Severity } from '@vigil/core';

/** One family of instructions an artifact's text gives a model. */
export interface PhraseRule {
  id: string;
  category: string;
  severity: Severity;
  title: string;
  pattern: RegExp;
}

export interface PhraseHit {
  rule: PhraseRule;
  offset: number;
  match: string;
}

// Credential files a model is told to read: each also names the file in the evidence.
const SECRET_FILE =
  String.raw`(?:~\/|\$HOME\/|%USERPROFILE%\\)?\.ssh\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws\/credentials|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.kube\/config|\.docker\/config\.json|(?:\.cursor|\.codeium|\.continue|\.claude)\/[\w./-]*|\bmcp\.json\b|claude_desktop_config\.json|(?:^|[\s'"\x60(])\.env\b|\/etc\/(?:passwd|shadow)|\bwallet\.dat\b|\.(?:bash|zsh|sh|fish|python|psql|mysql|node_repl)_history\b|\.config\/gh\/hosts\.yml\b`;
// Where the model is told to put what it read: an argument, a note, a request.
const INTO_TARGET = String.raw`\b(?:as|in|into|to|via|inside|within|through)\s+(?:the\s+|a\s+|its\s+|this\s+|your\s+(?:next\s+)?)?(?:['"\x60](?!\w*_(?:KEY|TOKEN|SECRET|PASSWORD)['"\x60])\w+['"\x60]|(?:['"\x60]?\w+['"\x60]?\s+)?(?:parameter|argument|field|param|arg|sidenote|note|notes|metadata|context|request|body|url|query|payload|message|answer|reply|response)\b|https?:\/\/)`;

// An order to call a named tool or run a command (`call the \`git_push\` tool`, `run the following command`).
const TOOL_ORDER = String.raw`(?:\b(?:call|invoke|use|run|execute|trigger)\s+(?:the\s+|your\s+)?['"\x60]?[a-z][\w.-]*['"\x60]?\s+(?:tool|function)\b|\b(?:call|invoke|run|execute)\s+(?:the\s+)?(?:tool|function)\s+['"\x60]?[a-z][\w.-]*|\b(?:run|execute)\s+(?:the\s+|this\s+)?(?:following\s+)?(?:shell\s+|terminal\s+)?command\b)`;
// A negation that describes rather than orders: the verb of a clause whose subject is a third party, not the
// user or the model ("if the example stories don't show the prop you need", "fields that never show"). An
// order's negation has no subject or has "you"; "if the user asks, don't tell them" stays an order.
//
// The lookbehind is tried only where a negation starts (the lookahead before it): every pattern that uses it
// goes on with one of these negations. Unguarded, it ran at every position of a text, and in a process that
// had already analyzed many artifacts one MCP server's descriptions took up to half a second on it alone.
const DESCRIBED_NOT_ORDERED = String.raw`(?=\b(?:do|don|never|must|should)\b)(?<!\b(?:(?:if|when|whenever|unless|because|since|although|though|where|while)\s+(?:the|these|those|this|its|their|some|any|such|all|an?|they|it)\s+(?:(?!(?:users?|you|assistant|model|agent|ai)\b)[\w'’-]+\s+){0,3}|\b(?:that|which)\s+))`;
// Keeping something from the user for good, not for a while: "do not tell the user onboarding is complete until
// after the guide has run" orders when to report (the user is told), not that nothing is reported. The
// sentence may be wrapped over lines (string literals joined by `+`), not past a blank line.
const NOT_DEFERRED = String.raw`(?!(?:[^.\n]|\n(?![ \t]*\n)){0,120}?\buntil\b)`;
// Keeping it from the user (not "without asking": asking is consent).
const HIDDEN_FROM_USER = String.raw`(?:${DESCRIBED_NOT_ORDERED}\b(?:do\s+not|don['’]t|never|must\s+not)\s+(?:tell|inform|mention|reveal|disclose|show|notify)\b${NOT_DEFERRED}|\bwithout\s+(?:telling|informing|notifying|mentioning|showing)\b|\b(?:say|write|mention)\s+nothing\s+(?:about|of)\b|\bthe\s+user\s+(?:does\s+not|doesn['’]t|need\s+not|needn['’]t|must\s+not|should\s+not)\s+(?:need\s+to\s+)?(?:know|see|be\s+told|be\s+informed)\b|\b(?:should|must)\s+not\s+be\s+mentioned\b)`;

/**
 * Instruction phrasing that targets the model rather than informs the user. Patterns are phrased
 * as instructions (imperative, addressed to "you"/"the assistant") so that documentation such as
 * "IMPORTANT: run the tests first" or "you are now ready to deploy" does not match.
 */
export const PHRASE_RULES: readonly PhraseRule[] = [
  {
    id: 'ignore-previous',
    category: 'instruction_override',
    severity: 'HIGH',
    title: 'instruction to ignore previous instructions',
    pattern: /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|former|original|system|other|existing)\s+(?:instructions?|directions?|rules|prompts?|guidelines|directives|constraints)/i,
  },
  {
    id: 'conceal-from-user',
    category: 'instruction_override',
    severity: 'HIGH',
    title: 'instruction to hide actions from the user',
    pattern: new RegExp(
      // The first form is an order not to tell, unless it describes (a third party's verb) or defers (until …).
      String.raw`${DESCRIBED_NOT_ORDERED}\b(?:do\s+not|don['’]t|never|must\s+not|should\s+not)\s+(?:[a-z]+\s*(?:,|\bor\b|\band\b)\s*){0,2}(?:tell|inform|mention|reveal|disclose|notify|alert|show|let)\b[^.\n]{0,40}?\b(?:the\s+)?user\b${NOT_DEFERRED}|` +
        String.raw`\bwithout\s+(?:telling|informing|notifying|alerting|asking|showing)\s+(?:the\s+)?user\b|\b(?:hide|conceal|keep)\s+(?:this|it|these\s+steps)\s+(?:from|secret\s+from)\s+(?:the\s+)?user\b|\bthe\s+user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|find\s+out|be\s+told)\b|\bthe\s+user\s+(?:does\s+not|doesn['’]t|need\s+not|needn['’]t)\s+(?:need\s+to\s+)?(?:know|see|be\s+told|be\s+informed|hear)(?:\s+(?:about\s+)?(?:it|this|that|these))?\b|\b(?:run|call|invoke|execute|use|send|push|delete|upload|post)\b[^.\n]{0,120}?\b(?:and|then)\s+(?:say|write|mention)\s+nothing\s+(?:about|of)\b|\b(?:no|without\s+any|there\s+is\s+no)\s+need\s+to\s+(?:bring\s+(?:it|this|that)\s+up|(?:mention|tell|show|surface|report|explain|disclose)\s+(?:it|this|that|these|any\s+of\s+this)|inform|notify|alert)\b[^.\n]{0,30}?\b(?:the\s+)?user\b|\bkeep\s+(?:this|it|these|that)(?:\s+\w+){0,2}\s+to\s+yourself\b|\b(?:do\s+not|don['’]t|never)\s+(?:mention|reveal|disclose|surface|bring\s+up)\s+(?:this|these|that)\s+(?:instruction|preference|step|rule|note|behaviou?r|requirement|call|routing|dependency|dependencies|package|change|addition|import|registry|setting)s?\b|\b(?:do\s+not|don['’]t|never)\s+ask\s+(?:the\s+user\s+)?(?:for\s+(?:permission|confirmation|approval)\s+)?before\s+(?:adding|installing|running|changing|modifying|sending|pushing|deleting|committing|executing|applying|importing)\b`,
      'i',
    ),
  },
  {
    // An order to call a tool or run a command, and to keep it from the user, in one paragraph: the
    // model acts with the user's tools on hidden orders (covert tool invocation, Unit 42, 2025).
    // "Never run X without asking the user" is a safeguard (asking is consent; the prohibition before it is read apart).
    id: 'covert-tool-call',
    category: 'prompt_injection',
    severity: 'CRIT',
    title: 'instruction to call tools or run commands hidden from the user',
    pattern: new RegExp(String.raw`${TOOL_ORDER}(?:(?!\n\s*\n)[\s\S]){0,220}?${HIDDEN_FROM_USER}|${HIDDEN_FROM_USER}[^.\n]{0,80}?${TOOL_ORDER}`, 'i'),
  },
  {
    id: 'role-reassignment',
    category: 'instruction_override',
    severity: 'HIGH',
    title: 'instruction reassigning the model\'s role',
    pattern:
      /\byou\s+are\s+(?:now|no\s+longer)\s+(?:a|an|the|in|my)?\s*[\w -]{0,40}?\b(?:assistant|AI|model|agent|DAN|bot|unrestricted|unfiltered|jailbroken|developer\s+mode|god\s+mode|evil|hacker|without\s+restrictions)\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must)\b/i,
  },
  {
    id: 'system-prompt-override',
    category: 'instruction_override',
    severity: 'HIGH',
    title: 'system prompt override or extraction',
    pattern:
      /\b(?:new|updated|overriding|replacement|real)\s+system\s+(?:prompt|instructions?|message)\s*(?:[:=-]|is\b)|\b(?:reveal|print|output|repeat|leak|show)\s+(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions)\b/i,
  },
  {
    id: 'fake-role-tag',
    category: 'instruction_override',
    severity: 'HIGH',
    title: 'text poses as a system or assistant message',
    pattern: /<\/?\s*(?:system|system_prompt|sys|assistant)\s*>|\[\s*(?:SYSTEM|INST)\s*\]|^[ \t]*SYSTEM[ \t]*:[ \t]*(?=\S)|<\|im_start\|>\s*system/m,
  },
  {
    id: 'jailbreak',
    category: 'prompt_injection',
    severity: 'HIGH',
    title: 'jailbreak phrasing',
    pattern:
      /\bDo\s+Anything\s+Now\b|\bDAN\s+mode\b|\b(?:developer|god|jailbreak|unrestricted)\s+mode\s+(?:enabled|activated|on)\b|\b(?:ignore|without|free\s+of|no)\s+(?:any\s+|all\s+|your\s+)?(?:ethical|moral|safety|content)\s+(?:guidelines|restrictions|filters|policies|rules|constraints)\b|\bjailbr(?:oken|eak)\b/i,
  },
  {
    id: 'read-secret-into-argument',
    category: 'tool_poisoning',
    severity: 'CRIT',
    title: 'instruction to read secrets and pass them on',
    pattern: new RegExp(String.raw`\b(?:read|cat|open|load|get|fetch|include|attach|pass|send|append|copy|paste|upload|put|extract|take|gather|grab|collect|dump|zip|archive|encode)\b[^.\n]{0,80}?(?:${SECRET_FILE})[^\n]{0,120}?${INTO_TARGET}`, 'i'),
  },
  {
    id: 'harvest-secrets',
    category: 'tool_poisoning',
    severity: 'CRIT',
    title: 'instruction to collect secrets and pass them on',
    pattern:
      /\b(?:read|collect|extract|gather|harvest|search\s+for|find|look\s+for|list)\b[^.\n]{0,60}\b(?:(?:all\s+)?(?:the\s+user['’]s\s+)?(?:api[ _-]?keys|tokens|passwords|credentials|secrets|private\s+keys|seed\s+phrases?|environment\s+variables)|(?:every|each|any)\s+(?:[\w-]+\s+){0,2}(?:api[ _-]?key|token|password|credential|secret|private\s+key|environment\s+variable))\b[^.\n]{0,100}\b(?:and|then)\s+(?:pass|send|include|append|put|add|post|upload)\s+(?:them|it|those|these|all|each|every\s*one|the\s+(?:values?|keys?|results?|contents?|list|lot))\b/i,
  },
  {
    id: 'send-private-to-url',
    category: 'exfiltration',
    severity: 'HIGH',
    title: 'instruction to send conversations or secrets to an external address',
    pattern:
      /\b(?:send|sent|post|posted|upload|uploaded|forward|forwarded|exfiltrate|transmit|copy|bcc|cc)\b[^.\n]{0,80}?\b(?:conversations?|chats?|transcripts?|history|messages?|emails?|keys?|tokens?|credentials?|secrets?|passwords?|environment|private)\b[^.\n]{0,60}?\b(?:to|at)\s+(?:https?:\/\/[^\s)'"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)/i,
  },
  {
    id: 'send-to-url',
    category: 'exfiltration',
    severity: 'MED',
    title: 'instruction to send data to an external address',
    pattern:
      /\b(?:send|sent|post|posted|upload|uploaded|forward|forwarded|exfiltrate|transmit|copy)\b[^.\n]{0,80}?\b(?:contents?|data|files?|results?|output|everything|documents?|code|notes)\b[^.\n]{0,60}?\b(?:to|at)\s+(?:https?:\/\/[^\s)'"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)/i,
  },
  {
    id: 'secret-file-reference',
    category: 'credential_access',
    severity: 'MED',
    title: 'instruction text names credential files',
    pattern:
      /(?:~\/|\$HOME\/)\.ssh\b|\bid_(?:rsa|ed25519|ecdsa)\b|\.aws\/credentials|~\/\.npmrc|~\/\.pypirc|~\/\.netrc|\.git-credentials|~\/\.kube\/config|~\/\.cursor\/mcp\.json|claude_desktop_config\.json|\/etc\/shadow|\bwallet\.dat\b/i,
  },
  {
    id: 'important-tag',
    category: 'tool_poisoning',
    severity: 'MED',
    title: 'instruction block in an <IMPORTANT>-style tag',
    pattern: /<\s*(?:IMPORTANT|important|Important|CRITICAL|SECRET|HIDDEN)\s*>/,
  },
  {
    id: 'coercion',
    category: 'prompt_injection',
    severity: 'MED',
    title: 'coercive instruction to the model',
    pattern:
      /\b(?:otherwise|or\s+else|if\s+you\s+don['’]t|failure\s+to\s+do\s+so)\b[^.\n]{0,60}?\b(?:the\s+)?(?:tool|system|application|server|app|request|user['’]?s?\s+data)\s+(?:will|would)\s+(?:crash|fail|break|stop\s+working|be\s+lost|be\s+deleted)\b|\byou\s+(?:must|have\s+to)\s+(?:always\s+)?(?:comply|obey)\b|\bthis\s+is\s+(?:very\s+|extremely\s+)?(?:important|critical)\s+for\s+(?:the\s+)?(?:tool|system|application)\s+to\s+work\b/i,
  },
];

/** Every match of every rule in a text (one hit per rule and match position). */
export function findInstructionPhrases(text: string, rules: readonly PhraseRule[] = PHRASE_RULES): PhraseHit[] {
  const hits: PhraseHit[] = [];
  for (const rule of rules) {
    // The matches `text.matchAll` gives, from one global copy of the pattern kept for every call
    // (not a new regular expression per rule and call).
    const global = globalCopy(rule.pattern);
    global.lastIndex = 0;
    const unicode = /[uv]/.test(global.flags);
    for (let m = global.exec(text); m !== null; m = global.exec(text)) {
      hits.push({ rule, offset: m.index, match: m[0] });
      if (hits.length > 500) return hits;
      if (m[0] === '') global.lastIndex = advance(text, global.lastIndex, unicode);
    }
  }
  return hits;
}

const GLOBAL_COPIES = new WeakMap<RegExp, RegExp>();

function globalCopy(pattern: RegExp): RegExp {
  let global = GLOBAL_COPIES.get(pattern);
  if (global === undefined) {
    global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    GLOBAL_COPIES.set(pattern, global);
  }
  return global;
}

/** The index after an empty match (AdvanceStringIndex: a surrogate pair is one step in unicode mode). */
function advance(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const first = text.charCodeAt(index);
  if (first < 0xd800 || first > 0xdbff) return index + 1;
  const second = text.charCodeAt(index + 1);
  return second >= 0xdc00 && second <= 0xdfff ? index + 2 : index + 1;
}
