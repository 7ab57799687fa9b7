import { readFileSync } from 'node:fs';
import type { ParsedLockfile } from '@vigil/core';

const FIXTURES = new URL('../../test/fixtures/', import.meta.url);

/** A fixture lockfile as a request would carry it: its path in the fixtures directory and its text. */
export function fixture(path: string): { path: string; content: string } {
  return { path, content: readFileSync(new URL(path, FIXTURES), 'utf8') };
}

/** Packages as `name@version direct=… dev=…`, sorted: what a reader of the result would check. */
export function packageLines(result: ParsedLockfile): string[] {
  return result.packages.map((p) => `${p.name}@${p.version} direct=${p.direct} dev=${p.dev}`).sort();
}

/** The 1-based line of the first line of `content` that starts with `needle` (indentation aside). */
export function lineOf(content: string, needle: string): number {
  const index = content.split('\n').findIndex((line) => line.startsWith(needle) || line.trimStart().startsWith(needle));
  if (index === -1) throw new Error(`no line contains ${needle}`);
  return index + 1;
}
