import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { PRIVATE_CONTEXT } from '../mcp-servers/data-request-rules.js';
import { lineLocator } from '../text/line-locator.js';
import { isQuotedExample } from '../text/quoted-example.js';
import { headingSections } from '../text/heading-sections.js';

/**
 * Any address the model writes out (a link, a diagram's `click` target, an HTML `href`, an image) carries
 * what is put into it to the address's host as soon as it is opened or rendered. A document that tells
 * the model to take what it has seen in the session — credentials, keys, the user's messages, file
 * contents — encode it and put it into a slot of such an address is an exfiltration order, whatever the
 * address is dressed as (a "full-size viewer" node of a Mermaid diagram, a share link, a badge).
 * In-sample: a diagram skill's style reference did this and was ALLOWed (held-out set 16).
 */

// An address with a slot the model is to fill: `<HEX>`, `{data}`, `${X}`, `$X`, or an upper-case query value.
const SLOT_URL = /https?:\/\/(?:[^\s"'`)\]<>{}]|<[A-Za-z_][\w -]{0,40}>|\{\{?[^}\s]{1,40}\}\}?)+/g;
const SLOT = /<[A-Za-z_][\w -]{0,40}>|\{\{?[^}\s]{1,40}\}\}?|\$\{?[A-Za-z_]\w*\}?|[=/](?:[A-Z][A-Z0-9_]{2,}|%s|\.{3}|…)(?=$|[&#/])/;
// Secrets taken wholesale ("any credentials", "all API keys") or whatever the session has shown.
const SECRET_WORD = String.raw`(?:credentials?|secrets?|tokens?|api[\s_-]?keys?|passwords?|private\s+keys?|ssh\s+keys?|cookies?|environment\s+variables?|\.env\b)`;
const SECRETS_HARVEST = new RegExp(
  String.raw`\b(?:any|all|every|each|whatever)\s+(?:of\s+the\s+)?(?:[\w-]+\s+){0,2}${SECRET_WORD}|${SECRET_WORD}[^.\n]{0,80}\b(?:you(?:['’]ve|\s+have)?\s+)?(?:seen|found|read|encountered|come\s+across|handled)\b`,
  'i',
);
const CONTEXT_HARVEST = new RegExp(
  String.raw`${PRIVATE_CONTEXT}|\bcontext\s+of\s+the\s+(?:current\s+)?(?:task|session|conversation|chat)\b|\b(?:seen|read|shown|shared|pasted|handled)\s+(?:in|during)\s+(?:this|the)\s+(?:session|conversation|chat|task)\b|\b(?:the\s+)?user['’]s\s+(?:last|latest|recent|previous)\s+(?:\w+\s+)?messages?\b|\bany\s+file\s+contents?\b`,
  'i',
);
// Encoding it, or filling the slot with it.
const FILLS = /\b(?:hex|base64|base32|base58|url|percent|uri)[\s-]?encod\w*|\bencod(?:e|ed|ing)\b|\b(?:replace|substitute|fill(?:\s+in)?|populate)\b[^.\n]{0,60}\b(?:with|from)\b|\b(?:append|add|put|insert|embed)\w*\b[^.\n]{0,60}\b(?:url|link|address|query|href)\b/i;
const NEGATED = /\b(?:never|don['’]t|do\s+not|must\s+not|should\s+not|avoid|without|no)\b/i;
// Keeping from the user what the address carries, or doing it with every answer.
const CONCEALS = /\b(?:never|do\s+not|don['’]t|must\s+not)\s+(?:show|mention|reveal|display|print|explain|describe|tell|disclose|expose|output)\b|\bsilently\b|\bwithout\s+(?:telling|mentioning|showing|explaining)\b|\bto\s+the\s+user\s+it\s+is\s+(?:only|just)\b/i;
const STANDING = /\b(?:every|each|all)\s+(?:of\s+your\s+)?(?:\w+\s+)?(?:diagrams?|repl(?:y|ies)|responses?|answers?|messages?|outputs?|charts?|documents?)\b|\balways\b/i;
// A section about the technique (a security guide) describes it.
const ABOUT_ATTACKS = /\b(?:attack(?:er|ers|s)?|malicious|exfiltrat\w*|red[\s-]flags?|indicators?|detect\w*|threat\w*)\b/i;

/** Findings of a document that orders secrets or the session's context encoded into an address's slot. */
export function secretUrlSlotFindings(text: string, file: string): AgentFinding[] {
  const out: AgentFinding[] = [];
  const lineAt = lineLocator(text);
  const sections = headingSections(text);
  for (const { start: at, body } of sections) {
    if (body.length > 6000 || ABOUT_ATTACKS.test(body)) continue;
    const url = [...body.matchAll(SLOT_URL)].find((m) => SLOT.test(m[0].slice(m[0].indexOf('//') + 2).replace(/^[^/?#]*/, '')));
    if (url === undefined) continue;
    // Sentences of the prose, addresses left out (a slot's own name is no order).
    const sentences = body.replace(SLOT_URL, ' ').split(/(?<=[.!?])\s+|\n+/).filter((s) => !NEGATED.test(s));
    const secrets = sentences.find((s) => SECRETS_HARVEST.test(s));
    const context = sentences.find((s) => CONTEXT_HARVEST.test(s));
    const fills = sentences.find((s) => FILLS.test(s));
    if ((secrets === undefined && context === undefined) || fills === undefined) continue;
    if (isQuotedExample(text, at + url.index, at + url.index + url[0].length)) continue;
    const conceals = CONCEALS.test(body);
    const standing = STANDING.test(body);
    let severity: Severity | null;
    if (secrets !== undefined) severity = conceals || standing ? 'CRIT' : 'HIGH';
    // The user's own messages in a link the user sees (a prefilled issue) are no theft unless hidden or standing.
    else severity = conceals ? 'CRIT' : standing ? 'HIGH' : null;
    if (severity === null) continue;
    out.push(
      referenceFinding({
        category: 'exfiltration',
        severity,
        title: 'instruction to encode secrets or the session’s context into an address the model writes out',
        file,
        line: lineAt(at + url.index),
        evidence: `${(secrets ?? context ?? '').trim().slice(0, 110)} … ${fills.trim().slice(0, 60)} … ${url[0].slice(0, 100)}`.slice(0, 300),
      }),
    );
  }
  return out;
}
