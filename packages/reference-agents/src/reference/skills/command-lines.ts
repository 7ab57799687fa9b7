/**
 * What the readers that write a script's calls as the shell command lines they amount to share
 * (js-commands.ts for JavaScript, python-commands.ts for Python): a bounded rendering of values as
 * words (`%` for a value not known, `$name` for a name whose value is not), the quoting of a word, and
 * the sheet of lines the commands are written on.
 */

/** Values a list or an object renders to at the most. */
export const MAX_VALUES = 16;
// Nodes one rendering visits at the most: lists of names of lists would otherwise multiply.
const RENDER_STEPS = 400;

/** Renders a node's words given how to render its parts (`again`: all their words; `one`: the first). */
export type RenderNode<N> = (node: N, again: (n: N | null | undefined) => string[], one: (n: N | null | undefined) => string) => string[];

/** A rendering of values as words, each bounded to RENDER_STEPS nodes and a depth of 8 (`%` past them). */
export function boundedRender<N>(renderNode: RenderNode<N>): (node: N | null | undefined) => string[] {
  let steps = 0;
  const render = (node: N | null | undefined, depth: number): string[] => {
    if (depth === 0) steps = 0;
    if (!node || depth > 8 || ++steps > RENDER_STEPS) return ['%'];
    const again = (n: N | null | undefined) => render(n, depth + 1);
    return renderNode(node, again, (n) => again(n)[0] ?? '%');
  };
  return (node) => render(node, 0);
}

/** A name: the words of its value (`$name` when none is known), else each value its loop gives it, else `$name`. */
export function nameWords<N>(name: string, value: N | undefined, loop: N | undefined, again: (n: N) => string[]): string[] {
  if (value !== undefined) {
    const words = again(value);
    return words.every((v) => v === '%') ? [`$${name}`] : words;
  }
  return loop !== undefined ? again(loop) : [`$${name}`];
}

/** The value that holds a file's bytes (`$(cat …)`): an encoder or wrapper of the bytes still carries them. */
export function bytesIn(values: readonly string[]): string | undefined {
  return values.find((v) => v.includes('$(cat '));
}

/** The value among several that holds a file's bytes, else the first. */
export function contentOf(values: readonly string[]): string {
  return bytesIn(values) ?? values[0] ?? '%';
}

/** A value as one shell word: as it is when it needs no quoting, else single-quoted. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./~*$-]+$/.test(value) && !value.includes('$(') ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The first of some values as one shell word. */
export function firstWord(values: readonly string[]): string {
  return shellWord(values[0] ?? '%');
}

/** The command lines of a file, one entry a source line (0-based); commands of one line are joined with ` ; `. */
export class CommandSheet {
  private readonly lines: string[] = [];
  constructor(private readonly lineAt: (offset: number) => number) {}

  add(offset: number, command: string): void {
    const i = this.lineAt(offset) - 1;
    this.lines[i] = this.lines[i] === undefined ? command : `${this.lines[i]} ; ${command}`;
  }

  /** The lines written (a line without a command is left a hole, as `map` leaves it). */
  written(): string[] {
    return this.lines.map((l) => l ?? '');
  }
}
