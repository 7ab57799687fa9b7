import Table from 'cli-table3';
import picocolors from 'picocolors';

type Colors = ReturnType<typeof picocolors.createColors>;
import type { Io } from './io.js';

/** Colour on a terminal only, never with NO_COLOR (https://no-color.org); FORCE_COLOR forces it on a pipe. */
export function colourEnabled(io: Io, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  return io.stdoutIsTTY === true && io.env.TERM !== 'dumb';
}

type Verdictish = string | null | undefined;

/** What every command prints through: JSON for scripts, tables and colour for people. */
export class Output {
  readonly c: Colors;
  readonly colour: boolean;

  constructor(
    private readonly io: Io,
    readonly json: boolean,
    noColorFlag: boolean,
    private readonly compact = false,
  ) {
    this.colour = colourEnabled(io, noColorFlag);
    this.c = picocolors.createColors(this.colour);
  }

  /** A value as JSON (two-space indent, or one line with --compact; one trailing newline). */
  printJson(value: unknown): void {
    this.io.stdout(`${JSON.stringify(value, null, this.compact ? undefined : 2)}\n`);
  }

  line(text = ''): void {
    this.io.stdout(`${text}\n`);
  }

  /** A note for people on stderr (never mixed into stdout, which a script may parse). */
  note(text: string): void {
    this.io.stderr(`${text}\n`);
  }

  table(head: string[], rows: (string | number | null | undefined)[][]): void {
    const table = new Table({
      head: head.map((h) => this.c.bold(h)),
      // cli-table3 colours through its own dependency otherwise: keep colour decisions here.
      style: { head: [], border: [], compact: true },
      ...(this.colour ? {} : { chars: PLAIN_CHARS }),
    });
    if (rows.length === 0) {
      this.line(this.c.dim('(none)'));
      return;
    }
    for (const row of rows) table.push(row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
    this.io.stdout(`${table.toString()}\n`);
  }

  /** `key  value` lines, keys aligned. */
  fields(entries: [string, string | number | boolean | null | undefined][]): void {
    const width = Math.max(...entries.map(([k]) => k.length));
    for (const [key, value] of entries) this.line(`${this.c.dim(key.padEnd(width))}  ${value === null || value === undefined ? '-' : String(value)}`);
  }

  verdict(verdict: Verdictish): string {
    if (verdict === 'BLOCK') return this.c.red(this.c.bold('BLOCK'));
    if (verdict === 'WARN') return this.c.yellow('WARN');
    if (verdict === 'ALLOW') return this.c.green('ALLOW');
    return verdict ?? '-';
  }
}

// ASCII borders on a pipe or with NO_COLOR: logs and terminals without Unicode fonts read them as they are.
const PLAIN_CHARS = {
  top: '-', 'top-mid': '+', 'top-left': '+', 'top-right': '+',
  bottom: '-', 'bottom-mid': '+', 'bottom-left': '+', 'bottom-right': '+',
  left: '|', 'left-mid': '+', mid: '-', 'mid-mid': '+',
  right: '|', 'right-mid': '+', middle: '|',
};

/**
 * A date as the UTC instant, second precision (`2026-11-21 10:00:00Z`), or `-`. A string is an
 * offset timestamp as the signed miner/validator answers carry them (not parsed to Date by the SDK).
 */
export function when(value: Date | string | null | undefined): string {
  if (!value) return '-';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

/** Shortens a long hash or hotkey for a table cell; `--json` keeps it whole. */
export function short(value: string | null | undefined, keep = 16): string {
  if (!value) return '-';
  return value.length > keep + 1 ? `${value.slice(0, keep)}…` : value;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner on stderr while long work runs, on a terminal only (never in a log or a pipe). */
export class Progress {
  private timer: ReturnType<typeof setInterval> | null = null;
  private text = '';
  private frame = 0;

  constructor(private readonly io: Io) {}

  get active(): boolean {
    return this.io.stderrIsTTY === true;
  }

  start(text: string): void {
    if (!this.active) return;
    this.text = text;
    this.draw();
    if (!this.timer) {
      this.timer = setInterval(() => this.draw(), 80);
      this.timer.unref?.();
    }
  }

  update(text: string): void {
    this.text = text;
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.io.stderr('\r\x1b[2K');
  }

  private draw(): void {
    this.frame = (this.frame + 1) % FRAMES.length;
    this.io.stderr(`\r\x1b[2K${FRAMES[this.frame]} ${this.text}`);
  }
}
