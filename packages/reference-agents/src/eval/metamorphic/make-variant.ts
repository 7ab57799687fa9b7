import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseJavaScript } from '../../reference/code/parse-javascript.js';
import { parsePython } from '../../reference/code/parse-python.js';
import { seededRng, seedOf } from './rng.js';
import type { Transformation } from './transforms.js';

const JS = /\.(m|c)?[jt]s$/;
const PY = /\.py$/;
/** Larger code files (bundles, vendored code) are left as they are. */
const MAX_CODE_BYTES = 200_000;

/** A sample's files: relative path → content (text for code files, bytes otherwise). */
export type SampleFiles = Map<string, string | Buffer>;

export async function readSample(dir: string): Promise<SampleFiles> {
  const out: SampleFiles = new Map();
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(path);
      else if (e.isFile()) {
        const bytes = await readFile(join(dir, path));
        out.set(path, (JS.test(path) || PY.test(path)) && bytes.length <= MAX_CODE_BYTES ? bytes.toString('utf8') : bytes);
      }
    }
  };
  await walk('');
  return out;
}

function stillParses(path: string, text: string): boolean {
  if (PY.test(path)) {
    let ok = true;
    parsePython(text).iterate({ enter: (n) => { if (n.type.isError) ok = false; } });
    return ok;
  }
  return parseJavaScript(text, /ts$/.test(path))?.mode === 'strict';
}

export interface Variant {
  files: SampleFiles;
  /** Code files rewritten (the added helper and constants modules are not counted). */
  changed: string[];
}

/**
 * The variant of a sample under one transformation, seeded by the sample id, the transformation
 * and the file path; null when the transformation applies to none of its code files. Throws when
 * a rewritten file no longer parses (a generator defect, not a reading gap).
 */
export function makeVariant(sampleId: string, files: SampleFiles, t: Transformation): Variant | null {
  const texts = new Map<string, string>();
  for (const [path, content] of files) if (typeof content === 'string') texts.set(path, content);
  const rootPkg = files.get('package.json');
  const esmPackage = rootPkg !== undefined && /"type"\s*:\s*"module"/.test(rootPkg.toString());
  const changed: string[] = [];
  for (const path of [...texts.keys()].sort()) {
    const js = JS.test(path);
    if (!js && !PY.test(path)) continue;
    const text = texts.get(path)!;
    const ctx = { path, text, rng: seededRng(seedOf(`${sampleId}|${t.id}|${path}`)), files: texts, esmPackage };
    const out = js ? t.js(ctx) : t.py(ctx);
    if (out === null || out === text) continue;
    texts.set(path, out);
    changed.push(path);
  }
  if (changed.length === 0) return null;
  for (const [path, text] of texts) if (files.get(path) !== text && (JS.test(path) || PY.test(path)) && !stillParses(path, text)) throw new Error(`${t.id}: ${sampleId}/${path} no longer parses`);
  const out: SampleFiles = new Map(files);
  for (const [path, text] of texts) out.set(path, text);
  return { files: out, changed };
}

export async function writeSample(dir: string, files: SampleFiles): Promise<void> {
  for (const [path, content] of files) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}
