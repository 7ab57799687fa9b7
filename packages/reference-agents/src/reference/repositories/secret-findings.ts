import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { isExamplePath } from './repository-paths.js';
import { LineIndex, maskSecret } from './line-index.js';

interface TokenPattern {
  re: RegExp;
  severity: Severity;
  title: string;
}

// Token formats with a fixed, documented prefix: a match is a credential, not a guess.
const TOKEN_PATTERNS: readonly TokenPattern[] = [
  { re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b/g, severity: 'CRIT', title: 'GitHub token committed' },
  { re: /\bgithub_pat_[A-Za-z0-9_]{60,}\b/g, severity: 'CRIT', title: 'GitHub token committed' },
  { re: /\bnpm_[A-Za-z0-9]{36}\b/g, severity: 'CRIT', title: 'npm access token committed' },
  { re: /\b(?:sk|rk)_live_[0-9A-Za-z]{20,}\b/g, severity: 'CRIT', title: 'Stripe live secret key committed' },
  { re: /\bxox[baprs]-[0-9A-Za-z-]{10,}/g, severity: 'HIGH', title: 'Slack token committed' },
  // Google API keys are often public by design (Firebase and Maps browser keys, restricted by referrer).
  { re: /\bAIza[0-9A-Za-z_-]{35}\b/g, severity: 'MED', title: 'Google API key committed' },
  { re: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g, severity: 'CRIT', title: 'PyPI API token committed' },
];

