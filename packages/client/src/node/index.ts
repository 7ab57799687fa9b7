/// <reference types="node" />
// @vigil/client/node: helpers that need Node's file system, kept off the main entry so that
// browsers and edge runtimes never load them.
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * A file as a Blob backed by the file (Node ≥ 19.8 `fs.openAsBlob`): `vigil.artifacts.upload`
 * sends it with its Content-Length, reading it as it goes rather than into memory, and reads it
 * again from the start on a retry.
 */
export async function fileFromPath(path: string): Promise<Blob> {
  if (typeof path !== 'string' || path === '') throw new TypeError('path: expected a file path');
  const info = await stat(path);
  if (!info.isFile()) throw new TypeError(`path: ${path} is not a file`);
  return openAsBlob(path);
}
