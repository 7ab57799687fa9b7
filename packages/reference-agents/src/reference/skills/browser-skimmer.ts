import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';

/**
 * Browser code a skill has the agent put into the pages it builds (a "conversion", "analytics" or
 * "chat" snippet) that reads what the site's visitors type or hold and sends it to another host: a
 * Magecart-style skimmer (Sansec; British Airways 2018). Read on the text, aliases included
 * (`(function (w, d) {…})(window, document)` reads `d.cookie`): three kinds of taking, and an upload
 * to an absolute address that is not this machine. Two kinds with the upload are a skimmer; one alone
 * is what analytics (a cookie id) or a form service (its own form posted to formspree) also does.
 */

// The visitor's session: the cookie jar or a whole web storage, read in one go.
const SESSION_READ = /\.cookie\b(?!\s*=[^=])|\bJSON\.stringify\(\s*(?:\w+\.)?(?:localStorage|sessionStorage)\s*\)|\bObject\.(?:entries|keys|values)\(\s*(?:\w+\.)?(?:localStorage|sessionStorage)\s*\)|\bfor\s*\([^)]*\bin\s+(?:\w+\.)?(?:localStorage|sessionStorage)\s*\)/;
// Fields picked out by what they hold: passwords, card numbers and codes, one-time codes.
const SENSITIVE_FIELDS = /\/[^/\n]*\b(?:pass(?:word)?|card|cc-?(?:num|number)?|cvc|cvv|iban|otp)\b[^/\n]*\/[gimsuy]*\s*\.test\b|\[(?:type|name|autocomplete)\s*[*^$|~]?=\s*["']?(?:password|cc-number|cc-csc|cc-exp|one-time-code|card\w*|cvv|cvc)\b|\b(?:querySelector(?:All)?|getElementsByName|getElementById)\(\s*["'`][^"'`]*\b(?:password|card(?:number)?|cvv|cvc|cc-?number)\b/i;
// Every form or field of the page watched from the top (the document or window, in the capture phase or not).
const PAGE_WIDE_CAPTURE = /\b(?:document|window|d|w|doc|win|self|top|body)\.addEventListener\(\s*["'`](?:submit|change|input|blur|focusout|keyup|keydown|keypress)["'`][\s\S]{0,600}?(?:\.value\b|\.elements\b|new\s+FormData\b)/;
// The upload, to a literal absolute address.
const SENDS = /\b(?:sendBeacon|fetch|XMLHttpRequest|WebSocket|\$\.(?:post|ajax)|axios\.post)\b|\bnew\s+Image\b[\s\S]{0,80}?\.src\s*=/;
const AWAY = /["'`](?:https?:)?\/\/(?!(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])[:/"'`])([\w-]+(?:\.[\w-]+)+)/;

export const SKIMMER_TITLE = 'browser script sends what visitors type or their cookies to another host (skimmer)';

/** The skimmer finding of one JavaScript file, or null. */
export function browserSkimmerFinding(file: string, text: string): AgentFinding | null {
  if (text.length > 512 * 1024 || !SENDS.test(text)) return null;
  const away = AWAY.exec(text);
  if (away === null) return null;
  const kinds = [SESSION_READ.exec(text), SENSITIVE_FIELDS.exec(text), PAGE_WIDE_CAPTURE.exec(text)].filter((m): m is RegExpExecArray => m !== null);
  if (kinds.length < 2) return null;
  const first = kinds.sort((a, b) => a.index - b.index)[0] as RegExpExecArray;
  return referenceFinding({
    category: 'exfiltration',
    severity: 'CRIT',
    title: SKIMMER_TITLE,
    file,
    line: lineLocator(text)(first.index),
    evidence: `${kinds.map((k) => k[0].slice(0, 80).replace(/\s+/g, ' ')).join(' … ')} → ${away[1] as string}`.slice(0, 300),
  });
}
