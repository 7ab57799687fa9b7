import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';

/** Everything a command touches outside itself, so tests (and embedders) can run `vigil` in-process. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Whether stdout / stderr are terminals: colour and tables follow stdout, the progress indicator stderr. */
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** Standard input read to its end (for `-` file arguments and `vigil login` without `--token`). */
  readStdin?: () => Promise<string>;
  fetch?: typeof globalThis.fetch;
  /** The home directory (for ~/.config/vigil); defaults to the user's. */
  home?: string;
  /**
   * Called by the commands that run until stopped (`events tail`, `webhooks listen`): resolves when
   * the user interrupts (Ctrl-C), so they end cleanly instead of being killed mid-write.
   */
  interrupted?: () => Promise<void>;
}

export function processIo(): Io {
  // `vigil … | head` closes the pipe early: that is the reader's choice, not an error to report.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    readStdin: async () => readFileSync(0, 'utf8'),
    home: homedir(),
    // Registered only by the commands that ask, so Ctrl-C still ends every other command at once.
    interrupted: () =>
      new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      }),
  };
}
