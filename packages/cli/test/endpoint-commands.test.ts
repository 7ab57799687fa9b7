import { describe, expect, it } from 'vitest';
import { endpointTable } from '../../../test-support/endpoint-tables.js';
import { vigil } from './support/cli.js';

/**
 * docs/cli.md, "Endpoint → command": each command a row names exists in the built `vigil` and
 * answers `--help`. The server's test (apps/server/test/endpoint-coverage.test.ts) checks that every
 * route has a row; this one that no row names a command `vigil` does not have.
 */
const rows = endpointTable('cli.md', 'Endpoint → command');

/** `admin validators approve` of `vigil admin validators approve <hotkey>`: the words before the first argument or option. */
function commandWords(cell: string): string[] {
  const words: string[] = [];
  for (const token of cell.split(/\s+/).slice(1)) {
    if (!/^[a-z][a-z-]*$/.test(token)) break;
    words.push(token);
  }
  return words;
}

const commands = [...new Set(rows.flatMap((row) => [...row.cell.matchAll(/`(vigil [^`]+)`/g)].map((m) => commandWords(m[1]!).join(' '))))];

describe('docs/cli.md, "Endpoint → command"', () => {
  it('is read (a row per route, most with a command)', () => {
    expect(rows.length).toBeGreaterThan(80);
    expect(rows.filter((row) => row.code !== null).length).toBeGreaterThan(75);
    expect(commands).toContain('admin rounds close');
  });

  it.each(commands)('vigil %s --help', async (command) => {
    const words = command.split(' ');
    const result = await vigil([...words, '--help']);
    expect(result.code, result.stderr).toBe(0);
    // A misspelt subcommand would print its parent's help instead: the usage line names this one (`network|dashboard` with its alias).
    expect(result.stdout).toMatch(new RegExp(`^Usage: vigil ${command}(\\|[a-z-]+)? `));
    expect(result.stdout).toMatch(/\nExamples:\n {2}\$ vigil /);
  });
});
