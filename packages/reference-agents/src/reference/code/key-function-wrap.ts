import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';

/**
 * A package that replaces another library's key constructors (eth_account `Account.create`/`from_key`,
 * ethers `Wallet.createRandom`/`fromMnemonic`, solana `Keypair.generate`, paramiko/cryptography key
 * loaders) with wrappers that read the private key of what they return and send it out — over HTTP, a
 * socket, DNS, or as the data of a chain transaction (set-utils on PyPI, Socket, March 2025). Every key
 * the victim's own code makes then leaves, whatever the package's own functions do. Three things in
 * one file: the patch of an imported library's attribute, a key read (`.key`, `private_key`,
 * `mnemonic`), and a send. A test fixture that patches `Account.create` to return a fixed key sends
 * nothing; a retry wrapper patched over `requests` touches no key.
 */
const KEY_CONSTRUCTOR = /\b(?:from_key|from_mnemonic|create_with_mnemonic|from_private_key|generate_private_key|load_pem_private_key|privateKeyToAccount|mnemonicToAccount|createRandom|fromMnemonic|fromPhrase|fromSecretKey|fromSeed|Keypair|SigningKey|PrivateKey|HDKey|Wallet|Account)\b/;
/** The patch: `setattr(X, name, wrap(…))`, `X.name = wrap(…)`, `X.prototype.name = function`, where X is imported. */
// The wrapper may be given the original directly (`X.n = wrap(X.n)`) or through a name saved first
// (`_orig = X.n` … `X.n = staticmethod(wrap(_orig))`); the check below wants the original kept either way.
const PY_PATCH = /\bsetattr\(\s*([A-Za-z_]\w*)\s*,[^,\n]+,\s*[A-Za-z_]\w*\s*\(|^[ \t]*([A-Za-z_]\w*)\.(\w+)\s*=\s*(?:(?:staticmethod|classmethod)\s*\(\s*)?[A-Za-z_]\w*\s*\(/gm;
const JS_PATCH = /(?<![\w$.])([A-Za-z_$][\w$]*)(?:\.prototype)?\.(\w+)\s*=\s*(?:[A-Za-z_$][\w$]*\s*\(\s*\1\b|(?:async\s+)?function\b|(?:async\s*)?\([^)]*\)\s*=>)/g;
// Also a keypair turned into its bytes (`bytes(kp)`, `kp.to_bytes()`, `kp.secret()`: solders' Keypair is its 64 secret bytes).
const KEY_READ = /\.(?:key|private_key|privateKey|secret_key|secretKey|mnemonic|phrase|seed)\b|\bexport_key\(|\bprivate_bytes\(|\bto_string\(\)|\.(?:secret|to_bytes|to_bytes_array)\(\)|\bbytes\(\s*\w*(?:kp|key|pair|wallet|acct|account|signer)\w*\s*\)/;
const SEND = /\bsend_raw_transaction\b|\bsendRawTransaction\b|\bsendTransaction\b|\bsend_transaction\b|\brequests\.(?:post|get|put)\b|\burlopen\b|\bhttpx\.|\baiohttp\b|\bsocket\.|\bgethostbyname\b|\bgetaddrinfo\b|\bdns\.resolver\b|\bsmtplib\b|\bfetch\s*\(|\baxios\b|\bhttps?\.request\b|\bdns\.(?:lookup|resolve\w*)\b/;

function importedPython(text: string, name: string): boolean {
  return new RegExp(String.raw`^\s*from\s+[A-Za-z_][\w.]*\s+import\s+[^\n]*\b\w+\s+as\s+${name}\b|^\s*from\s+[A-Za-z_][\w.]*\s+import\s+[^\n]*\b${name}\b|^\s*import\s+[\w.]+\s+as\s+${name}\b|^\s*import\s+${name}\b`, 'm').test(text);
}

function importedJs(text: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  // A package import, not a relative one: the library is someone else's.
  return new RegExp(String.raw`import\s*(?:\{[^}]*\b${n}\b[^}]*\}|${n}|\*\s+as\s+${n})\s*from\s*['"][^.'"][^'"]*['"]|(?:const|let|var)\s*(?:\{[^}]*\b${n}\b[^}]*\}|${n})\s*=\s*require\(\s*['"][^.'"]`).test(text);
}

export function keyFunctionWrapFinding(file: string, text: string, language: 'javascript' | 'python'): AgentFinding | null {
  if (!KEY_CONSTRUCTOR.test(text) || !KEY_READ.test(text) || !SEND.test(text)) return null;
  const re = language === 'python' ? PY_PATCH : JS_PATCH;
  for (const m of text.matchAll(re)) {
    const target = m[1] ?? m[2]!;
    if (!(language === 'python' ? importedPython(text, target) : importedJs(text, target))) continue;
    // The patched object is a key library's: its import or the patched names say so.
    const near = text.slice(Math.max(0, m.index - 300), m.index + m[0].length + 100);
    const importLine = new RegExp(String.raw`^[^\n]*\b(?:import|require)\b[^\n]*\b${target.replace(/\$/g, '\\$')}\b[^\n]*$`, 'm').exec(text)?.[0] ?? '';
    const named = language === 'python' ? KEY_CONSTRUCTOR.test(near) : KEY_CONSTRUCTOR.test(`${m[2] ?? ''}`);
    if (!named && !/eth_account|ethers|web3|solana|bitcoin|bip32|bip39|ecdsa|nacl|paramiko|cryptography|tronweb|wallet/i.test(importLine)) continue;
    // A wrapper keeps the original and calls it (`setattr(A, n, wrap(getattr(A, n)))`, `const orig = W.createRandom`):
    // a stub that replaces the constructor outright (a test fixture's fixed key) forwards nothing.
    const t = target.replace(/\$/g, '\\$');
    const keeps = language === 'python'
      ? new RegExp(String.raw`getattr\(\s*${t}\s*,|\b${t}\.\w+\s*\)`).test(m[0] + text.slice(m.index + m[0].length, m.index + m[0].length + 120).split('\n')[0]!) ||
        (m[3] !== undefined && new RegExp(String.raw`^[ \t]*[A-Za-z_]\w*\s*=\s*${t}\.${m[3]}\s*$`, 'm').test(text))
      : new RegExp(String.raw`=\s*${t}(?:\.prototype)?\.${m[2] ?? ''}\b(?!\s*=)|\(\s*${t}(?:\.prototype)?\.${m[2] ?? ''}\b`).test(text);
    if (!keeps) continue;
    const line = text.slice(0, m.index).split('\n').length;
    return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: "Replaces another library's key functions with wrappers that read the private key and send it out", file, line, evidence: m[0].trim().slice(0, 100) });
  }
  return null;
}
