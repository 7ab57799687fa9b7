import { parse, TomlError } from 'smol-toml';
import { lockfileMalformed } from './lockfile-errors.js';
import { isRecord } from './value-shapes.js';

/**
 * A parsed TOML lockfile (poetry.lock, uv.lock). The TOML parser keeps no positions, so lines are
 * found in the text: the n-th `[[package]]` header is where the n-th package starts.
 */
export class TomlDocument {
  private packageLines: number[] | null = null;

  private constructor(
    readonly path: string,
    private readonly text: string,
    readonly value: Record<string, unknown>,
  ) {}

  static parse(path: string, text: string): TomlDocument {
    let value: unknown;
    try {
      value = parse(text);
    } catch (error) {
      if (!(error instanceof TomlError)) throw error;
      throw lockfileMalformed(path, error.line, `invalid TOML: ${error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '')}`);
    }
    if (!isRecord(value)) throw lockfileMalformed(path, 1, 'expected a TOML table');
    return new TomlDocument(path, text, value);
  }

  /** The line of the `[[package]]` header of package `index` (0-based), or 1. */
  packageLine(index: number): number {
    if (!this.packageLines) {
      this.packageLines = [];
      const lines = this.text.split('\n');
      for (let i = 0; i < lines.length; i++) if (/^\s*\[\[\s*package\s*\]\]\s*(#.*)?$/.test(lines[i]!)) this.packageLines.push(i + 1);
    }
    return this.packageLines[index] ?? 1;
  }

  /** The line of a top-level `key = …` or `[key]`, or 1. */
  keyLine(key: string): number {
    const lines = this.text.split('\n');
    const assignment = new RegExp(`^\\s*(${key}\\s*=|\\[\\s*${key}\\s*\\])`);
    const found = lines.findIndex((line) => assignment.test(line));
    return found === -1 ? 1 : found + 1;
  }

  malformedPackage(index: number, message: string): Error {
    return lockfileMalformed(this.path, this.packageLine(index), message);
  }

  malformedKey(key: string, message: string): Error {
    return lockfileMalformed(this.path, this.keyLine(key), message);
  }
}
