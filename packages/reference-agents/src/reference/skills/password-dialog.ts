import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';

/**
 * A script that asks for the user's password in a dialog of its own — AppleScript's `display dialog …
 * default answer "" with hidden answer` whose text names a password — rather than through the system's
 * prompt (`do shell script … with administrator privileges`, `sudo` in a terminal, which never hand
 * the password to the script). The macOS stealers (Atomic/AMOS and its copies, 2023-2026) all phish
 * the login password this way, check it (`dscl . authonly`) or feed it to `sudo -S`, and send it home.
 * The answer then sent over the network is theft (CRIT); fed to `sudo -S` or checked with `dscl`, the
 * script holds the login password in the clear (HIGH). A dialog that asks for something else (a
 * project name, a token stored in the keychain) is not read here.
 */

const DIALOG = /\bdisplay\s+dialog\b[^\n]{0,400}?\bhidden\s+answer\b|\bhidden\s+answer\b[^\n]{0,40}?\bdisplay\s+dialog\b/i;
// The dialog's words (a line either side: `-e` parts are often split) name the password.
const ASKS_PASSWORD = /\b(?:password|passcode|passwort|mot de passe|contraseña|login\s+credentials|administrator\s+credentials)\b/i;
// What uses the answer: a request that sends data, `sudo -S` (password on stdin), `dscl . -authonly` (checks it).
const SENDS = /\bcurl\b[^\n]*(?:\s-d\b|\s--data(?:-\w+)?\b|\s-F\b|-X\s*POST\b|--upload-file\b|\s-T\s)|\bwget\b[^\n]*--post-(?:data|file)\b|\b(?:nc|ncat)\s+[\w.-]+\s+\d+|\brequests\.(?:post|put)\s*\(|\burlopen\s*\(|\bfetch\s*\(|\baxios\b|\bhttps?\.request\s*\(/;
// `sudo -S`, also as a list (`["sudo", "-S", …]`).
const SUDO_STDIN = /\bsudo["']?(?:[\s,]+["']?-\w+["']?)*?[\s,]+["']?-\w*S\b|\bdscl\s+\.\s+-?authonly\b/;

export function passwordDialogFinding(file: string, text: string): AgentFinding | null {
  if (!/osascript|display\s+dialog/i.test(text) || text.length > 500_000) return null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.length > 4000 || !DIALOG.test(line)) continue;
    const near = lines.slice(Math.max(0, i - 1), i + 2).join('\n');
    if (!ASKS_PASSWORD.test(near)) continue;
    const evidence = line.trim().slice(0, 240);
    const send = lines.findIndex((l, j) => j !== i && l.length <= 4000 && !/^\s*#/.test(l) && SENDS.test(l));
    if (send >= 0) return referenceFinding({ category: 'credential_access', severity: 'CRIT', title: 'script asks for the user’s password in its own dialog and sends it out', file, line: i + 1, evidence: `${evidence} … ${(lines[send] ?? '').trim().slice(0, 160)}` });
    const sudo = lines.findIndex((l) => l.length <= 4000 && !/^\s*#/.test(l) && SUDO_STDIN.test(l));
    if (sudo >= 0) return referenceFinding({ category: 'credential_access', severity: 'HIGH', title: 'script asks for the login password in its own dialog instead of the system prompt', file, line: i + 1, evidence: `${evidence} … ${(lines[sudo] ?? '').trim().slice(0, 160)}` });
  }
  return null;
}
