import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(os.homedir(), 'notes');

// `file://` resources are served from the notes directory: the path made from the URI is checked
// with a bare prefix test, so `file://../notes_private/x` and links inside the directory escape it.
export function readResource(uri) {
  const resolvedPath = path.resolve(ROOT, uri.slice('file://'.length));
  if (!resolvedPath.startsWith(ROOT)) throw new Error('outside the notes directory');
  return fs.readFileSync(resolvedPath, 'utf8');
}
