import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/program.js';
import { run } from '../src/run.js';

// docs/cli.md: every command's --help ends with examples. In-process: the whole tree, every path.
function paths(command: Command, prefix: string[] = []): string[][] {
  return command.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .flatMap((c) => [[...prefix, c.name()], ...paths(c, [...prefix, c.name()])]);
}

async function help(argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await run([...argv, '--help'], { stdout: (t) => void (stdout += t), stderr: () => {}, env: {} });
  return { code, stdout };
}

describe('help', () => {
  it('of every command has an Examples section', async () => {
    const program = await buildProgram({ stdout: () => {}, stderr: () => {}, env: {} }, { exitCode: 0 });
    const all = paths(program);
    expect(all.length).toBeGreaterThan(60);
    const without: string[] = [];
    for (const path of all) {
      const r = await help(path);
      expect(r.code, path.join(' ')).toBe(0);
      if (!/\nExamples:\n {2}(\$ |# )/.test(r.stdout)) without.push(path.join(' '));
    }
    expect(without).toEqual([]);
  });

  it("of a command with a default subcommand shows that subcommand's options", async () => {
    expect((await help(['rounds'])).stdout).toMatch(/--limit <n>\s+rounds, 1-200/);
  });
});
