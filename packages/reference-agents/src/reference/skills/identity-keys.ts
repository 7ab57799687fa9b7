import { commandWords, optionValues } from '../code/cli-upload-sinks.js';

/**
 * SSH keys a command logs in with: `ssh -i KEY`, `scp -i KEY`, `sftp -o IdentityFile=KEY`, `ssh-add KEY`,
 * and the ssh command line inside `rsync -e "ssh -i KEY"`, `mosh --ssh="ssh -i KEY"`, `git -c
 * core.sshCommand="ssh -i KEY"` or a `GIT_SSH_COMMAND=` / `RSYNC_RSH=` value. A key given as the identity is
 * used to authenticate, its bytes never leave (the shell reading, shell-facts.ts IDENTITY_USE, already
 * treats it so); the Python and JavaScript readers ask here with a command's argv or command line.
 * Only ssh clients count: `curl -i` is no identity.
 */
const SSH_CLIENT = /^(?:ssh|scp|sftp|autossh|sshfs)$/;
// Values that are themselves an ssh command line (the first two as a command's environment).
const SSH_COMMAND_VALUE = /^(?:GIT_SSH_COMMAND|RSYNC_RSH|core\.sshCommand)=([\s\S]+)$/i;
const SSH_COMMAND_ENV = /^(?:GIT_SSH_COMMAND|RSYNC_RSH)=([\s\S]+)$/;

/** The words of a command line (quotes removed), per simple command (`;`, `&&`, `|`, newlines split). */
function commands(line: string): string[][] {
  return line
    .slice(0, 4000)
    .split(/[;&|\n]+/)
    .map((segment) => (segment.match(/"[^"]*"|'[^']*'|[^\s"']+/g) ?? []).map((w) => w.replace(/^(["'])([\s\S]*)\1$/, '$2')));
}

/** The identity files of one command's words (the program first, `sudo`/`env`/`VAR=` prefixes allowed). */
export function identityWords(words: readonly string[], depth = 0): string[] {
  const out: string[] = [];
  const nested: string[] = [];
  for (const w of words) {
    const m = SSH_COMMAND_ENV.exec(w);
    if (m !== null) nested.push(m[1] as string);
  }
  const cmd = commandWords(words);
  const program = (cmd[0] ?? '').replace(/^.*[/\\]/, '');
  const args = cmd.slice(1);
  if (SSH_CLIENT.test(program)) {
    out.push(...optionValues(args, /^-i$/));
    for (const o of optionValues(args, /^-o$/)) {
      const m = /^IdentityFile\s*[=\s]\s*(\S[\s\S]*)$/i.exec(o);
      if (m !== null) out.push(m[1] as string);
    }
  } else if (program === 'ssh-add') out.push(...args.filter((a, k) => !a.startsWith('-') && !/^-[tES]$/.test(args[k - 1] ?? '')));
  else if (program === 'rsync') nested.push(...optionValues(args, /^(?:-e|--rsh)$/));
  else if (program === 'mosh') nested.push(...optionValues(args, /^--ssh$/));
  else if (program === 'git') nested.push(...optionValues(args, /^-c$/).filter((v) => SSH_COMMAND_VALUE.test(v)));
  if (depth < 2) for (const line of nested) out.push(...commandLineIdentities(line.replace(SSH_COMMAND_VALUE, '$1'), depth + 1));
  return out;
}

/** The identity files of a command line (`ssh -i KEY host uptime`, `GIT_SSH_COMMAND=ssh -i KEY`). */
export function commandLineIdentities(line: string, depth = 0): string[] {
  const direct = SSH_COMMAND_VALUE.exec(line.trim());
  if (direct !== null && depth < 2) return commandLineIdentities(direct[1] as string, depth + 1);
  return commands(line).flatMap((words) => identityWords(words, depth));
}

/** Stands for the value being followed, in a command rendered around it. */
export const KEY_MARK = '\u0001';

/** True when the marked value is an identity in these words or in this command line. */
export function marksIdentity(identities: readonly string[]): boolean {
  return identities.some((w) => w.includes(KEY_MARK));
}
