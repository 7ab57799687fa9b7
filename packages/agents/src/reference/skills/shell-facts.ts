import { DOTENV_PATH_PATTERN, SECRET_PATH_PATTERN, type ScriptFact } from './script-fact.js';

const RULES: ReadonlyArray<[ScriptFact['kind'], RegExp]> = [
  ['download-exec', /\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^|;\n]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:ba)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b/],
  ['decoded-exec', /\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:ba|z)?sh\b|\beval\s+["']?\$\([^)]*base64\s+(?:-d|--decode)|\bxxd\s+-r[^\n]*\|\s*(?:ba)?sh\b/],
  ['reverse-shell', /\/dev\/tcp\/|\bn(?:c|cat)\b[^\n]*\s-e\s|\bmkfifo\b[^\n]*\bn(?:c|cat)\b|\bsocat\b[^\n]*exec:/i],
  ['shell-injection', /\beval\s+["']?[^"'\n]*\$\{?(?:[0-9@*]|[A-Za-z_])|\b(?:ba|z)?sh\s+-c\s+["'][^"'\n]*\$\{?(?:[0-9@*]|[A-Za-z_])|\b(?:ba|z)?sh\s+-c\s+\$/],
  ['env-dump', /(?:^|[;&|(]\s*|\$\()\s*(?:printenv|env)\s*(?:\||>|\)|$)|\bset\s*\|\s*(?:curl|nc|base64)/],
  ['network', /\b(?:curl|wget|nc|ncat|scp|rsync|ssh|ftp|telnet|Invoke-WebRequest|Invoke-RestMethod)\s/],
];

/**
 * Facts of a shell script (or any text) by lines; comment lines are skipped, and lines over 2000
 * characters too unless `longLines` (the one-line shapes looked for in minified code).
 */
export function shellFacts(text: string, options: { longLines?: boolean } = {}): ScriptFact[] {
  const facts: ScriptFact[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.length > 2000 && options.longLines !== true) continue;
    for (const [kind, pattern] of RULES) {
      const m = pattern.exec(line);
      if (m) facts.push({ kind, line: i + 1, evidence: line.length > 2000 ? line.slice(Math.max(0, m.index - 100), m.index + 300) : line });
    }
    if (line.length > 2000) continue;
    const words = line.split(/[\s"'=;|&<>()@]+/).filter((w) => w !== '');
    if (words.some((w) => SECRET_PATH_PATTERN.test(w))) facts.push({ kind: 'secret-path', line: i + 1, evidence: line });
    else if (words.some((w) => DOTENV_PATH_PATTERN.test(w))) facts.push({ kind: 'dotenv-path', line: i + 1, evidence: line });
  }
  return facts;
}
