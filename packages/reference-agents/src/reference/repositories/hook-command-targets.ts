/**
 * The repository files a hook's or an autorun's command line runs: what an agent hook
 * (`node "$CLAUDE_PROJECT_DIR"/scripts/init.js`), a folder-open task, a dev container lifecycle
 * command or a git hook hands to an interpreter, followed through the shell's forms (`cd x && …`,
 * `VAR=1 exec …`, `bash -c "…"`), project-folder variables, launchers (`npx tsx`, `uv run`,
 * `poetry run`), `python -m pkg.mod` and package-manager scripts (`npm run x` → the manifest's `x`).
 */
import { joinPath } from './run-code-findings.js';

/** Variables and command substitutions that name the project's folder (the command's working directory). */
const PROJECT_DIR = /["']?(?:\$\{?(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|CURSOR_PROJECT_DIR|CODEX_PROJECT_DIR|PROJECT_DIR|PROJECT_ROOT|REPO_ROOT|GIT_ROOT|ROOT_DIR|PWD|workspaceFolder|workspaceRoot)(?::[^}]*)?\}?|\$\(\s*(?:pwd|git\s+rev-parse\s+--show-toplevel)\s*\))["']?(?:\/|\\)/g;
const INTERPRETER = /^(?:node|nodejs|python(?:\d+(?:\.\d+)?)?|py|pypy3?|bash|sh|zsh|dash|ksh|deno|bun|tsx|ts-node|esno|ruby|perl|php)(?:\.exe)?$/i;
const SHELL = /^(?:bash|sh|zsh|dash|ksh)$/i;
/** Wrappers that run the rest of the line as the command. */
const WRAPPER = /^(?:env|exec|nohup|time|nice|command|sudo|xargs)$/;
/** Launchers that run the program named next: `npx tsx x.ts`, `uv run python x.py`, `poetry run x.py`. */
const LAUNCHER = /^(?:npx|pnpx|bunx|uvx)$|^(?:uv|poetry|pipenv|pdm|hatch|rye|pixi)$/;
const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?|py|sh|bash|zsh|rb|pl|php|ps[dm]?1)$/i;
/** PowerShell: `pwsh -NoProfile -File x.ps1`, `powershell.exe -ExecutionPolicy Bypass -File x.ps1`, `pwsh x.ps1`. */
const POWERSHELL = /^(?:pwsh|powershell)(?:\.exe)?$/i;
/** PowerShell options that take a value (the value is not the script). */
const POWERSHELL_VALUE_OPTION = /^-(?:ExecutionPolicy|ep|ex|WindowStyle|w|WorkingDirectory|wd|ConfigurationName|OutputFormat|of|InputFormat|if|Version|v|PSConsoleFile)$/i;

export interface TargetLookup {
  /** Whether a repository-relative path is a committed file. */
  exists: (path: string) => boolean;
  /** The package manifest's script of that name (for `npm run x`), or undefined. */
  npmScript?: (name: string) => string | undefined;
  /** Folders relative paths may start from besides the repository root (the configuration's own folder). */
  bases?: readonly string[];
}

