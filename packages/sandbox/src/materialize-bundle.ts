import { chmod, mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { AgentBundle } from '@vigil/core';

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Writes a bundle's files into `dir` (created if missing; it must be empty), with their modes, so
 * `runAgent` can run it from there. The bundle is checked against core's `AgentBundle` schema
 * first: absolute paths, `..` segments, backslashes, duplicates and the like are refused with a
 * TypeError naming the field before anything is written. Resolves to the real path of `dir`.
 */
export async function materializeBundle(bundle: unknown, dir: string): Promise<string> {
  const parsed = AgentBundle.safeParse(bundle);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TypeError(`bundle.${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  await mkdir(dir, { recursive: true });
  const root = await realpath(dir);
  if ((await readdir(root)).length > 0) throw new TypeError(`dir: ${dir} is not empty`);
  for (const file of parsed.data.files) {
    const target = join(root, ...file.path.split('/'));
    // The schema already refuses every path that could leave the directory; this is the backstop.
    if (!inside(root, target)) throw new TypeError(`bundle: ${file.path} is outside the bundle directory`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, Buffer.from(file.content_base64, 'base64'), { flag: 'wx' });
    await chmod(target, file.mode === '0755' ? 0o755 : 0o644);
  }
  return root;
}
