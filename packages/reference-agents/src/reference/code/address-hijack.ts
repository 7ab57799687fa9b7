import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { inlineStringTableCalls } from './string-table-calls.js';

/**
 * Browser-side transaction and address hijacking shipped in a library (chalk/debug npm compromise,
 * September 2025): the code replaces the page's `fetch`, `XMLHttpRequest.prototype.open/send`, the
 * wallet provider's `request`/`send` or a signer's `sendTransaction`, and rewrites the crypto addresses
 * it sees to its own — a regular expression for `0x…`/base58/`bc1…` addresses, the nearest address by
 * string distance (Levenshtein) from a list of hard-coded ones. Text-based so one-line and minified
 * bundles read the same. A fetch polyfill or an HTTP mock replaces fetch but holds no addresses; a
 * wallet SDK validates addresses but does not replace the page's request functions, and a class that
 * defines its own `sendTransaction` (`Signer.prototype.sendTransaction = function …`) replaces nothing.
 */
const HOOK = /(?:\b(?:window|globalThis|self|global)|(?<![\w$.])[\w$]{1,2})\.fetch\s*=(?![=>])|XMLHttpRequest\.prototype\.(?:open|send|setRequestHeader)\s*=(?!=)|\b(?:ethereum|solana|tronWeb|tronLink|phantom\.solana)\.(?:request|send|sendAsync|enable|signTransaction|signAndSendTransaction)\s*=(?!=)|(?<!\bprototype|\b_?proto)\.(?:sendTransaction|signTransaction|signAndSendTransaction|signAllTransactions)\s*=(?!=)|defineProperty\(\s*(?:window|globalThis|[\w$]{1,2})\s*,\s*['"](?:fetch|ethereum|solana)['"]|new\s+Proxy\(\s*(?:(?:window|globalThis)\.)?(?:fetch|ethereum|XMLHttpRequest)\b/;
/** A regular expression written to find addresses: `0x[a-fA-F0-9]{40}`, base58 (`[1-9A-HJ-NP-Za-km-z]{32,44}`), `bc1[…]`, `[13][a-km-zA-HJ-NP-Z1-9]`. */
const ADDRESS_REGEX = /0x\[a-fA-F0-9\]\{40\}|0x\[0-9a-fA-F\]\{40\}|0x\[a-f0-9\]\{40\}|\[1-9A-HJ-NP-Za-km-z\]\{3\d,4\d\}|bc1\[|\(?bc1\|?\[?|\[13\]\[a-km-zA-HJ-NP-Z1-9\]|T\[1-9A-HJ-NP-Za-km-z\]\{33\}/;
/** A string-distance function: the three-way minimum of an edit-distance table, or its usual names. */
const STRING_DISTANCE = /\blevenshtein\w*|\beditDistance\b|Math\.min\(\s*[\w$.[\]+-]{1,40}?\s*\+\s*1\s*,\s*[\w$.[\]+-]{1,40}?\s*\+\s*1\s*,/i;
/** A wallet call replaced (not the page's fetch): what the user signs passes the replacement. */
const WALLET_HOOK = /\b(?:ethereum|solana|tronWeb|tronLink)\.(?:request|send|sendAsync|signTransaction|signAndSendTransaction)\s*=(?!=)|(?<!\bprototype|\b_?proto)\.(?:sendTransaction|signTransaction|signAndSendTransaction|signAllTransactions)\s*=(?!=)|new\s+Proxy\(\s*(?:(?:window|globalThis)\.)?ethereum\b|defineProperty\(\s*(?:window|globalThis|[\w$]{1,2})\s*,\s*['"](?:ethereum|solana)['"]/;
/** A transaction's recipient overwritten with a constant address or an item of a list. */
const RECIPIENT_REWRITE = /\.(?:to|recipient|toPubkey|destination|receiver|toAddress)\s*=(?!=)\s*(?:['"`](?:0x[a-fA-F0-9]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})['"`]|[\w$]+\s*\[)/;
const HARDCODED = /['"`](0x[a-fA-F0-9]{40}|bc1[a-z0-9]{39,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|T[1-9A-HJ-NP-Za-km-z]{33})['"`]/g;

export function addressHijackFinding(file: string, text: string): AgentFinding | null {
  const direct = hijackIn(file, text, false);
  if (direct !== null || text.length > 4_000_000) return direct;
  // The drainer's strings behind an obfuscator's encoded string table: read them back and look again.
  const inlined = inlineStringTableCalls(text);
  return inlined === null ? null : hijackIn(file, inlined, true);
}

function hijackIn(file: string, text: string, decoded: boolean): AgentFinding | null {
  const hook = HOOK.exec(text);
  if (hook === null) return null;
  const regex = ADDRESS_REGEX.test(text);
  const distance = STRING_DISTANCE.test(text);
  const addresses = new Set([...text.matchAll(HARDCODED)].map((m) => m[1]!));
  // Either address-finding machinery (a pattern, a string distance) beside a list of addresses, or a wallet
  // call replaced by one that overwrites the recipient with an address the code holds.
  const swaps = (regex || distance) && (addresses.size >= 3 || (distance && regex));
  const held = addresses.size + (/['"`][1-9A-HJ-NP-Za-km-z]{32,44}['"`]/.test(text) ? 1 : 0);
  const redirects = held >= 1 && WALLET_HOOK.test(text) && RECIPIENT_REWRITE.test(text);
  if (!swaps && !redirects) return null;
  const line = text.slice(0, hook.index).split('\n').length;
  const how = [regex ? 'an address pattern' : '', distance ? 'a string-distance match' : '', addresses.size > 0 ? `${addresses.size} hard-coded addresses` : ''].filter(Boolean).join(', ');
  return referenceFinding({ category: 'malware', severity: 'CRIT', title: 'Intercepts browser requests or wallet calls and rewrites crypto addresses', file, line, evidence: `${text.slice(hook.index, hook.index + 60).replace(/\s+/g, ' ')} … ${how}${decoded ? ' (strings read from an encoded string table)' : ''}` });
}
