import type { Command } from 'commander';
import type { Context } from './context.js';
import type { Io } from './io.js';

/** The exit status the running command sets (docs/cli.md, "Exit status"). */
export interface RunState {
  exitCode: number;
  /** `vigil npm …` (and pnpm, yarn): the words after the wrapper's name, for the package manager. */
  toolArgs?: string[];
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
    // Imported here, not above: the program's module graph stays without the SDK until a command runs.
    const { Context } = await import('./context.js');
    const code = await fn(Context.of(kit.io, command), ...(args.slice(0, -1) as A));
    if (typeof code === 'number') kit.state.exitCode = code;
  };
}

const EXAMPLES = new WeakMap<Command, string[]>();

/** `Examples:` after a command's help: every command shows how it is called (added by completeHelp). */
export function examples(command: Command, lines: string[]): Command {
  EXAMPLES.set(command, lines);
  return command;
}

function hidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

/**
 * Ends every command's help, once the tree is built: the options of its default subcommand
 * (`vigil rounds --limit 5` runs `rounds list`), then its examples; a command that holds
 * subcommands and has no examples of its own shows the first example of each subcommand.
 */
export function completeHelp(command: Command): void {
  for (const sub of command.commands) completeHelp(sub);
  const defaultName = (command as unknown as { _defaultCommandName?: string })._defaultCommandName;
  const byDefault = command.commands.find((c) => c.name() === defaultName);
  if (byDefault) {
    command.addHelpText('after', () => {
      const help = byDefault.createHelp();
      const options = help.visibleOptions(byDefault).filter((o) => o.long !== '--help');
      if (options.length === 0) return '';
      const width = Math.max(...options.map((o) => help.optionTerm(o).length));
      const lines = options.map((o) => `  ${help.optionTerm(o).padEnd(width)}  ${help.optionDescription(o)}`);
      return `\nOptions of ${byDefault.name()}, the subcommand run when none is named:\n${lines.join('\n')}`;
    });
  }
  const lines = EXAMPLES.get(command) ?? command.commands.filter((c) => !hidden(c)).flatMap((c) => EXAMPLES.get(c)?.slice(0, 1) ?? []);
  if (lines.length > 0) command.addHelpText('after', `\nExamples:\n${lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${l}`)).join('\n')}\n`);
}
