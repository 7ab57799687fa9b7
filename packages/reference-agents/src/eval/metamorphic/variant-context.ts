import type { Rng } from './rng.js';

/** One code file of a sample being rewritten, with what a transformation may need of the rest. */
export interface FileContext {
  /** Path relative to the sample's `files/` directory, `/`-separated. */
  path: string;
  text: string;
  rng: Rng;
  /** Every file of the sample (original and added so far), relative paths → text. */
  files: Map<string, string>;
  /** The sample's root `package.json` says `"type": "module"`. */
  esmPackage: boolean;
}

/** The rewritten file, or null when the transformation found nothing to rewrite in it. */
export type FileRewrite = string | null;

/** The directory part of a relative path (`''` at the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** A file name in `dir` not used by the sample (`consts.py`, then `consts_1.py`, ...). */
export function freeSibling(files: Map<string, string>, dir: string, stem: string, ext: string): string {
  for (let n = 0; ; n++) {
    const name = `${stem}${n === 0 ? '' : `_${n}`}`;
    const path = dir === '' ? `${name}${ext}` : `${dir}/${name}${ext}`;
    if (!files.has(path)) return path;
  }
}


const WORDS = ['run', 'h', 'util', 'core', 'task', 'step', 'job', 'q', 'z', 'x', 'm', 'lib', 'api', 'ctx', 'val', 'item'];

/** A fresh identifier that appears nowhere in the sample's text. */
export function freshName(ctx: FileContext, used: Set<string>, hint?: string): string {
  // The suffix range grows with the attempts, so a file with many sites still finds free names.
  for (let attempt = 0; ; attempt++) {
    const base = hint ?? ctx.rng.pick(WORDS);
    const name = `${base}${ctx.rng.int(90 * (1 + Math.floor(attempt / 20)) ** 2) + 10}`;
    if (used.has(name)) continue;
    let seen = false;
    for (const t of ctx.files.values()) if (t.includes(name)) seen = true;
    if (seen) continue;
    used.add(name);
    return name;
  }
}
