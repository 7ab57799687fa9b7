import { readdirSync, readFileSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;

/**
 * The file descriptors above `from` this process holds without close-on-exec (Linux): the ones a
 * child would inherit. Node and libuv open everything with O_CLOEXEC, so these are what whoever
 * started this process handed down (a shell's pipes, a supervisor's sockets). Empty elsewhere.
 */
export function inheritedDescriptors(from: number): number[] {
  if (process.platform !== 'linux') return [];
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const inherited: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd < from) continue;
    try {
      const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
      if (flags && (parseInt(flags[1]!, 8) & O_CLOEXEC) === 0) inherited.push(fd);
    } catch {
      // Closed meanwhile (the directory listing's own descriptor among them).
    }
  }
  return inherited.sort((a, b) => a - b);
}
