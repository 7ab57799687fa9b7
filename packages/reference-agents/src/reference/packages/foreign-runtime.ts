/**
 * An install step that fetches or installs another JavaScript runtime (Bun, Deno) and runs a file
 * of the package with it. Shai-Hulud 2.0 (npm, November 2025) did exactly this: `preinstall: node
 * setup_bun.js` installed Bun from bun.sh and started the 10 MB obfuscated `bun_environment.js`
 * under it, out of reach of tools that watch what Node runs. A package that needs Bun at install
 * declares it; one that downloads a runtime while it installs, to run its own file, is hiding
 * the program from the runtime it was installed with. Judged on the install-time texts: the
 * lifecycle commands and the files they run.
 */

import type { CodeFacts } from '../code/code-facts.js';

/** Getting a runtime: its installer (curl / PowerShell / the npm package), or a fetched runner (`npx -y bun@1 x.js`). */
const RUNTIME_FETCH = /\bbun\.sh\/install\b|\bdeno\.land\/(?:x\/)?install\b|\bdeno\.land\/install\.(?:sh|ps1)\b|\b(?:npm|pnpm|yarn)\s+(?:i|install|add)\s+(?:-g|--global|global)\s+(?:bun|deno)\b|\bnpx\s+(?:(?:-y|--yes|-p|--package)\s+)*(?:bun|deno)(?:@[\w.^~*-]+)?\s|\b(?:npm\s+exec|pnpm\s+dlx)\s+(?:--\s+)?(?:bun|deno)(?:@[\w.^~*-]+)?\s/;
/** A script file name as it appears in a command or a string. */
const SCRIPT_FILE = /(?:^|[\s'"`/\\])([\w.-]+\.(?:[cm]?js|[cm]?ts))\b/g;

export interface ForeignRuntimeRun {
  /** The file (or package.json) that fetches the runtime. */
  file: string;
  line: number;
  evidence: string;
}

/** Calls that start a process, and the path builders a file to run is named in. */
const PROCESS_CALL = /(?:^|\.)(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|execa|execaSync)$|^execa$/;
const PATH_CALL = /^path\.(?:join|resolve|posix\.join)$/;

/**
 * Whether an install step fetches Bun or Deno and runs one of the package's own script files
 * (`ownFiles`: base names of the package's script files). `commands` are lifecycle commands, read as
 * run; `files` are install-time JavaScript files, where the fetch must be a command the code runs
 * and the file must be named to a process call or a path builder (a message that tells the user
 * to install Bun is neither).
 */
export function foreignRuntimeRun(commands: readonly string[], files: readonly { file: string; facts: CodeFacts }[], ownFiles: ReadonlySet<string>): ForeignRuntimeRun | null {
  for (const command of commands) {
    const fetch = RUNTIME_FETCH.exec(command);
    if (fetch === null) continue;
    const runs = [...command.matchAll(SCRIPT_FILE)].map((m) => m[1] ?? '').find((name) => ownFiles.has(name));
    if (runs !== undefined) return { file: 'package.json', line: 0, evidence: `${command.slice(0, 160)}` };
  }
  for (const { file, facts } of files) {
    const self = file.split('/').pop() ?? file;
    const fetch = facts.calls.find((c) => PROCESS_CALL.test(c.callee) && RUNTIME_FETCH.test(`${[...c.args.map((a) => a ?? ''), ...c.argStrings].join(' ')} `));
    if (fetch === undefined) continue;
    const runs = facts.calls
      .filter((c) => PROCESS_CALL.test(c.callee) || PATH_CALL.test(c.callee))
      .flatMap((c) => c.argStrings)
      .map((v) => v.split(/[\\/\s]/).pop() ?? '')
      .find((name) => name !== self && ownFiles.has(name) && /\.(?:[cm]?js|[cm]?ts)$/.test(name));
    if (runs === undefined) continue;
    const text = RUNTIME_FETCH.exec(`${[...fetch.args.map((a) => a ?? ''), ...fetch.argStrings].join(' ')} `)?.[0].trim() ?? 'runtime installer';
    return { file, line: fetch.line, evidence: `${text} … runs ${runs}` };
  }
  return null;
}
