/** A file a script writes, read loosely (see pythonFlowFacts and jsFlowFacts). */
export interface WrittenFile {
  /** The path with constant parts spelled out, `{name}` for names that do not resolve and `~` for home. */
  path: string;
  /** The variable the path was given as, when it was one. */
  variable: string | null;
  /** Written by a download call itself (`urlretrieve`). */
  downloaded: boolean;
  line: number;
  evidence: string;
}

// Programs that run the file they are given (`python x.py`, `bash x.sh`, `sudo ./x`) or make it executable (`chmod +x x`).
const INTERPRETER = /^(?:.*\/)?(?:python[\d.]*|py|bash|sh|zsh|dash|node|deno|bun|perl|ruby|php|powershell(?:\.exe)?|pwsh|cmd(?:\.exe)?|\/c|cscript|wscript|msiexec|osascript|sudo|nohup|exec|source|\.|start|open|-File|-ExecutionPolicy|Bypass|-c|chmod|\+x|[ugoa]+\+x|0?o?[0-7]?[1357][0-7]{2}|&&)$/i;

function basename(path: string): string {
  const parts = path.split(/[/\\]/).filter((p) => p !== '' && p !== '*');
  return parts[parts.length - 1] ?? '';
}

/**
 * The written file that a command runs as its program (or hands to an interpreter), if any. `program`
 * holds the command's first words, read loosely.
 */
export function runsWrittenFile(program: readonly string[], written: readonly WrittenFile[]): WrittenFile | null {
  const words: string[] = [];
  for (const word of program) {
    words.push(word);
    if (!INTERPRETER.test(word.trim())) break;
  }
  for (const word of words) {
    const w = word.trim();
    for (const file of written) {
      if (file.variable !== null && w.includes(`{${file.variable}}`)) return file;
      const name = basename(file.path);
      if (name.length >= 2 && !name.startsWith('{') && basename(w) === name) return file;
      if (file.path.length >= 3 && w === file.path) return file;
    }
  }
  return null;
}

/**
 * True when a chmod mode (source text: `0o755`, `493`, `stat.S_IEXEC`, `'+x'`) sets an execute bit.
 * A bare number is octal to the chmod command (`chmod 755 f`) but decimal in JavaScript and Python
 * source (`fs.chmodSync(p, 432)` is 0o660): callers reading code pass `'decimal'`.
 */
export function isExecutableMode(mode: string, bareNumber: 'octal' | 'decimal' = 'octal'): boolean {
  if (/S_IX|S_IEXEC|\+x|\bu\+x|a\+x/.test(mode)) return true;
  const octal = (bareNumber !== 'decimal' ? /^\s*['"]?0?o?([0-7]{3,4})['"]?\s*$/ : /^\s*(?:['"]0?o?([0-7]{3,4})['"]|0o?([0-7]{3,4}))\s*$/).exec(mode);
  if (octal) return /[1357]/.test((octal[1] ?? octal[2] ?? '').slice(-3));
  const decimal = /^\s*(\d+)\s*$/.exec(mode);
  if (decimal) return (Number(decimal[1]) & 0o111) !== 0;
  return false;
}
