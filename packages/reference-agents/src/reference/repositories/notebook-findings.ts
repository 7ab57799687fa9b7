import type { AgentFinding } from '@vigil/core';
import { notebookSource } from '../code/notebook-source.js';
import { runCodeFindings } from './run-code-findings.js';
import { shellCommandFindings } from './shell-command-findings.js';

// Findings that are steps of an attack: a run of hidden or fetched code, data sent away, credentials read.
const ATTACK_STEP = new Set(['remote_code_execution', 'exfiltration', 'credential_access', 'obfuscation']);

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
  for (const f of runCodeFindings(path.replace(/\.ipynb$/i, '.ipynb.py'), nb.python, 'notebook', 'python')) {
    const hidden = f.line !== undefined && nb.hiddenLines.has(f.line) && f.severity === 'HIGH' && ATTACK_STEP.has(f.category);
    out.push({ ...f, file: path, ...(hidden ? { severity: 'CRIT' as const, title: `${f.title} (in a notebook cell hidden from view)` } : {}) });
  }
  for (const s of nb.shell.slice(0, 200)) out.push(...shellCommandFindings(s.command, { file: path, line: s.line, where: 'notebook shell command', automatic: false }));
  return out;
}
