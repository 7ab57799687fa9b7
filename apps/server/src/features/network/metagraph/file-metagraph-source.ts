import { readFile, stat } from 'node:fs/promises';
import { NETUID, type MetagraphSnapshot } from '@vigil/core';
import { MetagraphError, errorSummary } from './metagraph-error.js';
import { validateMetagraphSnapshot, type MetagraphSource } from './metagraph-source.js';

export interface FileMetagraphSourceOptions {
  /** The netuid the file must describe; a snapshot of another subnet would grant the wrong permits. */
  netuid?: number;
}

/**
 * A metagraph snapshot kept in a JSON file (VIGIL_METAGRAPH_FILE), re-read whenever the file
 * changes on disk. Operators replace it with `writeSnapshotFile` or by hand.
 */
export class FileMetagraphSource implements MetagraphSource {
  readonly path: string;
  readonly netuid: number;
  readonly description: string;
  #cached: { stamp: string; snapshot: MetagraphSnapshot } | null = null;

  constructor(path: string, options: FileMetagraphSourceOptions = {}) {
    if (typeof path !== 'string' || path.length === 0) throw new TypeError('path: expected a non-empty file path');
    const netuid = options.netuid ?? NETUID;
    if (!Number.isInteger(netuid) || netuid < 0 || netuid > 0xffff) {
      throw new RangeError(`options.netuid: expected an integer 0-65535, got ${String(netuid)}`);
    }
    this.path = path;
    this.netuid = netuid;
    this.description = `metagraph file ${path}`;
  }

  async snapshot(): Promise<MetagraphSnapshot> {
    let stamp: string;
    try {
      const info = await stat(this.path);
      if (!info.isFile()) throw new Error('not a regular file');
      // The inode catches atomic replacements (write + rename) even when size and mtime coincide.
      stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch (error) {
      throw this.#unreadable(error);
    }
    if (this.#cached?.stamp === stamp) return this.#cached.snapshot;

    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      throw this.#unreadable(error);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new MetagraphError(
        'snapshot_invalid',
        this.path,
        `metagraph file ${this.path}: not valid JSON: ${errorSummary(error)}`,
        { cause: error },
      );
    }
    const snapshot = validateMetagraphSnapshot(value, `metagraph file ${this.path}`, this.netuid);
    this.#cached = { stamp, snapshot };
    return snapshot;
  }

  #unreadable(error: unknown): MetagraphError {
    return new MetagraphError(
      'file_unreadable',
      this.path,
      `metagraph file ${this.path}: cannot be read: ${errorSummary(error)}`,
      { cause: error },
    );
  }
}
