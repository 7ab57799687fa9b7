import { readFile } from 'node:fs/promises';

export interface ProcessUsage {
  cpuMs: number;
  rssBytes: number;
}

/** Linux reports CPU times in USER_HZ ticks, 100 per second on every architecture Node supports. */
const USER_HZ = 100;

/**
 * CPU time and resident set of a running process, read from /proc (Linux); null elsewhere, or when
 * the process is gone. Fields 14–17 of /proc/<pid>/stat are utime, stime, cutime, cstime; they are
 * counted after the command name, which may itself hold spaces and parentheses.
 */
export async function sampleProcessUsage(pid: number): Promise<ProcessUsage | null> {
  if (process.platform !== 'linux') return null;
  try {
    const [stat, status] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/status`, 'utf8')]);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name, field 3 (state) is index 0, so field n is index n - 3.
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
    const rss = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    return { cpuMs: (ticks * 1000) / USER_HZ, rssBytes: rss ? Number(rss[1]) * 1024 : 0 };
  } catch {
    return null;
  }
}
