import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { unpackArchive, type UnpackLimits, type UnpackResult } from '@vigil/sandbox';

const run = promisify(execFile);
const BIG = 512 * 1024 * 1024;

/**
 * Read-only access to a fetched repository snapshot (a bare git directory, no work tree, as the
 * search tool's `fetch` leaves under `/work/.mirror/<owner>+<name>/repo`).
 */
export class MirrorRepo {
  constructor(
    /** The git directory. */
    readonly gitDir: string,
    /** `owner/name`, as sources are cited. */
    readonly slug: string,
  ) {}

  async head(): Promise<string> {
    return (await run('git', ['-C', this.gitDir, 'rev-parse', 'HEAD'])).stdout.trim();
  }

  /** Whether `commit` is present in the snapshot. */
  async has(commit: string): Promise<boolean> {
    try {
      await run('git', ['-C', this.gitDir, 'cat-file', '-e', `${commit}^{commit}`]);
      return true;
    } catch {
      return false;
    }
  }

  /** Every file path under `prefix` at `commit` (all files with an empty prefix). */
  async files(commit: string, prefix = ''): Promise<string[]> {
    const args = ['-C', this.gitDir, 'ls-tree', '-r', '-z', '--name-only', commit];
    if (prefix !== '') args.push('--', prefix);
    const { stdout } = await run('git', args, { maxBuffer: BIG });
    return stdout.split('\0').filter((p) => p !== '');
  }

  async show(commit: string, path: string): Promise<Buffer> {
    const { stdout } = await run('git', ['-C', this.gitDir, 'show', `${commit}:${path}`], { encoding: 'buffer', maxBuffer: BIG });
    return stdout;
  }

  async text(commit: string, path: string): Promise<string> {
    return (await this.show(commit, path)).toString('utf8');
  }

  /**
   * Unpacks the tree at `commit:path` (the whole tree when `path` is empty) into the empty
   * directory `target`, through `git archive` and this package's own `unpackArchive`, so a sample
   * directory holds what `vigil scan` would unpack (no links, bounded sizes).
   */
  async unpackTree(commit: string, path: string, target: string, limits: Partial<UnpackLimits> = {}): Promise<UnpackResult & { absent: string[] }> {
    const work = await mkdtemp(join(tmpdir(), 'vigil-eval-archive-'));
    try {
      const archive = join(work, 'tree.tar.gz');
      const treeish = path === '' ? commit : `${commit}:${path}`;
      // A snapshot lacks its largest files (see the search tool's limits): leave them out of the
      // archive rather than fail, and say which.
      const absent = await this.absentBlobs(treeish);
      await run('git', ['-C', this.gitDir, 'archive', '--format=tar.gz', '-o', archive, treeish, ...(absent.length === 0 ? [] : ['--', '.', ...absent.map((p) => `:(exclude,literal)${p}`)])], { maxBuffer: BIG });
      return { ...(await unpackArchive(archive, target, limits)), absent };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** The files of a tree whose content the snapshot does not hold. */
  async absentBlobs(treeish: string): Promise<string[]> {
    const { stdout } = await run('git', ['-C', this.gitDir, 'ls-tree', '-r', '-z', treeish], { maxBuffer: BIG });
    const entries = stdout
      .split('\0')
      .filter((l) => l !== '')
      .map((l) => {
        const tab = l.indexOf('\t');
        const [, type, oid] = l.slice(0, tab).split(' ') as [string, string, string];
        return { type, oid, path: l.slice(tab + 1) };
      })
      .filter((e) => e.type === 'blob');
    if (entries.length === 0) return [];
    const checked = await new Promise<string>((resolvePromise, reject) => {
      const child = spawn('git', ['-C', this.gitDir, 'cat-file', '--batch-check'], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.on('error', reject);
      child.on('close', () => resolvePromise(out));
      child.stdin.end(entries.map((e) => e.oid).join('\n') + '\n');
    });
    const lines = checked.split('\n');
    return entries.filter((_, i) => (lines[i] ?? '').endsWith(' missing')).map((e) => e.path);
  }

  /** The licence the repository declares in a top-level `LICENSE*`/`COPYING*` file, or null. */
  async licenceFile(commit: string, dir = ''): Promise<string | null> {
    const prefix = dir === '' ? '' : `${dir.replace(/\/$/, '')}/`;
    const top = (await run('git', ['-C', this.gitDir, 'ls-tree', '--name-only', commit, ...(dir === '' ? [] : ['--', prefix])])).stdout.split('\n');
    const file = top.map((p) => p.trim()).find((p) => /^(?:LICEN[CS]E|COPYING)(?:\.(?:md|txt))?$/i.test(p.slice(prefix.length)));
    return file === undefined ? null : await this.text(commit, file);
  }
}
