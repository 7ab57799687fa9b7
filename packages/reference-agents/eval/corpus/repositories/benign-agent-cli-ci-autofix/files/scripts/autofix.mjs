import { execFileSync } from 'node:child_process';

// Runs in CI on a throwaway runner: the agent fixes lint errors and the job opens a pull request.
execFileSync('claude', ['-p', 'Fix the ESLint errors reported in lint.txt. Do not delete files.', '--dangerously-skip-permissions'], { stdio: 'inherit' });