function words(segment: string): string[] {
  const out: string[] = [];
  // A quote the removed project-folder variable opened (`"$CLAUDE_PROJECT_DIR/x.py"`) is left unbalanced: stray quotes are dropped.
  for (const m of segment.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? (m[3] ?? '').replace(/^["']|["']$/g, ''));
  return out;
}

/** Top-level pieces of a command line (split at `&&`, `||`, `;`, `|` and newlines outside quotes). */
function segments(command: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote !== null) {
      if (c === '\\' && quote === '"') {
        cur += c + (command[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === quote) quote = null;
      cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur += c;
    } else if (c === ';' || c === '\n' || c === '|' || (c === '&' && command[i + 1] === '&')) {
      out.push(cur);
      cur = '';
      if ((c === '|' && command[i + 1] === '|') || c === '&') i++;
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

function normal(base: string, rel: string): string | null {
  const cleaned = rel.replace(/\\/g, '/').replace(/^\.\//, '');
  if (cleaned === '' || cleaned.startsWith('/') || cleaned.startsWith('~') || cleaned.includes('$') || /^[a-z]:/i.test(cleaned)) return null;
  return joinPath(base.replace(/\/$/, ''), cleaned);
}

/**
 * Repository-relative paths of the committed files a command line runs (each resolved from the
 * folder a preceding `cd` names, the configuration's folder or the repository root; only files
 * `lookup.exists` knows are returned).
 */
export function hookCommandTargets(command: string, lookup: TargetLookup, depth = 0): string[] {
  const out = new Set<string>();
  if (depth > 3 || command.length > 8000) return [];
  let cwd = '';
  const found = (rel: string) => {
    for (const base of [cwd, ...(lookup.bases ?? []), '']) {
      const p = normal(base, rel);
      if (p !== null && lookup.exists(p)) {
        out.add(p);
        return true;
      }
    }
    return false;
  };
  const module = (name: string) => {
    const stem = name.replace(/\./g, '/');
    for (const p of [`${stem}.py`, `${stem}/__main__.py`, `src/${stem}.py`, `src/${stem}/__main__.py`]) if (found(p)) return;
  };
  for (const segment of segments(command.replace(PROJECT_DIR, ''))) {
    let w = words(segment);
    // Leading assignments and wrappers: `FOO=1 exec node x.js`, `timeout 30 python x.py`.
    for (;;) {
      if (w.length > 0 && /^[A-Za-z_]\w*=/.test(w[0]!)) w = w.slice(1);
      else if (w.length > 0 && WRAPPER.test(w[0]!.replace(/^.*\//, ''))) w = w.slice(1).filter((x, i) => !(i === 0 && x.startsWith('-')));
      else if (w[0] === 'timeout' && w.length > 1) w = w.slice(2);
      else break;
    }
    // `/usr/bin/env python3`, `/usr/local/bin/node`: an interpreter named by its path is that interpreter.
    const first = w[0] ?? '';
    const program = INTERPRETER.test(first.replace(/^.*[\\/]/, '')) || LAUNCHER.test(first.replace(/^.*[\\/]/, '')) || POWERSHELL.test(first.replace(/^.*[\\/]/, '')) ? first.replace(/^.*[\\/]/, '') : first;
    if (program === '') continue;
    if (program === 'cd') {
      const dir = w[1] === undefined ? null : normal(cwd, w[1]);
      if (dir !== null) cwd = dir;
      continue;
    }
    // Package-manager scripts: `npm run x`, `npm test`, `pnpm x`, `yarn x`, `bun run x`.
    if (/^(?:npm|pnpm|yarn|bun)$/.test(program) && lookup.npmScript !== undefined) {
      const rest = w.slice(1).filter((x) => !x.startsWith('-'));
      const name = /^(?:run|run-script)$/.test(rest[0] ?? '') ? rest[1] : /^(?:start|test|stop|restart)$/.test(rest[0] ?? '') || program !== 'npm' ? rest[0] : undefined;
      const script = name === undefined ? undefined : lookup.npmScript(name);
      if (script !== undefined) for (const t of hookCommandTargets(script, { ...lookup, bases: [cwd, ...(lookup.bases ?? [])] }, depth + 1)) out.add(t);
      continue;
    }
    let args = w.slice(1);
    let interp = program;
    // `npx tsx x.ts`, `uv run python x.py`, `poetry run python -m pkg`: the launcher hands the line on.
    if (LAUNCHER.test(program)) {
      args = args.filter((x, i) => !(i === 0 && /^(?:run|exec|dlx)$/.test(x)));
      // The launcher's own options come before the program it runs.
      while (args.length > 0 && args[0]!.startsWith('-')) args = args.slice(/^--(?:with|from|python|project|directory)$|^-[pw]$/.test(args[0]!) ? 2 : 1);
      interp = args[0] ?? '';
      args = args.slice(1);
      if (!INTERPRETER.test(interp)) {
        if (SCRIPT_FILE.test(interp)) found(interp);
        continue;
      }
    }
    // PowerShell runs the file after -File (or the first bare argument); an inline -Command runs what it names in turn.
    if (POWERSHELL.test(interp)) {
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (/^-(?:File|f)$/i.test(a)) {
          if (args[i + 1] !== undefined) found(args[i + 1]!);
          break;
        }
        if (/^-(?:Command|c)$/i.test(a)) {
          for (const t of hookCommandTargets((args[i + 1] ?? '').replace(/^&\s*/, ''), lookup, depth + 1)) out.add(t);
          break;
        }
        if (POWERSHELL_VALUE_OPTION.test(a)) {
          i++;
          continue;
        }
        if (a.startsWith('-')) continue;
        found(a);
        break;
      }
      continue;
    }
    if (INTERPRETER.test(interp)) {
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (a === 'run' && /^(?:deno|bun)$/i.test(interp) && i === 0) continue;
        if (a === '-m' && /^py/i.test(interp)) {
          if (args[i + 1] !== undefined) module(args[i + 1]!);
          break;
        }
        // An inline shell script runs what it names in turn.
        if (a === '-c' && SHELL.test(interp)) {
          for (const t of hookCommandTargets(args[i + 1] ?? '', lookup, depth + 1)) out.add(t);
          break;
        }
        if (/^(?:-c|-e|--eval|-p|--print)$/.test(a)) break;
        if (a.startsWith('-')) {
          // Options that take a value: `node -r x`, `node --require x`, `python -W ignore`.
          if (/^(?:-r|--require|--import|--loader|-W|-X)$/.test(a) && args[i + 1] !== undefined) {
            if (/^(?:-r|--require|--import|--loader)$/.test(a)) found(args[i + 1]!);
            i++;
          }
          continue;
        }
        found(a);
        break;
      }
      continue;
    }
    // A program named by its path (`./tools/init.sh`, `.claude/hooks/check.py`, `scripts/x`).
    if (program.includes('/') || SCRIPT_FILE.test(program)) found(program);
  }
  return [...out];
}

/** The manifest scripts of a package.json text (empty when it is not one). */
export function manifestScripts(text: string | null): Record<string, string> {
  if (text === null) return {};
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    if (typeof scripts !== 'object' || scripts === null) return {};
    return Object.fromEntries(Object.entries(scripts as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}
