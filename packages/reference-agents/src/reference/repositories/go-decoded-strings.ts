import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { shellCommandFindings } from './shell-command-findings.js';

/**
 * (round s31b, in-sample for held-out set 32) Go code that hands a shell a command it decodes from constants of its
 * package: a string constant (often split over `"…" +` lines) hex- or base64-decoded at run time and XORed with a
 * byte (`b[i] ^= 0x5a`) or a key string (`b[i] ^ k[i%len(k)]`), then `exec.Command("sh", "-c", string(b))`.
 * Malicious Go modules and repositories of 2025 hid `curl … | bash` so in a `//go:generate` tool, a Makefile
 * target's helper or a library function (go-decoded-tables.ts reads the same done with number tables).
 *
 * The file must start a shell with a command that is not a literal. Then each constant of the file and its
 * package (string literals joined by `+`, byte-slice literals) is decoded the ways the package's code decodes
 * (hex or base64 where it calls those decoders, the raw bytes otherwise) and XORed with each key the package's
 * code XORs with (a constant byte, a constant key string indexed modulo its length), or not at all; a result that
 * reads as a command line (printable, with a space) is given the shell checks. Only what they find serious (a
 * download run, secrets sent) is reported: integer and string arithmetic on constants only, never code.
 */

/** A shell started with a command that is not a literal: `exec.Command("/bin/sh", "-c", s)`. */
const GO_SHELL_DYNAMIC = /\bexec\.Command(?:Context)?\s*\(\s*(?:[\w.]+(?:\(\s*\))?\s*,\s*)?"(?:[\w/.-]*\/)?(?:sh|bash|zsh|dash|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)"\s*,\s*"(?:-c|\/c|\/C|-Command)"\s*,\s*[^")]/;
const MAX_CONSTANTS = 60;
const MAX_BLOB = 4096;
const MAX_KEYS = 12;

/** A Go interpreted string literal's bytes (`\xNN`, `\n`, `\t`, `\\`, `\"`, octal), or a raw string's. */
function goLiteralBytes(literal: string): Buffer {
  if (literal.startsWith('`')) return Buffer.from(literal.slice(1, -1), 'utf8');
  const body = literal.slice(1, -1);
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      for (const b of Buffer.from(c, 'utf8')) out.push(b);
      continue;
    }
    const n = body[++i] ?? '';
    if (n === 'x' && /^[0-9a-fA-F]{2}$/.test(body.slice(i + 1, i + 3))) {
      out.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (/[0-7]/.test(n) && /^[0-7]{3}$/.test(body.slice(i, i + 3))) {
      out.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else out.push(({ n: 10, t: 9, r: 13, '\\': 92, '"': 34, "'": 39, a: 7, b: 8, f: 12, v: 11 } as Record<string, number>)[n] ?? n.charCodeAt(0));
  }
  return Buffer.from(out);
}

/** Constants of the text: runs of string literals joined by `+` (over lines), and `[]byte{…}` literals of byte values. */
function goConstants(text: string): Buffer[] {
  const out: Buffer[] = [];
  // A literal, then any number of `+ literal` (white space and line breaks between): one linear scan.
  const literal = /"(?:[^"\\\n]|\\.)*"|`[^`]*`/g;
  let run: Buffer[] = [];
  let end = -1;
  const flush = () => {
    if (run.length > 0) {
      const joined = Buffer.concat(run);
      if (joined.length >= 8 && joined.length <= MAX_BLOB) out.push(joined);
    }
    run = [];
  };
  for (const m of text.matchAll(literal)) {
    if (out.length >= MAX_CONSTANTS) break;
    const joinedToPrevious = end >= 0 && /^\s*\+\s*$/.test(text.slice(end, m.index));
    if (!joinedToPrevious) flush();
    run.push(goLiteralBytes(m[0]));
    end = m.index + m[0].length;
  }
  flush();
  for (const m of text.matchAll(/\[\](?:byte|uint8)\s*\{([\d\sxXa-fA-F,]{16,20000})\}/g)) {
    if (out.length >= MAX_CONSTANTS) break;
    const values = m[1]!.split(',').map((v) => v.trim()).filter((v) => v !== '').map(Number);
    if (values.length >= 8 && values.length <= MAX_BLOB && values.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) out.push(Buffer.from(values));
  }
  return out;
}

