import type { Command } from 'commander';
import { Context } from './context.js';
import type { Io } from './io.js';

/** The exit status the running command sets (docs/cli.md, "Exit status"). */
export interface RunState {
  exitCode: number;
}

export interface Kit {
  io: Io;
  state: RunState;
}

/**
 * A commander action with the command's Context in front of its arguments; a returned number is
 * the exit status.
 */
export function action<A extends unknown[]>(kit: Kit, fn: (ctx: Context, ...args: A) => Promise<number | void>): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const code = await fn(Context.of(kit.io, command), ...(args.slice(0, -1) as A));
    if (typeof code === 'number') kit.state.exitCode = code;
  };
}

/** `Examples:` after a command's help: every command shows how it is called. */
export function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${l}`)).join('\n')}\n`);
}
