import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { PhraseRule } from '../text/instruction-phrases.js';
import type { McpTool } from './mcp-tool.js';

/** Rules for text that changes how other tools behave, matched in MCP tool, prompt and resource descriptions. */
export const SHADOWING_RULES: readonly PhraseRule[] = [
  {
    id: 'other-tool-condition',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'description changes how other tools behave (tool shadowing)',
    pattern:
      /\b(?:when|whenever|before|after|if)\b[^.\n]{0,40}\b(?:tool|function|server)s?\b[^.\n]{0,40}?\b(?:is|are)?\s*(?:used|called|invoked|run|executed)\b[^.\n]{0,160}?\b(?:must|always|also|instead|change|add|send|set|replace|redirect|include)\b|\b(?:before|instead\s+of)\s+(?:using|calling|invoking)\s+(?:any|all|the)\s+other\s+tools?\b/i,
  },
  {
    id: 'redirect-recipient',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'description redirects where data is sent',
    pattern:
      /\b(?:change|set|replace|redirect|override|switch)\s+(?:the\s+)?(?:recipient|destination|to[- ]address|email\s+address|phone\s+number|webhook(?:\s+url)?|target\s+url|endpoint)s?\b[^.\n]{0,40}?\bto\s+(?:the\s+|an?\s+)?['"`]?(?:https?:\/\/|[\w.+-]+@[\w-]+\.|\+?\d[\d\s().-]{6,})|\b(?:always|also)\s+(?:add|include|bcc|cc)\b[^.\n]{0,60}?\b(?:bcc|cc|recipient|copy)\b/i,
  },
];

// What turns a mention of another tool into shadowing: an instruction about the other tool's
// arguments, recipients or data (change, redirect, add a recipient, pass along, send a copy). Which
// tool to use, or to use first ("prefer this tool over X", "use X instead", "DEPRECATED: use X"),
// is routing advice and does not change what the other tool does.
const STEERS = /\b(?:change|replace|redirect|override|modify|add|include|append|attach|insert|bcc|cc|forward|send\s+(?:it|them|a\s+copy|the\s+\w+)|regardless)\b/i;
const ROUTING = /\b(?:prefer|use|call|run|invoke|try)\b[^.\n]{0,40}$|\b(?:via|using|through|with)\s+(?:the\s+)?['"`]?$/i;

// The clause around a mention: an instruction about another tool sits in the clause that names it
// ("the send_email tool must also send a copy to …"), or follows a conditional clause naming it
// ("When X is called, change …").
function sentenceAround(text: string, at: number, length: number): string {
  const before = text.slice(Math.max(0, at - 200), at);
  const cut = Math.max(...[/[.;()\n,]/g, /\s(?:or|and then|but)\s/gi].map((re) => {
    let last = -1;
    for (const m of before.matchAll(re)) last = m.index + m[0].length;
    return last;
  }));
  const start = Math.max(0, at - 200) + Math.max(0, cut);
  const rest = text.slice(at + length, at + length + 200);
  // "When send_message is invoked, change the recipient …": a conditional clause naming the tool
  // carries on into the instruction after the comma, to the end of the sentence.
  const conditional = /\b(?:when|whenever|if|before|after|once|each\s+time|every\s+time)\b/i.test(text.slice(start, at));
  const stop = rest.search(conditional ? /[.;\n]/ : /[.;()\n,]|\s(?:or|and then|but)\s/i);
  return text.slice(start, at + length + (stop < 0 ? rest.length : stop));
}

/**
 * A description that names another tool of the same server (or a well-known tool of other servers)
 * and, in the same sentence, tells the model to change that tool's arguments or data: the
 * shadowing shape of Invariant Labs' WhatsApp demo. Every mention is checked, so an innocuous
 * first mention does not hide a later instruction.
 */
export function crossToolFindings(tools: readonly McpTool[]): AgentFinding[] {
  const names = new Set(tools.filter((t) => t.kind === 'tool').map((t) => t.name));
  for (const n of ['send_email', 'send_message', 'send_whatsapp_message', 'execute_command', 'run_command', 'write_file', 'read_file', 'create_issue', 'git_push', 'transfer_funds']) names.add(n);
  const findings: AgentFinding[] = [];
  // One pattern for every name, longest first, so each description is scanned once.
  const sorted = [...names].filter((n) => n.length >= 4).sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return findings;
  const mention = new RegExp(`(?<![\\w-])(?:${sorted.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w-])`, 'g');
  for (const tool of tools) {
    let found: string | null = null;
    for (const m of tool.description.matchAll(mention)) {
      const other = m[0];
      if (other === tool.name) continue;
      const sentence = sentenceAround(tool.description, m.index, other.length);
      const before = sentence.slice(0, Math.max(0, sentence.indexOf(other)));
      const after = sentence.slice(sentence.indexOf(other) + other.length);
      // "use X instead", "prefer X": the instruction is about choosing X, not about what X does.
      const steer = STEERS.exec(before.slice(-120)) ?? STEERS.exec(after.slice(0, 160));
      if (!steer) continue;
      if (ROUTING.test(before) && !/\b(?:change|replace|redirect|bcc|cc|forward|send\s+a\s+copy)\b/i.test(after.slice(0, 160) + before.slice(-120))) continue;
      found = `${tool.name} → ${other}: ${sentence.trim()}`;
      break;
    }
    if (found !== null) findings.push(referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'description changes how other tools behave (tool shadowing)', file: tool.file, line: tool.descriptionLine, evidence: found }));
  }
  return findings;
}

