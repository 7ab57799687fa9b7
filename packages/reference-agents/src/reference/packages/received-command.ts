/**
 * Whether data received from the network that reaches a process call can be the command it runs.
 *
 * "Runs commands received from the network" is a RAT's or a C2 loop's shape: what a socket or a
 * response carries is the command line (`os.system(cmd)`, `check_output(cmd, shell=True)`), the
 * program (`spawn(cmd, args)`), the code an interpreter runs (`sh -c`, `python -c`, `node -e`,
 * PowerShell's command, a shell reading its stdin) or a package it installs. A value from the network
 * that only fills an argument of a fixed program started without a shell is not a command: a test
 * fixture that starts `moto_server -p <port>` or `python -m http.server <port>` as an argument vector
 * on a port a socket reported (issue 24, round s28: a conftest.py read as a C2 loop).
 *
 * A command line (a shell's or a command-line parser's) is always the command when network data is in
 * it: unquoted, the data can end the fixed part and start its own (`kill 1; sh -i`, `cd /tmp && <data>`,
 * `sudo <data>`), so no constant text before it makes it an argument (review of round s28: RATs written
 * as `os.system("true; " + cmd)` passed). Only a line whose computed parts are all quoted for the shell
 * (`CommandShape.shellQuoted`) is judged by its words. An argument vector is judged on its constant
 * elements, in order: the program and what follows it. When those cannot show a fixed program (nothing
 * constant, a computed program or wrapper target, an interpreter without a constant script), the data
 * is taken to be the command.
 */

import type { CallFact } from '../code/code-facts.js';

/** APIs that hand their command to a shell (or a command-line parser) as one line of text. */
const COMMAND_LINE_API = /^(child_process\.(exec|execSync)|execSync|os\.(system|popen)|subprocess\.(getoutput|getstatusoutput)|commands\.getoutput|shelljs\.exec|@actions\/exec\.(exec|getExecOutput)|exec\.(exec|getExecOutput)|execa\.(command|commandSync))$/;
/** APIs whose argument is always the thing run: a file opened by its association, a terminal's program. */
const ALWAYS_COMMAND_API = /^(os\.startfile|pty\.spawn)$/;
/** JavaScript APIs whose first argument is the program (or, for `fork`, the module) to start. */
const PROGRAM_FIRST_API = /^(child_process\.(spawn|spawnSync|execFile|execFileSync|fork)|spawn|spawnSync|execFile|execFileSync|execa(\.sync|\.node)?|cross-spawn(\.sync)?)$/;
/** Python's `os.exec*`/`os.spawn*`: the program is the first argument (after the mode for spawn). */
const PYTHON_OS_PROCESS = /^os\.(exec\w*|spawn\w*)$/;