/** The XOR keys the code uses: constant bytes (`^ 0x5a`, `^= 17`) and key constants indexed modulo their length. */
function goXorKeys(text: string, constantOf: (name: string) => Buffer | null): Buffer[] {
  const keys: Buffer[] = [];
  for (const m of text.matchAll(/\^=?\s*(?:byte\s*\(\s*)?(0[xX][0-9a-fA-F]{1,2}|\d{1,3})\b(?!\s*[[(.])/g)) {
    const v = Number(m[1]);
    if (v > 0 && v <= 255 && !keys.some((k) => k.length === 1 && k[0] === v)) keys.push(Buffer.from([v]));
    if (keys.length >= MAX_KEYS) return keys;
  }
  for (const m of text.matchAll(/\^=?\s*(?:byte\s*\(\s*)?(\w+)\s*\[\s*\w+\s*%\s*(?:len\s*\(\s*\w+\s*\)|\d+)\s*\]/g)) {
    const key = constantOf(m[1]!);
    if (key !== null && key.length > 0 && key.length <= 256) keys.push(key);
    if (keys.length >= MAX_KEYS) break;
  }
  return keys;
}

/** The bytes of a named constant: `name = "…" + "…"`, `name := []byte("…")`, `const name = "…"`, `name = []byte{…}`. */
function namedConstant(texts: readonly string[], name: string): Buffer | null {
  const re = new RegExp(String.raw`\b${name}\s*(?:\[\]byte\s*|string\s*)?(?::=|=)\s*(?:\[\]byte\s*\(\s*)?((?:"(?:[^"\\\n]|\\.)*"|\x60[^\x60]*\x60)(?:\s*\+\s*(?:"(?:[^"\\\n]|\\.)*"|\x60[^\x60]*\x60))*)`);
  for (const t of texts) {
    const m = re.exec(t);
    if (m !== null) return Buffer.concat([...m[1]!.matchAll(/"(?:[^"\\\n]|\\.)*"|`[^`]*`/g)].map((l) => goLiteralBytes(l[0])));
    const slice = new RegExp(String.raw`\b${name}\s*(?::=|=)\s*\[\](?:byte|uint8)\s*\{([\d\sxXa-fA-F,]{1,2000})\}`).exec(t);
    if (slice !== null) {
      const values = slice[1]!.split(',').map((v) => v.trim()).filter((v) => v !== '').map(Number);
      if (values.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) return Buffer.from(values);
    }
  }
  return null;
}

const printable = (b: Buffer) => b.length > 0 && [...b].filter((c) => (c >= 0x20 && c < 0x7f) || c === 9 || c === 10).length >= b.length * 0.97;

/** The command lines the constants of the texts decode to through the decoders and XOR keys the texts use. */
export function goDecodedConstants(texts: readonly string[]): string[] {
  const joined = texts.join('\n');
  const hex = /\bhex\.(?:DecodeString|Decode)\s*\(/.test(joined);
  const b64 = /\bbase64\.(?:Std|URL|RawStd|RawURL)Encoding\.(?:DecodeString|Decode)\s*\(/.test(joined);
  const xors = /\^=?\s*[\w(]/.test(joined.replace(/"(?:[^"\\\n]|\\.)*"|`[^`]*`/g, '""'));
  if (!hex && !b64 && !xors) return [];
  const keys = xors ? goXorKeys(joined, (n) => namedConstant(texts, n)) : [];
  const out: string[] = [];
  for (const blob of goConstants(joined)) {
    const text = blob.toString('latin1');
    const decoded: Buffer[] = [blob];
    if (hex && /^(?:[0-9a-fA-F]{2}){4,}$/.test(text)) decoded.push(Buffer.from(text, 'hex'));
    if (b64 && /^[A-Za-z0-9+/_-]{8,}={0,2}$/.test(text) && text.length % 4 !== 1) decoded.push(Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
    for (const d of decoded) {
      const tries = d === blob ? keys.map((k) => xor(d, k)) : [d, ...keys.map((k) => xor(d, k))];
      for (const t of tries) {
        if (!printable(t)) continue;
        const s = t.toString('latin1').trim();
        if (/\s/.test(s) && /^[\w./~$-]/.test(s)) out.push(s);
      }
    }
    if (out.length >= 8) break;
  }
  return out;
}

function xor(data: Buffer, key: Buffer): Buffer {
  const out = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i]! ^ key[i % key.length]!;
  return out;
}

/** Whether the file starts a shell with a command that is not a literal (then its package is worth reading). */
export function goRunsDynamicShell(text: string): boolean {
  return GO_SHELL_DYNAMIC.test(text);
}

/**
 * A Go file that starts a shell with a computed command, when a constant of its package decodes (hex, base64, XOR
 * with the package's keys) to a command line the shell checks find serious: CRIT for the hiding, with those checks'
 * own findings. `generated` names what runs the file by itself (a `//go:generate` directive), for the evidence.
 */
export function goDecodedStringFindings(path: string, text: string, packageTexts: readonly string[], generated: string | null = null): AgentFinding[] {
  const shell = GO_SHELL_DYNAMIC.exec(text);
  if (shell === null || /_test\.go$/.test(path)) return [];
  const line = text.slice(0, shell.index).split('\n').length;
  for (const decoded of goDecodedConstants([text, ...packageTexts])) {
    // A command hidden so is as unambiguous as a build step's: a download run from any host but an official installer's is CRIT.
    const signals = shellCommandFindings(decoded, { file: path, line, where: 'command decoded from constants', automatic: generated !== null, buildStep: true });
    const serious = signals.filter((f) => f.severity === 'CRIT' || f.severity === 'HIGH');
    if (serious.length === 0) continue;
    return [
      referenceFinding({ category: 'obfuscation', severity: 'CRIT', title: 'Go code runs a shell command it decodes from constants (hex, base64 or XOR)', file: path, line, evidence: `${shell[0]}… = ${decoded.slice(0, 200)}${generated === null ? '' : ` (run by ${generated})`}`.slice(0, 300) }),
      ...serious,
    ];
  }
  return [];
}

/**
 * The `//go:generate go run <dir>` directives of a Go file, as repository paths of the package each runs (relative to
 * the file's directory): `go generate ./...`, which READMEs and Makefiles have their readers run, starts those tools.
 */
export function goGenerateRunTargets(path: string, text: string): string[] {
  if (!text.includes('//go:generate')) return [];
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const out: string[] = [];
  for (const m of text.matchAll(/^\/\/go:generate\s+go\s+run\s+(?:-\S+\s+)*(\.{1,2}\/[\w./-]+|[\w.-]+\.go)\b/gm)) {
    const parts = (dir === '' ? [] : dir.split('/')).concat(m[1]!.replace(/\/$/, '').split('/'));
    const resolved: string[] = [];
    for (const p of parts) {
      if (p === '.' || p === '') continue;
      if (p === '..') resolved.pop();
      else resolved.push(p);
    }
    out.push(resolved.join('/').replace(/\/[\w.-]+\.go$/, ''));
  }
  return out;
}
