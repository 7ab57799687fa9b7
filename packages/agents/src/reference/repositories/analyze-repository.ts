import type { AgentFinding } from '@vigil/core';
import { lockfileFormatOf } from '@vigil/lockfiles';
import type { AnalyzeInput, TrackAnalyzer } from '../common/analyzer.js';
import { DEFAULT_FILE_WALK_LIMITS, listArtifactFiles, readArtifactText } from '../common/artifact-files.js';
import { resultFromFindings } from '../common/score-findings.js';
import { lockfileFindings, type KnownPackageLookup } from './lockfile-findings.js';
import { isSkippedRepositoryDirectory, isWorkflowPath } from './repository-paths.js';
import { secretFindings } from './secret-findings.js';
import { workflowFindings } from './workflow-findings.js';

export interface RepositoryAnalyzerOptions {
  /**
   * What Vigil knows of package versions beyond the list compiled into the agent
   * (`known/known-compromised.ts`): published BLOCK and WARN verdicts. The `vigil-agent-input/1`
   * object carries none today; a later input version may, and its agent main passes them here.
   */
  knownPackages?: KnownPackageLookup;
}

// Secrets are looked for in text files up to this size: minified bundles and data dumps above it
// are rarely where a credential is committed by hand, and reading them dominates the run time.
const MAX_SECRET_SCAN_BYTES = 1024 * 1024;

/** A repositories analyzer with an optional source of known verdicts. */
export function createRepositoryAnalyzer(options: RepositoryAnalyzerOptions = {}): TrackAnalyzer {
  return async (input: AnalyzeInput) => {
    // Installed dependencies are not walked at all: a checkout with node_modules has more files there than its own.
    const { files } = await listArtifactFiles(input.dir, DEFAULT_FILE_WALK_LIMITS, isSkippedRepositoryDirectory);
    const findings: AgentFinding[] = [];
    for (const file of files) {
      const lockfile = lockfileFormatOf(file.path) !== null || file.path.endsWith('bun.lockb');
      const workflow = isWorkflowPath(file.path);
      if (!lockfile && !workflow && file.size > MAX_SECRET_SCAN_BYTES) continue;
      // Texts are read one at a time and dropped: a large checkout never sits in memory whole.
      const text = await readArtifactText(file);
      if (text === null) continue;
      if (lockfile) {
        // Lockfiles hold integrity hashes, which token patterns would match by chance.
        findings.push(...lockfileFindings(file.path, text, options.knownPackages));
        continue;
      }
      if (workflow) findings.push(...workflowFindings(file.path, text));
      findings.push(...secretFindings(file.path, text));
    }
    return resultFromFindings(findings);
  };
}

/** The repositories reference agent: a source checkout's lockfiles, CI workflows and committed secrets. */
export const analyzeRepository: TrackAnalyzer = createRepositoryAnalyzer();
