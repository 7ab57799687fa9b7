import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { EditorExecutable } from './agent-config-findings.js';

/**
 * A workspace setting that makes the editor run a program committed in the repository (the
 * "malicious workspace settings" technique: `php.validate.executablePath`, `git.path`, an
 * interpreter path pointing into the checkout; the extension starts it as soon as the folder is
 * open, before anything is read). MED by itself — some projects ship a wrapper script on purpose —
 * and the program itself is analyzed as code run automatically.
 */
export function editorExecutableFinding(settingsPath: string, program: EditorExecutable, target: string): AgentFinding {
  return referenceFinding({
    category: 'agent_config',
    severity: 'MED',
    title: 'workspace settings make the editor run a program committed in the repository',
    file: settingsPath,
    line: program.line,
    evidence: `${program.key}: ${target}`,
  });
}
