import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';

// `git config --global core.hooksPath DIR` (or `--system`, or `init.templateDir`, whose hooks are copied
// into every new clone), in a shell line or as an argument list (`["git", "config", "--global", …]`).
const GLOBAL_HOOKS = /\bgit\b["'\s,]+(?:-C\s+\S+\s+)?config["'\s,]+(?:--[\w-]+["'\s,]+)*?--(?:global|system)["'\s,]+(?:--[\w-]+["'\s,]+)*?(?:core\.hooksPath|init\.templateDir)\b/i;
/** The names git runs hooks by. */
export const GIT_HOOK_NAME = /(?:^|\/)(?:pre-commit|prepare-commit-msg|commit-msg|post-commit|pre-push|post-checkout|post-merge|pre-rebase|post-rewrite|pre-auto-gc|reference-transaction|fsmonitor-watchman)(?:\.sh)?$/;

/**
 * A script that points git's hooks for every repository of the user (or the machine) at a directory:
 * from then on each commit, checkout or push anywhere runs what is there. A repository's own
 * `core.hooksPath` (no `--global`) is how projects share formatter hooks and is not matched.
 */
export function globalGitHooksFinding(file: string, text: string, subject: string): AgentFinding | null {
  const m = GLOBAL_HOOKS.exec(text);
  if (m === null) return null;
  return referenceFinding({ category: 'persistence', severity: 'HIGH', title: `${subject} points git hooks of every repository at its own directory (global core.hooksPath)`, file, line: lineLocator(text)(m.index), evidence: (text.slice(m.index).split('\n')[0] ?? '').slice(0, 200) });
}
