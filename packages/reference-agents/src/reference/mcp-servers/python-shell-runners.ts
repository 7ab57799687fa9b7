/**
 * Top-level functions of a Python module that run their first parameter, or a local built from it,
 * as a shell line: `subprocess.run(cmd, shell=True)`, `os.system(f"git {args}")`, `os.popen(cmd)`,
 * `subprocess.getoutput(cmd)`, `asyncio.create_subprocess_shell(cmd)`. A tool handler in another
 * module that calls one with its input builds a shell command (command injection one module away).
 * So is a list that starts a shell on it (`["bash", "-c", cmd]`). An argument list without `shell=True`,
 * or a line quoted with `shlex.quote`, is not a shell line.
 */
const SHELL_HINT = /\bshell\s*=\s*True|\bos\.(?:system|popen)\s*\(|\bcreate_subprocess_shell\s*\(|\bgetoutput\s*\(|\bgetstatusoutput\s*\(/;
/** Calls whose first argument is always a shell line. */
const ALWAYS_SHELL = /(?<![\w.])(?:os\.system|os\.popen|(?:subprocess\.)?getoutput|(?:subprocess\.)?getstatusoutput|(?:asyncio\.)?create_subprocess_shell)\s*\(/g;
/** Calls that run a shell line only with `shell=True`. */
const SHELL_TRUE = /(?<![\w.])(?:[\w]+\.)?(?:run|call|check_call|check_output|Popen)\s*\(/g;

/** The argument list of the call whose `(` ends at `open` (exclusive of the parentheses), bounded. */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < Math.min(text.length, open + 2000); i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return text.slice(open + 1, open + 2000);
}

/** The first argument of an argument list (up to a comma at depth 0). */
function firstArgument(args: string): string {
  let depth = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) return args.slice(0, i);
  }
  return args;
}

export function pythonShellRunningFunctions(text: string): Set<string> {
  const out = new Set<string>();
  if (!SHELL_HINT.test(text)) return out;
  const defs = [...text.matchAll(/^(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(\s*(\w+)/gm)];
  for (const m of defs) {
    const param = m[2]!;
    if (param === 'self' || param === 'cls') continue;
    // The body: up to the next line that starts at column 0 with code.
    const rest = text.slice(m.index + m[0].length);
    const end = /\n(?=[^\s#)])/.exec(rest.slice(rest.indexOf('\n') + 1));
    const body = end === null ? rest : rest.slice(0, rest.indexOf('\n') + 1 + end.index);
    // The parameter and locals built from it (`line = f"git {cmd}"`, `full = " ".join(parts)`).
    const names = new Set([param]);
    for (let pass = 0; pass < 2; pass++) {
      for (const a of body.matchAll(/^[ \t]+(\w+)[ \t]*(?::[^=\n]+)?=(?!=)([^\n]*)$/gm)) {
        if ([...names].some((n) => new RegExp(`(?<![\\w.])${n}(?!\\w)`).test(a[2]!))) names.add(a[1]!);
      }
    }
    const carries = (arg: string) => !/\bquote\s*\(/.test(arg) && [...names].some((n) => new RegExp(`(?<![\\w.'"])${n}(?!\\w)|\\{${n}\\b`).test(arg));
    const hits = (pattern: RegExp, needsShell: boolean) => [...body.matchAll(pattern)].some((c) => {
      const args = argumentsAt(body, c.index + c[0].length - 1);
      return carries(firstArgument(args)) && (!needsShell || /\bshell\s*=\s*True\b/.test(args));
    });
    // An argument list that starts a shell on the line: `["bash", "-c", cmd]`, `["cmd", "/c", cmd]`.
    const shellList = [...body.matchAll(new RegExp(SHELL_TRUE.source, 'g'))].some((c) => {
      const first = firstArgument(argumentsAt(body, c.index + c[0].length - 1));
      return /^\s*\[\s*['"](?:\/(?:usr\/)?bin\/)?(?:ba|z|da)?sh['"]\s*,\s*['"]-l?c['"]|^\s*\[\s*['"](?:cmd|cmd\.exe)['"]\s*,\s*['"]\/c['"]|^\s*\[\s*['"](?:powershell|pwsh)(?:\.exe)?['"]\s*,[^\]]*['"]-(?:Command|c)['"]/i.test(first) && carries(first);
    });
    if (shellList || hits(new RegExp(ALWAYS_SHELL.source, 'g'), false) || hits(new RegExp(SHELL_TRUE.source, 'g'), true)) out.add(m[1]!);
  }
  return out;
}
