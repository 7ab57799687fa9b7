// A download saved to a file and that same file run afterwards, whatever the file is called:
// `curl -o /tmp/.b URL && sh /tmp/.b`, `wget -qO x URL; python3 x`, `iwr URL -OutFile $env:TEMP\u.ps1; & $env:TEMP\u.ps1`.
// The pipe shapes (`curl | sh`) and `sh x.sh` / `./x` are read by shell-command-findings; a name with no
// script extension (`/tmp/.b`, a dotfile, `x.dat`) run by an interpreter is not, and is how a loader
// hides what it is (MCPoison / CurXecute MCP configurations, 2025).

// Where a downloader writes: curl `-o P` / `--output P` / `-fsSLo P`, wget `-O P` / `--output-document=P`
// (not `-O-`, which is standard output), PowerShell `-OutFile P`, WebClient `.DownloadFile(url, P)`,
// and a redirect of the downloader's output (`curl URL > P`). A quoted URL may hold `&` and `;` (`"…?a=1&t=$TOKEN"`).
const SAVES: readonly RegExp[] = [
  /\bcurl\b(?:[^\n;&|"']|"[^"\n]*"|'[^'\n]*')*?\s(?:-[A-Za-z]*o|--output)(?:\s+|=)(["']?)([^\s"';&|]+)\1/gi,
  /\bwget\b(?:[^\n;&|"']|"[^"\n]*"|'[^'\n]*')*?\s(?:-[A-Za-z]*O|--output-document)(?:\s+|=)(["']?)([^\s"';&|-][^\s"';&|]*)\1/gi,
  /\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n;|]*?\s-OutFile\s+(["']?)([^\s"';|]+)\1/gi,
  /\.DownloadFile\(\s*[^,]+,\s*(["'])([^"']+)\1/gi,
  /\b(?:curl|wget)\b(?:[^\n;&|>"']|"[^"\n]*"|'[^'\n]*')*?\s>\s*(["']?)([^\s"';&|]+)\1/gi,
];

// What runs a file: a shell, `source`/`.`, a script interpreter, PowerShell's `&` / `-File` / `Start-Process`, cmd's `call`/`start`.
const RUNNERS = String.raw`(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|source|\.|python[0-9.]*|node|perl|ruby|php|bun|pwsh|powershell(?:\.exe)?|&|call|start(?:\s+"")?|start-process|-file|cmd(?:\.exe)?\s+\/c)`;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The file a command downloads and then runs, or null. */
export function downloadedFileRun(command: string): string | null {
  for (const save of SAVES) {
    for (const m of command.matchAll(save)) {
      const path = m[2]!;
      if (path.length < 2 || /^https?:/i.test(path) || path === '/dev/null') continue;
      const rest = command.slice((m.index ?? 0) + m[0].length);
      const bare = path.replace(/^\.[\\/]/, '');
      const file = String.raw`(?:\.[\\/])?${escape(bare)}`;
      // Run by an interpreter (single-letter flags such as `-x` may come first), or in command position itself.
      const run = new RegExp(
        String.raw`(?:^|[\s;&|(])${RUNNERS}\s+(?:-[A-Za-z]+\s+)*["']?${file}["']?(?=$|[\s;&|)])|(?:^|[;&|(]\s*|\bthen\s+|\bexec\s+)["']?${file}["']?(?=$|[\s;&|)])`,
        'i',
      );
      if (run.test(rest)) return path;
    }
  }
  return null;
}
