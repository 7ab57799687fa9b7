import { CommanderError } from 'commander';
import { EXIT } from './exit-codes.js';
import type { Io } from './io.js';
import { buildProgram, wrapperIndex } from './program.js';

/**
 * Runs one `vigil` command line (without the program name) and returns its exit status
 * (docs/cli.md, "Exit status"). Output goes through `io`, so it runs in-process as well.
 * Only the command's own module is loaded (src/program.ts), and the SDK's error classes only when
 * there is an error to describe.
 */
export async function run(argv: string[], io: Io): Promise<number> {
  const state: { exitCode: number; toolArgs?: string[] } = { exitCode: EXIT.ok };
  // `vigil npm …`: vigil parses up to the wrapper's name; the rest is npm's, passed as it is.
  const wrapper = wrapperIndex(argv);
  const own = wrapper === null ? argv : argv.slice(0, wrapper + 1);
  if (wrapper !== null) state.toolArgs = argv.slice(wrapper + 1);
  try {
    const program = await buildProgram(io, state, own);
    await program.parseAsync(own, { from: 'user' });
    return state.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version were printed already. `vigil help [command]` is `--help` (exit 0); a bare
      // `vigil` prints help on stderr (commander's exit code 1 there) and is a usage error.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      if (err.code === 'commander.help' && err.exitCode === 0) return EXIT.ok;
      return EXIT.usage;
    }
    return (await import('./report.js')).report(err, io);
  }
}
