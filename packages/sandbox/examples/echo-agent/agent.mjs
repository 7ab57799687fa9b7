// The smallest real agent (docs/agents.md, "A minimal agent"): it reads its input on stdin, lists
// the artifact's files, and reports the install-time scripts of a package — npm lifecycle scripts
// in package.json, custom commands in setup.py — with the file, line and command. Static only: it
// reads files and never runs or imports them.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';

const MAX_FILES = 10_000;
/** npm runs these on `npm install` of the package. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];
/** A command that fetches something from the network, or pipes into a shell. */
const FETCHES = /\b(curl|wget|Invoke-WebRequest|iwr)\b|https?:\/\/|\|\s*(ba|z)?sh\b/i;

const input = JSON.parse(readFileSync(0, 'utf8'));
const root = input.artifact.dir;

/** Every regular file under the artifact, relative paths with `/`. */
function listFiles(dir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (found.length >= MAX_FILES) break;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(path, found);
    else if (entry.isFile()) found.push(relative(root, path).split('\\').join('/'));
  }
  return found;
}

/** 1-based line of the first occurrence of `needle`, or undefined. */
function lineOf(text, needle) {
  const at = text.indexOf(needle);
  return at < 0 ? undefined : text.slice(0, at).split('\n').length;
}

const files = listFiles(root);
const findings = [];

if (files.includes('package.json')) {
  const text = readFileSync(join(root, 'package.json'), 'utf8');
  let manifest = null;
  try {
    manifest = JSON.parse(text);
  } catch {
    findings.push({ type: 'static', category: 'malware', severity: 'LOW', title: 'package.json is not valid JSON', file: 'package.json' });
  }
  const scripts = manifest && typeof manifest.scripts === 'object' && manifest.scripts !== null ? manifest.scripts : {};
  for (const name of INSTALL_SCRIPTS) {
    const command = scripts[name];
    if (typeof command !== 'string') continue;
    const fetches = FETCHES.test(command);
    findings.push({
      type: 'static',
      category: 'install_script',
      severity: fetches ? 'HIGH' : 'MED',
      title: fetches ? `${name} script downloads or pipes into a shell` : `${name} script runs at install time`,
      file: 'package.json',
      line: lineOf(text, `"${name}"`),
      evidence: command.slice(0, 1024),
    });
  }
}

if (files.includes('setup.py')) {
  const text = readFileSync(join(root, 'setup.py'), 'utf8');
  const line = lineOf(text, 'cmdclass');
  if (line !== undefined) {
    findings.push({
      type: 'static',
      category: 'install_script',
      severity: FETCHES.test(text) ? 'HIGH' : 'MED',
      title: 'setup.py overrides install commands (cmdclass)',
      file: 'setup.py',
      line,
      evidence: text.split('\n')[line - 1].trim().slice(0, 1024),
    });
  }
}

const worst = findings.some((f) => f.severity === 'HIGH') ? 'HIGH' : findings.some((f) => f.severity === 'MED') ? 'MED' : null;
const verdict = worst === 'HIGH' ? 'BLOCK' : worst === 'MED' ? 'WARN' : 'ALLOW';
const riskScore = worst === 'HIGH' ? 85 : worst === 'MED' ? 50 : findings.length > 0 ? 10 : 0;

// Exactly one JSON value on stdout; `files_seen` is an extra key the runner ignores.
process.stdout.write(`${JSON.stringify({ verdict, risk_score: riskScore, findings, files_seen: files.length })}\n`);
