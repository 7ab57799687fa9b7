/**
 * Package code that takes over a repository's CI: it registers a self-hosted GitHub Actions runner
 * (the runner's `config.sh --url … --token …`, or the API that mints a registration or JIT token),
 * or writes a workflow file into `.github/workflows` and pushes it (by `git push` or through the
 * contents API). Shai-Hulud 2.0 (npm, November 2025) did both with stolen tokens: a runner named
 * SHA1HULUD on the victim's machine and a `discussion.yaml` workflow that runs the discussion's body
 * on it, a backdoor anyone could open by posting a discussion. A library or an install step never
 * needs either. Scaffolding tools write workflow files too, so a write alone is not enough: the
 * push (or the runner) is what makes it a takeover.
 */
import type { CodeFacts } from '../code/code-facts.js';
import { spelledPath } from '../code/spelled-path.js';

/** The runner's configuration script given a registration token (`./config.sh --url … --token …`, `config.cmd`). */
const RUNNER_CONFIG = /\bconfig\.(?:sh|cmd)\b[^\n]*--token\b|--token\b[^\n]*\bconfig\.(?:sh|cmd)\b/;
/** The REST routes that mint a runner registration token or a just-in-time runner configuration. */
const RUNNER_TOKEN_API = /\/actions\/runners\/(?:registration-token|generate-jitconfig)\b/;
/** A workflow file's place in a repository. */
const WORKFLOW_DIR = /\.github[\\/]+workflows\b/;
/** Pushing commits: the git command, or the contents API writing under `.github/workflows`. */
const GIT_PUSH = /\bgit\b[^\n]{0,80}\bpush\b/;
const CONTENTS_API_WORKFLOW = /\/contents\/\.github\/workflows\b/;
/** Calls that start a process. */
const PROCESS = /(?:^|\.)(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|execa|execaSync|run|call|check_call|check_output|Popen|system)$|^execa$/;
/** File writes and copies (JavaScript and Python). */
const WRITE = /(?:^|\.)(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|outputFile|outputFileSync|write_text|write_bytes|copyfile|copy2?)$|^open$/;

export interface CiTakeover {
  line: number;
  title: string;
  evidence: string;
}

/** The first CI takeover in a file, or null. */
export function ciTakeover(facts: CodeFacts, text: string): CiTakeover | null {
  const values = facts.strings.map((s) => s.value);
  const lineOf = (re: RegExp) => facts.strings.find((s) => re.test(s.value))?.line ?? facts.calls.find((c) => c.args.some((a) => a !== null && re.test(a)))?.line ?? 1;
  // Commands are often built by concatenation (`'./config.sh --url ' + url + ' --token ' + t`): read the
  // strings joined, and the file with its string joins removed.
  const joined = values.join(' ');
  const flat = spelledPath(text);
  const runner = RUNNER_CONFIG.exec(joined) ?? RUNNER_CONFIG.exec(flat) ?? RUNNER_TOKEN_API.exec(joined);
  if (runner !== null) {
    const re = RUNNER_TOKEN_API.test(runner[0]) ? RUNNER_TOKEN_API : /\bconfig\.(?:sh|cmd)\b|--token\b/;
    return { line: lineOf(re), title: 'Registers a self-hosted GitHub Actions runner', evidence: runner[0].slice(0, 200) };
  }
  if (!WORKFLOW_DIR.test(flat)) return null;
  const viaApi = values.some((v) => CONTENTS_API_WORKFLOW.test(v)) || CONTENTS_API_WORKFLOW.test(flat);
  const writes = facts.calls.filter((c) => WRITE.test(c.callee));
  // The push run as a command (`execSync('git add … && git push')`, `spawn('git', ['push'])`), not named in a message.
  const pushes = facts.calls.some((c) => PROCESS.test(c.callee) && GIT_PUSH.test([...c.args.map((a) => a ?? ''), ...c.argStrings].join(' ')));
  if (viaApi || (writes.length > 0 && pushes)) {
    const at = writes.find((c) => [c.argPath ?? '', ...c.argStrings].some((s) => WORKFLOW_DIR.test(s))) ?? writes[0];
    return { line: at?.line ?? lineOf(WORKFLOW_DIR), title: 'Writes a GitHub Actions workflow into a repository and pushes it', evidence: viaApi ? 'PUT …/contents/.github/workflows/…' : `${at?.callee ?? 'write'}(.github/workflows/…) then git push` };
  }
  return null;
}
