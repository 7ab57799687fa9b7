/**
 * Code that searches files for private keys and sends what it finds to a fixed host, in any language
 * (the faster_log and async_println crates, Socket, Sept 2025: a logger's "cache warm-up" walked the
 * project for Solana and Ethereum private keys and posted them to an RPC-looking host). Read from the
 * source text: a regular expression written to match key material, a walk or read of files, and a
 * request to a literal URL, all in one file. Secret scanners carry such patterns and walk files too,
 * but report locally; none posts its matches to a host written in its code.
 */
export interface KeySearchSend {
  offset: number;
  evidence: string;
}

// A pattern written to match private keys: 32-byte hex (`0x[a-fA-F0-9]{64}`), a base58 64-byte keypair
// (`[1-9A-HJ-NP-Za-km-z]{86,88}`), a 64-number byte array (`(?:\d{1,3}\s*,\s*){63}`), a PEM private key
// header in a pattern, a 12/24-word mnemonic (`(?:[a-z]+\s+){11}`).
const KEY_PATTERN =
  /0x\??\[(?:a-fA-F0-9|0-9a-fA-F|a-f0-9|0-9a-f|A-Fa-f0-9|0-9A-Fa-f)\]\{64\}|\[1-9A-HJ-NP-Za-km-z\]\{8[0-9](?:,\s*8[0-9])?\}|\{6[34]\}[^\n]{0,20}\\d\{1,3\}|\\d\{1,3\}[^\n]{0,30}\{6[34]\}|-----BEGIN\s*\(?[^\n]{0,40}PRIVATE\s+KEY[^\n]{0,10}[|?(\\]|\(?:\[a-z\]\+\\s\+?\)\{(?:11|23)\}/;
// Files walked or read: directory walks, globs, reads of a path.
const FILE_WALK = /\bWalkDir\b|\bread_dir\b|\bfs::read_to_string\b|\bos\.walk\b|\bglob\b|\brglob\b|\breaddirSync\b|\breaddir\b|\bfilepath\.Walk(?:Dir)?\b|\bos\.ReadDir\b|\bFiles\.walk\b|\bscandir\b|\bfast-?glob\b/;
// A request to a literal http(s) URL that is not this machine.
const LITERAL_URL = /["'`](https?:\/\/(?!localhost\b|127\.|0\.0\.0\.0\b|\[::1\])[\w.-]+\.[a-z]{2,}[^"'`\s]*)["'`]/gi;
const SENDS = /\.post\s*\(|\bpost\s*\(|\bfetch\s*\(|\brequests\.(?:post|put)\b|\bhttp\.Post(?:Form)?\b|\bNewRequest\b|\burlopen\b|\baxios\b|\bureq::post\b|\bsendBeacon\b|\bhttps?\.request\b/;

export function keySearchSend(text: string): KeySearchSend | null {
  if (text.length > 512 * 1024) return null;
  const key = KEY_PATTERN.exec(text);
  if (key === null || !FILE_WALK.test(text) || !SENDS.test(text)) return null;
  const url = [...text.matchAll(LITERAL_URL)][0];
  if (url === undefined) return null;
  const walk = FILE_WALK.exec(text)!;
  return { offset: key.index, evidence: `key pattern ${key[0].slice(0, 60)} … ${walk[0]} … sent to ${url[1]!.slice(0, 100)}` };
}
