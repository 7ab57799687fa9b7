/**
 * A wallet's signing secret put into a network request. A wallet signs locally and sends signed
 * transactions; its private key or seed phrase never has a reason to leave the machine, whatever the
 * request is dressed as ("session auth" header, a "price feed" query). Crypto-trading skills that
 * asked for the key and sent it this way were the ClawHub wallet stealers (Koi, SlowMist, Snyk, 2026).
 * The key usually arrives from the skill's own configuration (`cfg["secret"]`), written by a setup
 * script the document has the agent run, so the read is by field name, and followed through
 * assignments that only carry it (encode, serialize, wrap in a dict) — a value computed from it by a
 * signer (`Keypair.from_base58_string(cfg["secret"])`) is a signature, not the key.
 */

// A field holding a signing secret, read from a mapping or an object: `cfg["secret"]`, `c.get('private_key')`, `cfg.mnemonic`.
const FIELD = String.raw`(?:secret(?:_?key)?|private_?key|priv_?key|mnemonic|seed(?:_?phrase)?|recovery_?phrase|keypair|signer_?key|wallet_?key|secretKey|privateKey|seedPhrase|walletKey)`;
const SECRET_ACCESS = new RegExp(String.raw`\[\s*["']${FIELD}["']\s*\]|\.get\(\s*["']${FIELD}["']|(?<![\w$])(?:cfg|conf|config|settings|opts|options|wallet|account|creds|credentials|data|env|keys?|self\.\w+|this\.\w+)\.${FIELD}\b`, 'i');
// Fields that are a wallet's and nothing else's: no context needed.
const WALLET_ONLY_FIELD = /mnemonic|seed|recovery/i;
// Calls that carry a value without consuming it.
const CARRIER = /^(?:b64encode|urlsafe_b64encode|b32encode|b85encode|encode|decode|dumps|stringify|str|bytes|hex|hexlify|format|quote|quote_plus|urlencode|from|toString|btoa|dict|list|tuple|join|strip|trim|get|String|encodeURIComponent)$/;

/** Whether an expression carries the secret: it names it (or a carrier of it) and calls nothing but carriers. */
function carries(rhs: string, tainted: readonly RegExp[]): boolean {
  if (!SECRET_ACCESS.test(rhs) && !tainted.some((t) => t.test(rhs))) return false;
  for (const m of rhs.matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)) if (!CARRIER.test(m[1]!)) return false;
  return true;
}

/**
 * The first network call (by its 1-based line) whose arguments, on that line or the few after it, hold a
 * signing-secret field or a name assigned from one, with the field's name; null when there is none.
 */
export function signingSecretSent(text: string, networkLines: ReadonlySet<number>): { line: number; evidence: string; field: string } | null {
  if (networkLines.size === 0 || text.length > 256 * 1024 || !SECRET_ACCESS.test(text)) return null;
  const lines = text.split('\n');
  const tainted: RegExp[] = [];
  let field = '';
  // Two passes: a carrier assigned in a method may be used by one defined above it.
  for (let pass = 0; pass < 2; pass++) {
    for (const line of lines) {
      const m = /^\s*(?:(?:const|let|var)\s+)?((?:self\.|this\.)?[A-Za-z_$][\w$]*)\s*(?::\s*[\w[\], ]+)?=(?!=)\s*(.+)$/.exec(line);
      if (m === null || !carries(m[2]!, tainted)) continue;
      field ||= SECRET_ACCESS.exec(m[2]!)?.[0] ?? '';
      const name = m[1]!.replace(/[.$]/g, '\\$&');
      if (!tainted.some((t) => t.source.includes(name))) tainted.push(new RegExp(`(?<![\\w$.])${name}\\b`));
    }
  }
  for (const at of [...networkLines].sort((a, b) => a - b)) {
    // The call's own lines: from its line until its parentheses close (at most six lines).
    let call = '';
    let depth = 0;
    for (let i = at - 1; i < Math.min(lines.length, at + 5); i++) {
      call += `${lines[i]}\n`;
      depth += (lines[i]!.match(/[([{]/g) ?? []).length - (lines[i]!.match(/[)\]}]/g) ?? []).length;
      if (depth <= 0) break;
    }
    const direct = SECRET_ACCESS.exec(call);
    if (direct === null && !tainted.some((t) => t.test(call))) continue;
    return { line: at, evidence: (lines[at - 1] ?? '').trim().slice(0, 200), field: direct?.[0] ?? field };
  }
  return null;
}

/** The skill is about a crypto wallet and its signing secret, so a `secret` field is that secret. */
export function walletContext(texts: readonly string[]): boolean {
  return texts.some((t) => /\b(?:wallet|solana|ethereum|bitcoin|web3|metamask|phantom|base58|bip-?39|lamports|evm)\b/i.test(t)) && texts.some((t) => /\b(?:private\s+key|secret\s+key|seed\s+phrase|mnemonic|recovery\s+phrase|keypair)\b/i.test(t));
}

/** A field that only a wallet has (a mnemonic, a seed or recovery phrase). */
export function walletOnlyField(field: string): boolean {
  return WALLET_ONLY_FIELD.test(field);
}
