import type { AgentFinding } from '@vigil/core';
import { posix } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';
import { shellCommandFindings } from './shell-command-findings.js';

/** `action.yml` / `action.yaml`: a GitHub Action this repository publishes (at its root or in a folder). */
export function isActionPath(path: string): boolean {
  return /(^|\/)action\.ya?ml$/.test(path) && !/(^|\/)\.github\/workflows\//.test(path);
}

export interface ActionResult {
  findings: AgentFinding[];
  /** The programs the action runs (`runs.main`, `runs.pre`, `runs.post`, and files its composite steps run), repository-relative. */
  entries: string[];
}

// `node|python|bash|sh <path under the action>`: through ${{ github.action_path }}, $GITHUB_ACTION_PATH or ./ ;
// or the path itself as the command (`"$GITHUB_ACTION_PATH/install.sh" -b …`, `. $GITHUB_ACTION_PATH/env.sh`):
// an executable script runs through its shebang.
const ACTION_PROGRAM = /(?:\b(?:node|python3?|bash|sh|deno\s+run(?:\s+-A)?|bun(?:\s+run)?|source)\s+|(?:^|[;&|(]|\b(?:then|do|exec)\s)\s*(?:\.\s+)?)["']?(?:\$\{\{\s*github\.action_path\s*\}\}|\$\{?GITHUB_ACTION_PATH\}?)\/([\w./-]+\.(?:[cm]?js|py|sh))\b/g;

function get(map: YAMLMap, key: string): Node | null {
  for (const pair of map.items) if (isScalar(pair.key) && String(pair.key.value) === key) return (pair.value as Node | null) ?? null;
  return null;
}

/**
 * An action's metadata: the JavaScript entry points of a `node*` action (analyzed as code by the
 * caller: a compromised action ships its payload in the bundled `dist/index.js`), and the shell
 * checks on every `run:` of a composite action, which runs with the caller's secrets in reach.
 */
export function actionFindings(path: string, text: string): ActionResult {
  const findings: AgentFinding[] = [];
  const entries: string[] = [];
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const root = doc.contents;
  if (doc.errors.length > 0 || !isMap(root)) return { findings, entries };
  const runs = get(root, 'runs');
  if (!isMap(runs)) return { findings, entries };
  const using = String((get(runs, 'using') as { value?: unknown } | null)?.value ?? '');
  const dir = posix.dirname(path) === '.' ? '' : `${posix.dirname(path)}/`;
  if (/^node\d+$/.test(using)) {
    for (const key of ['pre', 'main', 'post']) {
      const node = get(runs, key);
      if (isScalar(node) && typeof node.value === 'string') entries.push(posix.normalize(`${dir}${node.value}`));
    }
  }
  const steps = get(runs, 'steps');
  if (using === 'composite' && isSeq(steps)) {
    for (const step of steps.items) {
      if (!isMap(step)) continue;
      const run = get(step, 'run');
      if (!isScalar(run) || typeof run.value !== 'string' || !run.range) continue;
      const first = lines.linePos(run.range[0]).line;
      run.value.split('\n').forEach((line, i) => {
        if (line.length > 4000 || /^\s*#/.test(line)) return;
        // A composite step that runs a program the action ships (`node ${{ github.action_path }}/dist/index.js`):
        // that program is the action's code, read like a node action's `main`.
        for (const m of line.matchAll(ACTION_PROGRAM)) {
          const program = posix.normalize(`${dir}${m[1] ?? ''}`);
          if (!program.startsWith('..') && !entries.includes(program)) entries.push(program);
        }
        findings.push(...shellCommandFindings(line, { file: path, line: first + i + (run.type === 'PLAIN' || run.type === 'QUOTE_DOUBLE' || run.type === 'QUOTE_SINGLE' ? 0 : 1), where: 'composite action step', automatic: true }));
      });
    }
  }
  return { findings, entries };
}