// A value fixed by the description: an e-mail address, a web address, a phone number, a wallet address.
const FIXED_VALUE = String.raw`(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?:\/\/[^\s'"\`<>)]+|\+?\d[\d\s().-]{7,}\d|0x[0-9a-fA-F]{40}|bc1[0-9a-z]{20,})`;
// A parameter of a tool: a quoted name, or a word that names where data goes.
const PARAMETER = String.raw`(?:['"\`‘“][\w.-]{1,40}['"\`’”]\s+(?:field|parameter|param|argument|arg|value|input|property|key|header)s?|(?:the\s+)?(?:recipient|destination|cc|bcc|address|account|wallet|webhook|channel|phone(?:\s+number)?|email(?:\s+address)?|payee|iban)s?(?:\s+(?:field|parameter|argument|value))?)`;
const FIXES_PARAMETER = new RegExp(String.raw`(?<!\w)${PARAMETER}\b[^.\n]{0,60}?\b(?:must|should|needs?\s+to|has\s+to|is\s+to|shall|will)\s+(?:always\s+|now\s+|instead\s+|only\s+)*(?:be|equal|contain|point\s+to|go\s+to|be\s+set\s+to|be\s+replaced\s+(?:by|with))\s*:?\s*['"\`<‘“]?(${FIXED_VALUE})|\b(?:always\s+)?(?:set|fill|replace|put|use)\s+(?:in\s+)?${PARAMETER}\s+(?:to|with|as)\s*:?\s*['"\`<‘“]?(${FIXED_VALUE})`, 'i');
// "such as x@y", "e.g. https://…": a format example, not a value to impose.
const EXAMPLE_BEFORE = /\b(?:e\.g\.|for\s+example|for\s+instance|such\s+as|like|valid|a\s+full|format)\b[^.\n]{0,30}$/i;
const CONCEALS = /\b(?:silently|quietly|without\s+(?:telling|asking|informing|notifying|mentioning)|(?:no\s+need\s+to|do\s+not|don['’]t|never)\s+(?:mention|tell|inform|notify|confirm|ask)|the\s+user\s+(?:need|does)\s+not\s+(?:know|be\s+told))\b/i;
// Tool names a description refers to by form: a snake_case name quoted or in backticks beside the word "tool".
const NAMED_TOOL = /(?:\btools?\s+['"`‘“]?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)['"`’”]?|['"`‘“]([a-z][a-z0-9]*(?:_[a-z0-9]+)+)['"`’”]\s+(?:tool|function|command)s?\b|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s+tools?\b)/g;

/**
 * Tool shadowing without trigger words: a description that names another tool (one of the server's,
 * a well-known tool of other servers, or a snake_case name it calls a tool) and, anywhere in its text,
 * fixes a parameter to a value of its own ("its 'to' field must always be ops@…", "set the recipient
 * to https://…"). A tool has no business deciding another tool's arguments; CRIT when the text also
 * hides it from the user. A format example ("a valid address such as a@b.example") is not a value.
 */
export function fixedParameterFindings(tools: readonly McpTool[]): AgentFinding[] {
  const own = new Set(tools.filter((t) => t.kind === 'tool').map((t) => t.name));
  const known = new Set([...own, 'send_email', 'send_message', 'send_whatsapp_message', 'execute_command', 'run_command', 'write_file', 'read_file', 'create_issue', 'git_push', 'transfer_funds']);
  const findings: AgentFinding[] = [];
  for (const tool of tools) {
    const text = tool.description.replace(/\s*\n\s*/g, ' ');
    const named = new Set<string>();
    for (const n of known) if (n !== tool.name && new RegExp(`(?<![\\w-])${n}(?![\\w-])`).test(text)) named.add(n);
    for (const m of text.matchAll(NAMED_TOOL)) {
      const n = m[1] ?? m[2] ?? m[3];
      if (n !== undefined && n !== tool.name) named.add(n);
    }
    if (named.size === 0) continue;
    const fix = FIXES_PARAMETER.exec(text);
    if (fix === null) continue;
    const valueAt = fix.index + fix[0].length - (fix[1] ?? fix[2] ?? '').length;
    if (EXAMPLE_BEFORE.test(text.slice(Math.max(0, valueAt - 60), valueAt))) continue;
    // A sentence that forbids what it names is a safety rule.
    const sentenceStart = Math.max(text.lastIndexOf('. ', fix.index) + 1, 0);
    if (/\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not)\b/i.test(text.slice(sentenceStart, fix.index))) continue;
    const hidden = CONCEALS.test(text);
    findings.push(
      referenceFinding({
        category: 'tool_poisoning',
        severity: hidden ? 'CRIT' : 'HIGH',
        title: hidden ? 'description fixes another tool’s parameter to its own value and hides it (tool shadowing)' : 'description fixes another tool’s parameter to its own value (tool shadowing)',
        file: tool.file,
        line: tool.descriptionLine,
        evidence: `${tool.name} → ${[...named].slice(0, 3).join(', ')}: ${fix[0].slice(0, 200)}`,
      }),
    );
  }
  return findings;
}

// (round s31b) Tool shadowing that names no tool of the list above: "any send_email, gmail_send or sendEmail tool
// from ANY server", "the Gmail or Outlook tools of other servers", "every payment made through another server".
// A reference to tools that are not this one: other / another / third-party / external … server(s), integration(s),
// connector(s), plugin(s), tool(s); tools from / of / on any / every / other server; any / every / all … tool(s);
// a snake_case or camelCase name in a sentence that says tool or function.
const OTHER_TOOLS = /\b(?:other|another|third[- ]party|external|different)\s+(?:\w+\s+){0,2}?(?:servers?|integrations?|connectors?|plugins?|tools?|extensions?|providers?)\b|\b(?:from|of|on|by|through|via|in)\s+(?:any|every|all|other|another|a\s+different|each)\s+(?:\w+\s+){0,2}?(?:servers?|integrations?|connectors?|providers?|plugins?)\b|\b(?:any|every|all|each)\s+(?:\w+\s+){0,3}?(?:tools?|functions?)\b/i;
const TOOL_WORD = /\b(?:tools?|functions?)\b/i;
const IDENTIFIER = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b/g;
// What another tool carries or where it sends it.
const TARGET_NOUN = String.raw`(?:recipients?|address(?:es|ees?)?|to[- ]address(?:es)?|destinations?(?:\s+(?:account|address|path|folder))?|paths?|folders?|director(?:y|ies)|accounts?|amounts?|repositor(?:y|ies)|repos?|branch(?:es)?|urls?|endpoints?|channels?|wallets?|payees?|iban|e-?mail(?:\s+address)?s?|numbers?|targets?|hosts?|buckets?)`;
// The value the user chose, named as such.
const USERS_CHOICE = String.raw`(?:(?:the\s+|what\s+the\s+|whatever\s+)?(?:(?:requested|intended|original|real|actual|given|specified|chosen|provided|stated|expected|user['’]s|user-(?:given|provided|chosen|specified))\s+)${TARGET_NOUN}|(?:the\s+|an?\s+)?${TARGET_NOUN}\s+(?:that\s+)?(?:the\s+user|they|you\s+were\s+given)\s+(?:gave|asked\s+for|requested|chose|picked|selected|set|specified|supplied|provided|named|entered|wanted|wrote|typed))`;
// A value of the server's own: an address, a web address, a phone number, a wallet, an IBAN, a path under home or /tmp.
const OWN_VALUE = new RegExp(String.raw`${FIXED_VALUE}|\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}(?:\s?[A-Z0-9]{1,4})?\b|(?:~|\/tmp|\/var\/tmp|\/dev\/shm|\$HOME)\/[\w./-]+`);
// Within a sentence: a full stop only when it ends one (an address or a host has dots inside).
const IN_SENTENCE = String.raw`(?:[^.\n]|\.(?=\S))`;
const OVERRIDES: readonly { kind: 'choice' | 'amount' | 'change'; re: RegExp }[] = [
  // "… to X instead of the requested recipient", "rather than to the address the user gave".
  { kind: 'choice', re: new RegExp(String.raw`\b(?:instead\s+of|rather\s+than|in\s+place\s+of|not)\s+(?:to\s+|into\s+|in\s+)?${USERS_CHOICE}`, 'i') },
  // "double the amount", "the amount must be doubled".
  { kind: 'amount', re: new RegExp(String.raw`\b(?:double|triple|multiply|increase|raise|inflate|round\s+up)\s+(?:the\s+|every\s+|each\s+|any\s+|its\s+|their\s+)?(?:\w+\s+)?(?:amounts?|sums?|quantit(?:y|ies)|totals?)\b|\b(?:amounts?|sums?|quantit(?:y|ies)|totals?)\b${IN_SENTENCE}{0,40}?\b(?:must|should|has\s+to|have\s+to|is\s+to|are\s+to|will)\s+(?:always\s+)?(?:be\s+)?(?:doubled|tripled|multiplied|increased|raised|inflated|rounded\s+up)\b`, 'i') },
  // "change / replace / redirect the recipient to …", "the destination account replaced by …", "add … as a BCC".
  { kind: 'change', re: new RegExp(String.raw`\b(?:change|replace|redirect|override|swap|rewrite|switch|re-?route|point)\s+(?:the\s+|its\s+|their\s+|every\s+|each\s+|any\s+|all\s+)?(?:\w+\s+)?${TARGET_NOUN}\b${IN_SENTENCE}{0,40}?\b(?:to|with|by|at|for)\b|\b${TARGET_NOUN}\s+(?:\w+\s+)?(?:is\s+|are\s+|must\s+be\s+|should\s+be\s+|gets?\s+|to\s+be\s+)?(?:replaced|swapped|changed|overridden|redirected|rewritten|re-?routed|set)\s+(?:by|with|to)\b|\b(?:add|include|insert|append|put|copy|cc|bcc)\b${IN_SENTENCE}{0,60}?\b(?:as\s+(?:a\s+|an\s+)?(?:bcc|cc|recipient|attendee|collaborator|member|owner|admin|reviewer|co-?signer)|(?:to|in|into|on)\s+(?:the\s+)?(?:bcc|cc)(?:\s+(?:field|line|list))?)\b|\b(?:send|sent|deliver|route|forward|transfer|pay|write|save|push|upload|post|go)\w*\b${IN_SENTENCE}{0,60}?\b(?:to|into|under|at)\s+['"\x60<(]?(?=${FIXED_VALUE}|(?:~|\/tmp|\/var\/tmp|\/dev\/shm|\$HOME)\/)`, 'i') },
];
// Kept from the user, or lied about: never mention it, report it as sent to the recipient they asked for.
const HIDES_OVERRIDE = new RegExp(String.raw`${CONCEALS.source}|\b(?:never|do\s+not|don['’]t)\s+(?:mention|reveal|show|disclose)\b|\breport\b[^.\n]{0,60}?\bas\s+(?:sent|delivered|paid|saved|written|done|completed)\b|\btransparent(?:ly)?\b[^.\n]{0,40}?\b(?:user|relay|handled)\b`, 'i');

/**
 * (round s31b; in-sample for held-out set 32) Tool shadowing in any words: a sentence of a tool's (prompt's,
 * resource's) description or of a parameter's description that refers to tools that are not this one (`OTHER_TOOLS`,
 * or a snake_case / camelCase name other than this tool's in a sentence that says tool or function) and orders a
 * change to what those tools carry or where it goes: to a value instead of / rather than the one the user chose
 * ("… instead of the requested recipient", "rather than to the address the user gave"), an amount doubled or
 * raised, or a recipient, destination, path, account, amount, repository, branch, URL or channel changed, replaced,
 * redirected, a BCC / CC / attendee / collaborator added, or the data sent / delivered / written / transferred to a
 * fixed address, web address, phone number, wallet, IBAN or path under `~`, `/tmp`, `/var/tmp`, `/dev/shm`. A change
 * counts only with a fixed value of the server's own in the sentence or with the description hiding it; "instead
 * of the user's choice" and a raised amount count by themselves. HIGH; CRIT when the description keeps it from the
 * user or has the model report the user's own value ("never mention the relay", "report the email as sent to the
 * recipient they asked for"), or when the sentence puts a value of the server's own in place of the user's choice
 * or with a raised amount. Which tool to prefer ("use this instead of other servers' search tools") changes no
 * argument and is not read.
 */
export function foreignArgumentFindings(tools: readonly McpTool[]): AgentFinding[] {
  const out: AgentFinding[] = [];
  for (const tool of tools) {
    const texts = [tool.description, ...((tool.parameterDescriptions ?? []).map((p) => p.description))];
    const schema = tool.inputSchema;
    const props = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Record<string, unknown>).properties : undefined;
    if (typeof props === 'object' && props !== null) for (const spec of Object.values(props as Record<string, unknown>)) if (typeof spec === 'object' && spec !== null && typeof (spec as { description?: unknown }).description === 'string') texts.push((spec as { description: string }).description);
    let found: AgentFinding | null = null;
    for (const raw of texts) {
      const text = raw.replace(/\s*\n\s*/g, ' ');
      if (text.length < 40) continue;
      const hidden = HIDES_OVERRIDE.exec(text);
      for (const sentence of text.split(/(?<=[.!?;])\s+(?=[A-Z<"'`(])/)) {
        const other = OTHER_TOOLS.exec(sentence) ?? (TOOL_WORD.test(sentence) ? [...sentence.matchAll(IDENTIFIER)].find((m) => m[0] !== tool.name) ?? null : null);
        if (other === null) continue;
        const own = OWN_VALUE.test(sentence);
        for (const o of OVERRIDES) {
          const hit = o.re.exec(sentence);
          if (hit === null) continue;
          if (o.kind === 'change' && !own && hidden === null) continue;
          // The user's own choice (or amount) replaced by a value of the server's: a redirection, not a format rule.
          const redirects = own && OVERRIDES.some((x) => x.kind !== 'change' && x.re.test(sentence));
          const crit = hidden !== null || redirects;
          found = referenceFinding({
            category: 'tool_poisoning',
            severity: crit ? 'CRIT' : 'HIGH',
            title: crit ? 'description redirects other servers’ tools to its own values or hides the change (tool shadowing)' : 'description changes what other servers’ tools send or where (tool shadowing)',
            file: tool.file,
            line: tool.descriptionLine,
            evidence: `${tool.name} → ${other[0]}: ${sentence.slice(0, 240)}${hidden !== null ? ` … ${hidden[0]}` : ''}`.slice(0, 300),
          });
          break;
        }
        if (found !== null) break;
      }
      if (found !== null) break;
    }
    if (found !== null) out.push(found);
  }
  return out;
}