const AWS_KEY_ID = /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g;
// An AWS secret access key: 40 characters of base64, both cases (a hex digest has one case).
const AWS_SECRET = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
const PRIVATE_KEY = /-----BEGIN ((?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----\s*\n(?:[A-Za-z-]+:[^\n]*\n)*\s*([A-Za-z0-9+/=]{40,})/g;

// Values that stand for a credential in documentation and fixtures (AWS's own documented example
// keys end in EXAMPLE).
const PLACEHOLDER =
  /EXAMPLE|x{4,}|\*{3,}|\.{3}|<[^>]*>|\{\{|\$\{|your[_-]|changeme|change[_-]me|placeholder|dummy|fake|sample|redacted|replace[_-]?me|insert[_-]|0{8,}|1234567890|abcdefgh/i;

function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || /^(.)\1+$/.test(value);
}

function hasBothCases(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value);
}

class SecretScan {
  readonly findings: AgentFinding[] = [];
  private readonly index: LineIndex;
  private readonly example: boolean;

  constructor(
    readonly path: string,
    readonly text: string,
  ) {
    this.index = new LineIndex(text);
    this.example = isExamplePath(path);
  }

  add(severity: Severity, title: string, offset: number, evidence: string): void {
    // Tests, fixtures and docs hold sample credentials far more often than leaked ones.
    const shown = this.example ? 'LOW' : severity;
    const suffix = this.example ? ' (in a test, fixture or example path)' : '';
    this.findings.push(referenceFinding({ category: 'credential_exposure', severity: shown, title: `${title}${suffix}`, file: this.path, line: this.index.lineOf(offset), evidence }));
  }
}

function scanTokens(scan: SecretScan): void {
  for (const pattern of TOKEN_PATTERNS) {
    for (const m of scan.text.matchAll(pattern.re)) {
      if (isPlaceholder(m[0])) continue;
      scan.add(pattern.severity, pattern.title, m.index, maskSecret(m[0]));
    }
  }
}

function scanAws(scan: SecretScan): void {
  for (const m of scan.text.matchAll(AWS_KEY_ID)) {
    if (isPlaceholder(m[0])) continue;
    // The secret key is written next to its ID: same line or the few around it.
    const from = Math.max(0, scan.text.lastIndexOf('\n', Math.max(0, m.index - 400)));
    const window = scan.text.slice(from, m.index + 400);
    const secret = [...window.matchAll(AWS_SECRET)].map((s) => s[0]).find((s) => hasBothCases(s) && !isPlaceholder(s) && !s.includes(m[0]));
    if (secret !== undefined) scan.add('CRIT', 'AWS access key and secret key committed', m.index, `${maskSecret(m[0])} with secret ${maskSecret(secret)}`);
    else scan.add('MED', 'AWS access key ID committed', m.index, maskSecret(m[0]));
  }
}

// The fewest base64 characters a key block of each type holds (round s30, real false alarms): an OpenSSH
// key carries its public key and a check block (an Ed25519 one is ~400 characters), RSA and DSA keys their
// primes (a 512-bit RSA key is ~450), an encrypted PKCS#8 key its cipher parameters; a bare PKCS#8 or EC
// key can be as short as 64 (Ed25519, secp256k1), so those keep the pattern's 40.
const MIN_KEY_BODY: Readonly<Record<string, number>> = { 'OPENSSH ': 200, 'RSA ': 200, 'DSA ': 200, 'PGP ': 200, 'ENCRYPTED ': 100 };

/**
 * True when the block's END line comes before its body reaches the fewest characters a key of its type
 * holds: a help text's or a doc's example cut to one line (dotenvx's `set KEY -- "-----BEGIN OPENSSH
 * PRIVATE KEY----- b3Bl…(70 chars) -----END…"`) is the shape of a key, not a key. A block with no END
 * line within 16 KB is judged as before.
 */
function truncatedKeyBlock(text: string, start: number, kind: string): boolean {
  const min = MIN_KEY_BODY[kind];
  if (min === undefined) return false;
  const window = text.slice(start, start + 16_384);
  const end = window.indexOf('-----END');
  if (end === -1) return false;
  const body = window.slice(window.indexOf('-----', 11) + 5, end).replace(/^[ \t]*[A-Za-z-]+:[^\n]*$/gm, '');
  return (body.match(/[A-Za-z0-9+/=]/g)?.length ?? 0) < min;
}

function scanPrivateKeys(scan: SecretScan): void {
  for (const m of scan.text.matchAll(PRIVATE_KEY)) {
    const body = m[3] ?? '';
    if (isPlaceholder(body) || truncatedKeyBlock(scan.text, m.index, m[1] ?? '')) continue;
    const encrypted = m[1] === 'ENCRYPTED ' || /Proc-Type: 4,ENCRYPTED/.test(m[0]);
    scan.add(encrypted ? 'MED' : 'HIGH', encrypted ? 'encrypted private key committed' : 'private key committed', m.index, `-----BEGIN ${m[1] ?? ''}PRIVATE KEY----- ${maskSecret(body)}`);
  }
}

const SECRET_NAME = /(SECRET|TOKEN|PASSWORD|PASSWD|PWD|API_?KEY|PRIVATE|ACCESS_?KEY|CREDENTIAL|AUTH|DSN|WEBHOOK)/i;
// Files that document which variables exist rather than hold them.
const ENV_TEMPLATE = /\.(example|sample|template|tmpl|tpl|dist|defaults?|schema|test)$/i;
// Short values are local defaults (`POSTGRES_PASSWORD=postgres`), not issued credentials.
const MIN_ENV_SECRET = 12;

function scanEnvFile(scan: SecretScan, base: string): void {
  if (!/^\.env(\..+)?$/i.test(base) || ENV_TEMPLATE.test(base)) return;
  const names: string[] = [];
  let first = -1;
  for (const m of scan.text.matchAll(/^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(.*)$/gm)) {
    const value = (m[2] ?? '').trim().replace(/^(['"])(.*)\1$/, '$2');
    if (!SECRET_NAME.test(m[1]!) || value.length < MIN_ENV_SECRET || value.startsWith('#') || isPlaceholder(value)) continue;
    names.push(`${m[1]}=${maskSecret(value)}`);
    if (first === -1) first = m.index;
  }
  if (names.length > 0) scan.add('HIGH', 'secret values committed in a .env file', first, names.slice(0, 5).join(', '));
}

function scanRegistryConfig(scan: SecretScan, base: string): void {
  if (base === '.npmrc' || base === '.yarnrc' || base === '.yarnrc.yml') {
    for (const m of scan.text.matchAll(/(_authToken|npmAuthToken|_auth|_password)\s*[=:]\s*["']?([^\s"'#]+)/g)) {
      const value = m[2]!;
      // `${NPM_TOKEN}` reads the token from the environment at install time: the intended use.
      if (value.startsWith('$') || isPlaceholder(value)) continue;
      scan.add(m[1] === '_authToken' || m[1] === 'npmAuthToken' ? 'CRIT' : 'HIGH', `registry credential committed in ${base}`, m.index, `${m[1]}=${maskSecret(value)}`);
    }
  }
  if (base === '.pypirc') {
    for (const m of scan.text.matchAll(/^[ \t]*password[ \t]*[=:][ \t]*(\S+)/gm)) {
      if (m[1]!.startsWith('$') || m[1]!.startsWith('%') || isPlaceholder(m[1]!)) continue;
      scan.add('CRIT', 'registry credential committed in .pypirc', m.index, `password=${maskSecret(m[1]!)}`);
    }
  }
}

/**
 * Credentials committed to one text file: provider tokens with documented prefixes, AWS keys (CRIT
 * with the secret next to them), private keys, `.env` values and registry auth in `.npmrc` and
 * `.pypirc`. Evidence never carries a secret: four characters and the length. Placeholders and
 * documented example values are skipped; matches under test, fixture, example and doc paths are
 * LOW.
 */
export function secretFindings(path: string, text: string): AgentFinding[] {
  const scan = new SecretScan(path, text);
  const base = path.slice(path.lastIndexOf('/') + 1);
  scanTokens(scan);
  scanAws(scan);
  scanPrivateKeys(scan);
  scanEnvFile(scan, base);
  scanRegistryConfig(scan, base);
  return scan.findings;
}
