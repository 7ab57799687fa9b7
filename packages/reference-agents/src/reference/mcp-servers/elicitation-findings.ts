import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { SENDS_ANSWER, answerReaches, argumentsAt } from './answer-flows.js';

/**
 * Elicitation phishing: a server asking the user, through the client's elicitation form
 * (`server.elicitInput(…)`, `ctx.elicit(…)`, `session.elicit(…)`, `elicitation/create`), for a
 * secret it has no use for — a wallet's recovery phrase, a private or SSH key, a password, a
 * one-time code, another service's API key. The form is shown as the client's own; the user types
 * the secret into the server (the MCP specification, 2025-06-18: "Servers MUST NOT use elicitation
 * to request sensitive information"). A preference, a confirmation, or the server's own service key
 * kept locally are what elicitation is for.
 */

// The request: the SDKs' calls and the raw JSON-RPC method.
const ELICIT_CALL = /\belicitInput\s*\(|\.\s*elicit(?:_\w+)?\s*\(|['"`]elicitation\/create['"`]/g;
// What can be phished: grouped by what a server could ever need it for.
const KEY_MATERIAL = /\b(?:(?:secret\s+)?(?:seed|recovery|backup|mnemonic)\s+(?:phrase|words?|sentence)|mnemonic|(?:12|24|twelve|twenty[\s-]four)[\s-]+words?|private\s+keys?|priv\s*key|ssh\s+(?:private\s+)?keys?|id_(?:rsa|ed25519|ecdsa)|keystore(?:\s+(?:file|json|password))?)\b/i;
const LOGIN_SECRET = /\b(?:pass(?:word|phrase|code)s?|2fa|mfa|otp|totp|one[\s-]time\s+(?:code|password|passcode|pin)|authenticator(?:\s+app)?\s+code|verification\s+code|(?:6|six)[\s-]digit\s+code|security\s+code|sms\s+code|backup\s+codes?|pin\s+code)\b/i;
// Another service's key: named by its vendor. The server's own service is the one its code calls.
const VENDOR_KEY = /\b(openai|anthropic|claude|aws|amazon|github|gitlab|stripe|slack|google|gcp|azure|npm|pypi|coinbase|binance|metamask|discord|telegram|twilio|sendgrid|cloudflare|vercel|heroku|digitalocean)\s+(?:api\s+|access\s+|secret\s+|personal\s+access\s+|auth\s+)?(?:keys?|tokens?|secrets?|credentials)\b/i;
// "We will never ask for your seed phrase": a warning, not a request.
const NEGATED = /\b(?:never|not|don['’]t|no|without)\b[^.\n]{0,40}$/i;

/** Words of code identifiers split (`recoveryPhrase`, `otp_code`) so field names read as the words they are. */
function words(s: string): string {
  return s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
}

/** The body of the schema the call names (`schema=Reauth`, `response_type=Creds`, `requestedSchema: SCHEMA`): a class or a constant of the file. */
function schemaBody(text: string, call: string): string {
  const out: string[] = [];
  for (const n of call.matchAll(/\b(?:schema|response_type|requestedSchema|requested_schema)\s*[:=]\s*([A-Za-z_$][\w$]*)/g)) {
    const name = (n[1] as string).replace(/\$/g, '\\$');
    const def = new RegExp(String.raw`(?:^|\n)(?:class\s+${name}\b|[ \t]*(?:export\s+)?(?:(?:const|let|var)\s+)?${name}\s*(?::[^=\n]+)?=(?!=))`).exec(text);
    if (def === null) continue;
    // A class: its indented lines; a constant: what follows, bounded.
    const rest = text.slice(def.index, def.index + 1500);
    const end = /^\n?class\b/.test(rest) ? /\n(?=\S)/.exec(rest.slice(2)) : null;
    out.push(end === null ? rest : rest.slice(0, end.index + 2));
  }
  return out.join('\n');
}

export function elicitationFindings(file: string, text: string): AgentFinding[] {
  if (!/elicit/.test(text)) return [];
  const lineAt = lineLocator(text);
  for (const m of text.matchAll(ELICIT_CALL)) {
    // The call's arguments (the message and an inline schema); for the raw method, what follows it.
    const call = m[0].endsWith('(') ? `${m[0]}${argumentsAt(text, m.index + m[0].length - 1)})` : text.slice(m.index, m.index + 800);
    const raw = `${call}\n${schemaBody(text, call)}`;
    // As written (vendor names: `OpenAI`) and with identifiers split into words.
    const asked = `${raw}\n${words(raw)}`;
    const outside = `${text.slice(0, m.index)}${text.slice(m.index + call.length)}`;
    // The first kind asked for, not in a warning; a vendor's key only when the rest of the code never names that vendor.
    const hit = [KEY_MATERIAL, LOGIN_SECRET, VENDOR_KEY].map((re) => re.exec(asked)).find((h): h is RegExpExecArray => h !== null && !NEGATED.test(asked.slice(Math.max(0, h.index - 40), h.index)) && !ownVendor(h[0], outside));
    if (hit === undefined) continue;
    const kind = KEY_MATERIAL.test(hit[0]) ? 'key' : LOGIN_SECRET.test(hit[0]) ? 'login' : 'vendor';
    const evidence = asked.slice(Math.max(0, hit.index - 60), hit.index + 100).replace(/\s+/g, ' ').trim();
    const sent = answerReaches(text, m.index, SENDS_ANSWER);
    if (sent !== null) {
      // Where it goes: a fixed address written between the request and the send. A login secret sent to a
      // host the configuration names (`${JIRA_URL}/session`), or to the vendor the form names, is a sign-in
      // to the server's own service (HIGH); a recovery phrase or key is CRIT wherever it goes.
      const hosts = [...text.slice(m.index, sent.end).matchAll(/https?:\/\/([\w.-]+)/g)].map((h) => (h[1] as string).toLowerCase());
      const vendor = VENDOR_KEY.exec(asked)?.[1]?.toLowerCase() ?? /\b(github|gitlab|google|microsoft|slack|jira|atlassian|notion|stripe|aws)\b/i.exec(asked)?.[1]?.toLowerCase();
      const foreign = hosts.length > 0 && !hosts.some((h) => vendor !== undefined && h.includes(vendor));
      const severity = kind === 'key' || foreign ? 'CRIT' : 'HIGH';
      return [referenceFinding({ category: 'credential_access', severity, title: 'elicitation asks the user for a secret and sends the answer to the network', file, line: lineAt(m.index), evidence: `${evidence} … ${sent.evidence}` })];
    }
    if (kind === 'key') return [referenceFinding({ category: 'credential_access', severity: 'HIGH', title: 'elicitation asks the user for a recovery phrase or private key', file, line: lineAt(m.index), evidence })];
    return [referenceFinding({ category: 'credential_access', severity: 'MED', title: 'elicitation asks the user for a password, one-time code or another service\'s key', file, line: lineAt(m.index), evidence })];
  }
  return [];
}

/** A vendor's key the server's other code names too (`api.github.com`, `GITHUB_TOKEN`): that vendor is its own service. */
function ownVendor(asked: string, outside: string): boolean {
  const vendor = VENDOR_KEY.exec(asked)?.[1];
  return vendor !== undefined && new RegExp(String.raw`\b${vendor}`, 'i').test(outside);
}
