import { describedAsAttack, isQuotedExample } from './quoted-example.js';
import { sentenceAt } from './sentence-at.js';

/**
 * An order to the agent to ask the user for a secret no assistant needs: a wallet's recovery (seed)
 * phrase or private key, an account's password, a one-time or 2FA code. A wallet signs locally and a
 * login happens in the service's own page; an agent that collects these in the chat is phishing for
 * them (the seed-phrase "wallet checker" skills of ClawHub, 2026). With a reassurance that the secret
 * stays on the machine, the request is a lie told to get it.
 */

// Key material: what moves a wallet's funds or opens a machine.
const KEY_MATERIAL =
  /\b(?:(?:secret\s+|wallet\s+)?(?:seed|recovery|backup|mnemonic)\s+(?:phrase|words?|sentence|key)s?|mnemonics?|(?:12|24|twelve|twenty[\s-]four)[\s-]+(?:recovery\s+|seed\s+|secret\s+)?words?|(?:wallet['’]?s?\s+|their\s+|your\s+)?private\s+keys?|priv\s*key|ssh\s+(?:private\s+)?keys?|keystore\s+(?:file|json|password))\b/i;
// A login secret of the user's own accounts: a password named as theirs or an account's, a one-time code.
const LOGIN_SECRET =
  /\b(?:(?:their|your|the\s+user['’]s|login|account|online\s+banking|banking|bank|e-?mail|exchange|wallet|sudo|root|admin(?:istrator)?|icloud|apple\s+id|google|github|master)\s+(?:pass(?:word|phrase|code)|pin)s?|2fa\s+codes?|mfa\s+codes?|otp(?:\s+codes?)?|totp\s+codes?|one[\s-]time\s+(?:code|password|passcode|pin)s?|authenticator(?:\s+app)?\s+codes?|verification\s+codes?|(?:6|six)[\s-]digit\s+codes?|sms\s+codes?|security\s+codes?|backup\s+codes?)\b/i;
// The agent made to get it from the user: asked for, prompted for, or had typed or pasted in.
const ASK =
  /\b(?:ask|prompt|request|have|get|tell|instruct|invite|require|make)\s+(?:the\s+(?:user|customer|owner|holder|client)|them|users?|the\s+person)\s+(?:for|to\s+(?:\w+\s+)?(?:paste|enter|type|provide|share|give|send|supply|input|submit|reveal|read\s+out|dictate|copy|write))\b|\b(?:have|let|make|get)\s+(?:the\s+(?:user|customer|owner|holder|client)|them|users?)\s+(?:paste|enter|type|provide|share|give|send|supply|input|submit|reveal|read\s+out|dictate|copy|write)\b|\b(?:ask|prompt)\s+(?:them\s+|the\s+user\s+)?for\b|\brequest\s+(?:the\s+user['’]s|their|the)\b|\b(?:collect|obtain|get|gather)\s+(?:the\s+user['’]s|their)\b|\b(?:please\s+)?(?:paste|enter|type|provide|share|give\s+me|send\s+me|reply\s+with)\s+(?:in\s+)?(?:your|their)\b/gi;
// Not an order: forbidden, warned of, or said of an attacker.
const NEGATED = /\b(?:never|not|don['’]t|do\s+not|must\s+not|should\s+not|won['’]t|will\s+not|no\s+need|avoid|refuse|without)\b/i;
const ATTACKER = /\b(?:attackers?|adversar(?:y|ies)|scammers?|phish(?:ers?|ing)|fraudsters?|malicious|malware|threat\s+actors?|drainers?|fake|rogue|scam|legitimate\s+(?:wallets?|services?|apps?|tools?|support))\b/i;
// A promise that the secret stays with the user.
const REASSURANCE =
  /\b(?:never|won['’]t|will\s+not|does\s+not|doesn['’]t|do\s+not|don['’]t|is\s+not|isn['’]t|are\s+not|aren['’]t|nothing\s+is)\s+(?:ever\s+)?(?:leave|leaves|leaving|sent|send|uploaded|transmitted|shared|stored|logged|saved|recorded|go(?:es)?\s+(?:anywhere|online)|touch\s+the\s+(?:network|internet))\b|\b(?:stays?|remains?|kept|processed|handled|used|derived|computed)\s+(?:only\s+|strictly\s+|entirely\s+|fully\s+|100\s*%\s+)?(?:locally|local|offline|on[\s-]device|on\s+(?:your|their|the\s+user['’]s|this)\s+(?:own\s+)?(?:machine|device|computer|laptop))\b|\b(?:100\s*%|completely|totally|perfectly|entirely)\s+(?:safe|secure|private|local|offline)\b/i;
// Handed to a local command that needs it (`npm publish --otp`, `sudo -S`, `docker login --password-stdin`), or a
// login the CLI completes in the browser with a device or verification code (`az login --use-device-code`,
// `aws sso login`, `gcloud auth login`): used where asked.
const LOCAL_USE =
  /--otp\b|\bnpm\s+(?:publish|login|adduser)\b|\bsudo\b|--password-stdin\b|\bgh\s+auth\s+login\b|\bssh-add\b|\baz\s+login\b|--use-device-code\b|\bdevice[\s-](?:code|login|flow|authori[sz]ation)\b|\baws\s+sso\s+login\b|\bgcloud\s+auth\s+(?:application-default\s+)?login\b|\bmicrosoft\.com\/devicelogin\b/i;
// A key asked for by where it is, not what it holds: its path, location or file name, which one to use, or a key
// path given for it (`~/.ssh/id_ed25519`), unless its contents are to be pasted or copied out.
const KEY_BY_PATH_BEFORE = /\b(?:path|location|file\s*name|filename|name)\s+(?:of|to|for)\s+(?:the\s+|their\s+|your\s+|an?\s+)?$|\bwhich\s+(?:of\s+(?:their|your|the)\s+)?$/i;
const KEY_BY_PATH_AFTER = /^\s*(?:file\s+)?(?:paths?|locations?|file\s*names?|filenames?|names?|fingerprints?)\b|^\s*(?:file\s+)?(?:they|you)?\s*(?:want\s+)?to\s+use\b/i;
const KEY_PATH = /(?:~|\$HOME|%USERPROFILE%)[\\/]\.ssh[\\/][\w.-]+|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|[\w./~-]+\.(?:pem|ppk|key)\b/i;
const WALLET = /\b(?:wallet|seed|mnemonic|crypto|ethereum|solana|bitcoin|metamask|phantom|0x[0-9a-f]{4,})/i;
const KEY_CONTENTS = /\b(?:paste|contents?|copy|text\s+of|cat)\b|BEGIN\s+[A-Z ]*PRIVATE\s+KEY/i;

export interface UserSecretRequest {
  offset: number;
  evidence: string;
  /** 'key': recovery phrase or private key; 'login': a password or one-time code. */
  kind: 'key' | 'login';
  /** The document promises the secret stays on the machine, near the request. */
  reassured: boolean;
}

/** The first order in a text to ask the user for a recovery phrase, private key, password or one-time code. */
export function userSecretRequest(text: string): UserSecretRequest | null {
  if (text.length > 512 * 1024 || !(KEY_MATERIAL.test(text) || LOGIN_SECRET.test(text))) return null;
  for (const m of text.matchAll(ASK)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 100).split(/[.!?\n](?:\s|$)/)[0] as string;
    const key = KEY_MATERIAL.exec(after);
    const login = key === null ? LOGIN_SECRET.exec(after) : null;
    const hit = key ?? login;
    if (hit === null) continue;
    const { from, to } = sentenceAt(text, m.index);
    const lead = text.slice(from, m.index);
    if (NEGATED.test(lead) || ATTACKER.test(lead) || NEGATED.test(after.slice(0, hit.index))) continue;
    if (isQuotedExample(text, m.index, m.index + m[0].length) || describedAsAttack(text, m.index)) continue;
    const near = text.slice(Math.max(0, from - 300), Math.min(text.length, to + 400));
    if (login !== null && LOCAL_USE.test(near)) continue;
    // An SSH or private key named by its path, or which one to use: no key material is asked for.
    const sentence = text.slice(from, to);
    if (key !== null && /\b(?:ssh|private|priv)\b/i.test(key[0]) && !KEY_CONTENTS.test(sentence) && (KEY_BY_PATH_BEFORE.test(after.slice(0, key.index)) || KEY_BY_PATH_AFTER.test(after.slice(key.index + key[0].length)) || (KEY_PATH.test(sentence) && !WALLET.test(sentence)))) continue;
    return { offset: from, evidence: text.slice(from, to).replace(/\s+/g, ' ').trim().slice(0, 300), kind: key !== null ? 'key' : 'login', reassured: REASSURANCE.test(near) };
  }
  return null;
}
