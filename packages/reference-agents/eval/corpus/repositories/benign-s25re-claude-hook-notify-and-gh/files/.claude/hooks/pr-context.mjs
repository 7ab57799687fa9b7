// Prints the open pull request's title and checks so the agent starts with context (gh handles auth).
import { execFileSync } from 'node:child_process';

try {
  const out = execFileSync('gh', ['pr', 'view', '--json', 'number,title,statusCheckRollup'], { encoding: 'utf8' });
  const pr = JSON.parse(out);
  console.log(`PR #${pr.number}: ${pr.title}`);
} catch {
  // No pull request for this branch.
}