/** Programs that run code given as an argument, a script path or their input. */
const INTERPRETER = /^(?:(?:ba|z|da|k|c|tc|fi|a)?sh|cmd|powershell|pwsh|python[\d.]*|py|pypy[\d.]*|node|nodejs|deno|bun|tsx|ts-node|perl|ruby|php|lua|osascript|wscript|cscript|mshta|rundll32|regsvr32|awk|gawk|rscript)$/;
/** Programs that run the program named after them (and their own flags). */
const WRAPPER = /^(?:sudo|doas|su|runas|env|nohup|timeout|nice|ionice|setsid|stdbuf|xargs|time|exec|command|busybox|npx|pnpx|bunx|uvx|strace|watch|flock|caffeinate|unbuffer|start|chroot)$/;
/** Package tools and the verbs with which they install or run a package (installing runs its code). */
const PACKAGE_TOOL = /^(?:npm|pnpm|yarn|bun|pip[\d.]*|uv|poetry|pipx|gem|cargo|go|composer|apt|apt-get|brew|choco|winget|dnf|yum)$/;
const PACKAGE_RUN_VERB = /^(?:i|install|add|exec|dlx|x|run|get|update|upgrade)$/;
/** Programs that run a command elsewhere or in a container they start. */
const REMOTE_RUNNER = /^(?:docker|podman|kubectl|nerdctl)$/;
/** Flags with which an interpreter (or `su`) runs the code that follows instead of a script file. */
const CODE_FLAG = /^(?:-c|-e|-E|--eval|-p|--print|-r|-Command|-command|-c:|\/c|\/k|\/r|-EncodedCommand|-encodedcommand|-enc|-ec|-e:|--command)$/;
/** A script or module file, possibly with its directory: `server.js`, `tests/fixtures/app.py`. */
const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?|py|pyw|rb|pl|php|sh|bash|ps1|lua|r)$/i;
/** Flags of wrappers that take a value (`sudo -u root`, `timeout -s KILL`). */
const VALUE_FLAG = /^(?:-u|-g|-s|-k|-n|-C|--user|--group|--signal|--kill-after|-p|--package)$/;
/** Shell operators that start another command in a command line. */
const SHELL_OPERATOR = /\|\|?|&&?|;|`|\$\(|\n/;
/**
 * A computed part left in a command's constant text: `?` (a template literal's or f-string's hole), a
 * `%`-format or `.format` placeholder. A program word with one is not a fixed program (`sudo %s`,
 * `/usr/bin/?`). In an argument vector known element by element, only `COMPUTED` is one.
 */
const HOLE = /[?%{}]/;
/** A computed element of an argument vector (`CommandShape.argv`'s null). */
const COMPUTED = '\u0000';
/** `ssh` options that take a value (`-i key`, `-p 22`, `-o BatchMode=yes`, `-J jump`). */
const SSH_VALUE_FLAG = /^-[BbcDEeFIiJLlmOoPpQRSWw]$/;

/**
 * What a reader can add to a process call: its argument vector element by element, and whether its
 * command line quotes every computed part. Without them an argument vector is judged on the call's
 * constant strings, which also hold constants from inside computed parts (`h["addr"]` gives `addr`).
 */
export interface CommandShape {
  /**
   * The argument vector as written: the program (JavaScript: the first argument; Python: the list's
   * first element), then each element, a constant or null when computed. `[null]` when the whole
   * vector is computed (`subprocess.run(task["argv"])`).
   */
  argv?: (string | null)[];
  /**
   * The command line starts with constant text and each computed part is quoted for the shell
   * (`shlex.quote`, `shell-quote`'s `quote`) or is a number. `JSON.stringify` is no quoting: `$(…)`
   * and backquotes still run inside double quotes.
   */
  shellQuoted?: boolean;
}

/** The call's constant parts, in order, without the values of its options (`stdio: 'inherit'`, `cwd='/tmp'`). */
function constantParts(call: CallFact): string[] {
  const parts = [...call.argStrings];
  for (const value of Object.values(call.options)) {
    const at = parts.lastIndexOf(value);
    if (at !== -1) parts.splice(at, 1);
  }
  return parts;
}

function programName(word: string): string {
  return (word.replace(/^["']|["']$/g, '').split(/[\\/]/).pop() ?? word).toLowerCase().replace(/\.exe$/, '');
}

/**
 * True when `ssh`'s arguments run a constant command on the remote host: past its options, the host
 * (which may be data) and then constant words only. The remote shell parses the words after the host
 * as one command line, so data there is a command even beside constants.
 */
function sshRunsConstant(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += SSH_VALUE_FLAG.test(args[i]!) ? 2 : 1;
  const command = args.slice(i + 1);
  return command.length > 0 && !command.includes(COMPUTED);
}

/**
 * True when the words show a fixed program whose arguments the data can only fill: not an
 * interpreter without a constant script, a wrapper without a constant program, a package install,
 * or a remote or container runner. `interpreter` says the program itself is a computed interpreter
 * (`sys.executable`, `process.execPath`) and the words start with its flags or script. `exact` says
 * the words are the argument vector element by element (a computed one is `COMPUTED`), so that the words
 * after a host are surely `ssh`'s remote command.
 */
function fixedProgram(words: readonly string[], interpreter: boolean, exact = false): boolean {
  const computed = (w: string) => (exact ? w === COMPUTED : HOLE.test(w));
  let i = 0;
  let inInterpreter = interpreter;
  let interpreterName = '';
  // Wrappers and interpreters hand over to what follows them: a few hops at most.
  for (let hop = 0; hop < 6; hop++) {
    if (!inInterpreter) {
      const word = words[i];
      if (word === undefined || word === '' || word.startsWith('-') || computed(word)) return false;
      const name = programName(word);
      if (WRAPPER.test(name)) {
        i++;
        // The wrapper's flags (some with values), durations (`timeout 10`), assignments (`env A=B`).
        while (i < words.length && (words[i]!.startsWith('-') || /^\d+[smhd]?$/.test(words[i]!) || /^\w+=/.test(words[i]!))) {
          // `su -c '<command>'`, `start /c`: the wrapper's own way to run a command line.
          if (/^(?:-c|\/c|\/k)$/.test(words[i]!)) return false;
          i += VALUE_FLAG.test(words[i]!) ? 2 : 1;
        }
        continue;
      }
      if (PACKAGE_TOOL.test(name)) {
        const verb = words.slice(i + 1).find((w) => !w.startsWith('-'));
        return verb !== undefined && !computed(verb) && !PACKAGE_RUN_VERB.test(verb);
      }
      // `ssh host <command>`: only a constant remote command, known element by element, leaves the host to the data.
      if (name === 'ssh') return exact && sshRunsConstant(words.slice(i + 1));
      // `docker run|exec …`: a command run in a container (not `docker logs <name>`).
      if (REMOTE_RUNNER.test(name)) {
        const verb = words.slice(i + 1).find((w) => !w.startsWith('-')) ?? 'run';
        return !computed(verb) && !/^(?:run|exec|create|compose|container|build|debug|attach)$/.test(verb);
      }
      if (!INTERPRETER.test(name)) return true;
      // `cmd` runs what follows it as a command line.
      if (name === 'cmd') return false;
      interpreterName = name;
      inInterpreter = true;
      i++;
    }
    // An interpreter's flags, then a constant script file or `-m <module>` (whose own arguments follow).
    let found = false;
    for (; i < words.length; i++) {
      const w = words[i]!;
      if (CODE_FLAG.test(w) && !(w === '-r' && /^(?:node|nodejs)$/.test(interpreterName))) return false;
      if (w === '-m') {
        if (!/^[A-Za-z_][\w.]*$/.test(words[i + 1] ?? '')) return false;
        i++;
        inInterpreter = false;
        found = true;
        break;
      }
      // PowerShell runs its positional arguments as a command: only `-File <script>` names a script.
      if (SCRIPT_FILE.test(w) && !computed(w)) return !/^(?:powershell|pwsh)$/.test(interpreterName) || /^-file$/i.test(words[i - 1] ?? '');
    }
    if (!found) return false;
  }
  return false;
}

/**
 * True when every command a command line chains is a fixed program. `quoted` says its computed parts
 * are each one quoted argument: the line is judged with a hole for each (`kill ?`); a `+` chain gives
 * its constant operands apart, so a hole between them and after the last stands for what was computed
 * (an extra hole in an argument slot changes nothing).
 */
function lineIsFixed(parts: readonly string[], quoted: boolean): boolean {
  const marked = quoted ? parts.map((p) => p.replace(/%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|\{[^{}]*\}/g, '?')) : [...parts];
  // A hole after every part, even one with holes of its own: a constant `?` (`https://x/?q=`) must not hide where the data goes.
  const line = quoted ? `${marked.join(' ? ')} ?` : marked.join(' ');
  if (!/^["']?[\w./\\~-]/.test(line)) return false;
  // Every command the line chains (`curl … | sh`, `a; b`) must be a fixed program; the line's data is in a hole, not in an empty segment (`make;`).
  const segments = line.split(SHELL_OPERATOR).map((segment) => segment.trim().split(/\s+/).filter((w) => w !== '')).filter((words) => words.length > 0);
  return segments.length > 0 && segments.every((words) => fixedProgram(words, false));
}

/**
 * Whether network data reaching `call` (a process call whose arguments carry the `remote` label)
 * can be the command it runs. False only when the call is an argument vector whose constant parts
 * show a fixed program and the data can fill nothing but its arguments (its options, its environment,
 * its working directory), or a command line that quotes the data as one argument of a fixed program.
 */
export function receivedDataIsCommand(call: CallFact & CommandShape, language: 'javascript' | 'python'): boolean {
  if (ALWAYS_COMMAND_API.test(call.callee)) return true;
  const parts = constantParts(call);
  const shell = call.options.shell !== undefined && !/^(?:false|False|0|None|undefined|null)$/.test(call.options.shell);
  if (COMMAND_LINE_API.test(call.callee) || shell) {
    // A constant command line: the data fills its options, its environment, its standard input
    // (`execSync('sh', { input })` runs it) or, for `@actions/exec`, its argument vector.
    if (!PROGRAM_FIRST_API.test(call.callee) && call.args[0] !== null && call.args[0] !== undefined) return !lineIsFixed(parts, false);
    return call.shellQuoted !== true || !lineIsFixed(parts, true);
  }
  // `fork(module)`: node runs the module; a computed program (`process.execPath`) runs the script that follows.
  const fork = language === 'javascript' && /(^|\.)fork$/.test(call.callee);
  if (call.argv !== undefined && !fork && !PYTHON_OS_PROCESS.test(call.callee)) return call.argv.length === 0 || !fixedProgram(call.argv.map((w) => w ?? COMPUTED), false, true);
  const words = parts.flatMap((p) => (p.includes(' ') && !SCRIPT_FILE.test(p) ? p.trim().split(/\s+/) : [p]));
  if (language === 'javascript' && PROGRAM_FIRST_API.test(call.callee)) {
    if (fork) return !fixedProgram(words, true);
    const program = call.args[0];
    return program === null || program === undefined ? !fixedProgram(words, true) : !fixedProgram(words[0] === program ? words : [program, ...words], false);
  }
  if (language === 'python' && PYTHON_OS_PROCESS.test(call.callee)) {
    const program = /^os\.spawn/.test(call.callee) ? call.args[1] : call.args[0];
    return program === null || program === undefined || !fixedProgram([program], false);
  }
  // An argument vector (`subprocess.run([...])`): one that starts with a flag follows a computed program (`sys.executable`).
  if (words.length === 0) return true;
  return !fixedProgram(words, words[0]!.startsWith('-'));
}
