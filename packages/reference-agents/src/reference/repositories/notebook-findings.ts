import type { AgentFinding } from '@vigil/core';
import { notebookSource } from '../code/notebook-source.js';
import { pythonFacts } from '../code/python-facts.js';
import { EVAL_CALLEE, EXEC_CALLEE } from '../packages/code-findings.js';
import { runCodeFindings } from './run-code-findings.js';
import { shellCommandFindings } from './shell-command-findings.js';

// Findings that are steps of an attack: a run of hidden or fetched code, data sent away, credentials read.
const ATTACK_STEP = new Set(['remote_code_execution', 'exfiltration', 'credential_access', 'obfuscation']);

const STAGING_HOST_TITLE = /^URL of a host used to stage payloads or collect data\b/;
// Python that runs or loads code: processes, evaluation, deserializers that run code, module and library
// loading, making a file executable.
const RUNS_CODE = /(^|\.)(pickle|cPickle|dill|joblib|marshal|shelve|cloudpickle)\.(load|loads|Unpickler)$|^(torch\.load|numpy\.load|np\.load|runpy\.\w+|importlib\.\w+|__import__|imp\.load_\w+|zipimport\.\w+|ctypes\.\w+|os\.chmod|sys\.path\.(insert|append)|IPython\.get_ipython|get_ipython)$/;
// A shell escape that runs a program file or a shell (`!python x.py`, `!bash x.sh`, `!chmod +x x`, `!./x`).
const SHELL_RUNS_FILE = /(?:^|[\s;&|(])(?:python3?|bash|sh|zsh|node|source|chmod|sudo|pip3?|\.\/)(?:\s|$)|(?:^|[\s;&|(])\.\/\S/;

/**
 * True when the notebook runs nothing it could have fetched (round s30, real false alarms): its Python
 * starts no process, evaluates nothing, loads no pickled or compiled code and no module by name, makes
 * nothing executable, and no shell escape runs a program file or a shell. tqdm's DEMO.ipynb downloads
 * a demo archive from its maintainer's host to show a progress bar, writes it to `os.devnull` and runs
 * nothing: a staging host's URL there is a download that is only read (MED), not a stage (HIGH).
 */
function runsNothing(python: string, shell: readonly { command: string }[]): boolean {
  if (shell.some((s) => SHELL_RUNS_FILE.test(s.command))) return false;
  const facts = pythonFacts(python);
  return !facts.calls.some((c) => EXEC_CALLEE.test(c.callee) || EVAL_CALLEE.test(c.callee) || RUNS_CODE.test(c.callee));
}

// The notebook file's line for a line of its joined program (the program's own line if none is known).
function fileLine(fileLines: readonly number[], line: number): number {
  const l = fileLines[line - 1];
  return l !== undefined && l > 0 ? l : line;
}

/**
 * A committed notebook's code, judged as code its reader runs (Run All): the packages agent's code
 * findings on the cells' Python, and the shell checks on its `!` escapes. A step of an attack in a cell
 * the notebook hides from view (collapsed source, `hide-input` tags) is one the reader cannot see
 * before running it: HIGH becomes CRIT there (hidden notebook cells as malware carriers, 2024–2025).
 */
export function notebookFindings(path: string, text: string): AgentFinding[] {
  if (!text.includes('"cells"')) return [];
  const nb = notebookSource(text);
  if (nb === null || nb.python.trim() === '') return [];
  const out: AgentFinding[] = [];
  let inert: boolean | undefined;
  for (let f of runCodeFindings(path.replace(/\.ipynb$/i, '.ipynb.py'), nb.python, 'notebook', 'python')) {
    if (f.severity === 'HIGH' && STAGING_HOST_TITLE.test(f.title) && !(f.line !== undefined && nb.hiddenLines.has(f.line)) && (inert ??= runsNothing(nb.python, nb.shell))) f = { ...f, severity: 'MED', evidence: `${f.evidence ?? ''} (the notebook runs nothing it fetches)` };
    const hidden = f.line !== undefined && nb.hiddenLines.has(f.line) && f.severity === 'HIGH' && ATTACK_STEP.has(f.category);
    out.push({ ...f, file: path, ...(f.line !== undefined ? { line: fileLine(nb.fileLines, f.line) } : {}), ...(hidden ? { severity: 'CRIT' as const, title: `${f.title} (in a notebook cell hidden from view)` } : {}) });
  }
  for (const s of nb.shell.slice(0, 200)) out.push(...shellCommandFindings(s.command, { file: path, line: fileLine(nb.fileLines, s.line), where: 'notebook shell command', automatic: false }));
  return out;
}
