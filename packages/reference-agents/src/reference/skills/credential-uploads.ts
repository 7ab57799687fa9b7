import { FAMILIAR_API_HOSTS } from '../repositories/workflow-findings.js';
import { cliUpload, commandWords, localHost, type CliUpload } from '../code/cli-upload-sinks.js';
import { credentialMaterial, dotenvMaterial } from './credential-material.js';
import { shellPipelines, substitutions, type Stage } from './shell-words.js';
import type { ScriptFact } from './script-fact.js';
import { homeDataFolder, userDataFolder } from './user-folder.js';

/**
 * Credentials and `.env` files followed from where a script reads them to a command that sends them
 * (`code/cli-upload-sinks.ts`: `curl`/`wget` bodies, the GitHub CLI's gists, issues, releases and API
 * fields, bucket copies, `scp`/`rsync`/`rclone` to a remote, `git push` of a repository they were added
 * to, mail attachments, raw sockets): named directly, through a variable, an array or a loop over names,
 * a function's parameters, or a copy, an archive or a redirection into a file or a folder that the upload
 * then names; piped into an upload that reads standard input, or substituted into a field it sends.
 * What is read: a credential file (`credential-material.ts`), the output of a command that prints
 * credentials or a cluster's secrets (`CREDENTIAL_COMMAND`), or a `.env` file (sent only to where things
 * are published — a paste, a gist, an issue, a message, a web upload — not to a server or bucket a
 * deployment copies its configuration to). The same reader serves Python and JavaScript: their process
 * calls, copies and archive writes are written as the equivalent command lines first.
 */

// Commands that print credentials or a cluster's secrets: a cloud CLI's exported keys and tokens, a kubeconfig
// with its keys, every secret of a cluster, a password manager's or keychain's entries.
export const CREDENTIAL_COMMAND =
  /\bkubectl\s+(?:[^|;&\n]*\s)?get\s+secrets?\b|\bkubectl\s+config\s+view\b[^|;&\n]*--raw\b|\boc\s+(?:[^|;&\n]*\s)?get\s+secrets?\b|\baws\s+configure\s+(?:export-credentials|get\s+aws_(?:secret_access_key|session_token))\b|\baws\s+(?:sts\s+get-session-token|secretsmanager\s+get-secret-value|ssm\s+get-parameters?(?:-by-path)?\b[^|;&\n]*--with-decryption)\b|\bgcloud\s+(?:auth\s+(?:application-default\s+)?print-(?:access|identity)-token|secrets\s+versions\s+access)\b|\baz\s+(?:account\s+get-access-token|keyvault\s+secret\s+show)\b|\bgh\s+auth\s+token\b|\bvault\s+(?:read|kv\s+get)\b|\bop\s+(?:read|item\s+get)\b|\bsecurity\s+(?:find-(?:generic|internet)-password|dump-keychain)\b|\bdoctl\s+auth\s+token\b|\bheroku\s+auth:token\b/;

/** What a value carries: a credential file's bytes, a credential command's output, a `.env` file's. */
type Kind = 'file' | 'command' | 'dotenv' | 'folder';
interface Carry {
  kind: Kind;
  /** Only the names of such files (`ls ~/.ssh`), not their bytes: an argument list for `xargs`. */
  names?: boolean;
  evidence: string;
  /** (round s31 review) Folders mode: only the project folder is in it (no home or credential folder). */
  project?: boolean;
}
interface Carrier extends Carry {
  path: string;
  /** The path normalized, and its last segment: compared with every word an upload names. */
  norm: string;
  base: string;
}
/** A word as `covers` compares it, prepared once. */
interface Named {
  norm: string;
  base: string;
  glob: RegExp | null;
}

// Programs whose output is not the bytes of the files they are given (a test, a mode change, a key made, a digest;
// `kubeseal` seals a Kubernetes secret with the cluster's certificate: a sealed secret is made to be committed).
const NO_OUTPUT = /^(?:kubeseal|test|\[|\[\[|chmod|chown|chgrp|mkdir|rm|rmdir|touch|ssh-keygen|ssh-add|stat|file|wc|du|df|cd|pushd|popd|export|local|true|false|sleep|which|type|sha\d*sum|md5sum|shasum|git|gh|curl|wget|ls-files|trap|unset)$/;
// Programs whose output names files (or echoes text): what `xargs` turns into arguments.
const NAMES_OUTPUT = /^(?:ls|find|fd|realpath|readlink|basename|dirname|echo|printf|locate)$/;
// Copies: sources first, the destination last (`-t DIR` names it first).
const COPY = /^(?:cp|mv|install|ln|ditto|copy-item|copy|move-item)$/i;
const TRIVIAL_DIR = /^(?:|\.|~|\/|\*)$/;
const MAX_LINES = 20000;
const MAX_CARRIERS = 200;
// A word with variables put in is kept under the longest line the shell reader reads: `B=$A$A`, `C=$B$B`, …
// doubles a value per line.
const MAX_WORD = 4000;
// Substituted commands read inside one another (`$(cat "$(ls "$(…)")")`; each `V=$(echo $V)` nests one more), and
// read per line of the script (more than a 4,000-character line can spell out) and in all. A text is read once
// while the variables stay as they are (`printed`), so these bound what an attacker's text makes us do, not a script.
const MAX_NESTING = 24;
const LINE_SUBSTITUTIONS = 1000;
const SCRIPT_SUBSTITUTIONS = 20_000;
const POSITIONAL = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '@', '*'];

function norm(path: string): string {
  return path.replace(/["']/g, '').replace(/\/{2,}/g, '/').replace(/\/(?:\.\/)+/g, '/').replace(/^\.\//, '').replace(/\/\.?$/, '').replace(/\/+$/, '');
}
function baseName(path: string): string {
  const parts = norm(path).split(/[/\\]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? '';
}
function globRegex(glob: string): RegExp | null {
  if (!/[*?]/.test(glob) || glob.length > 300) return null;
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

function named(word: string): Named {
  return { norm: norm(word), base: baseName(word), glob: globRegex(norm(word)) };
}

/** The word names the carrier: the same path, a folder holding it, a path inside it, a glob over it, or its distinctive last segment. */
function covers(w: Named, c: Carrier): boolean {
  if (w.norm === '' || c.norm === '') return false;
  if (w.norm === c.norm) return true;
  if (!TRIVIAL_DIR.test(w.norm) && c.norm.startsWith(`${w.norm}/`)) return true;
  if (!TRIVIAL_DIR.test(c.norm) && w.norm.startsWith(`${c.norm}/`)) return true;
  const glob = w.glob;
  if (glob !== null && (glob.test(c.norm) || [...c.norm.matchAll(/\//g)].some((m) => glob.test(c.norm.slice(0, m.index))))) return true;
  return c.base.length >= 3 && !/[*?$]/.test(c.base) && c.base === w.base;
}

export interface CredentialUploadOptions {
  /** Facts reported at these 1-based lines (Python and JavaScript map their rendered commands back); by default the line's index. */
  lineOf?: (index: number) => number;
}

/**
 * `credential-sent` and `dotenv-sent` facts of command lines (continued lines already joined, one command
 * line per entry). At most one of each kind: the first.
 */
export function credentialUploads(lines: readonly string[], options: CredentialUploadOptions = {}): ScriptFact[] {
  if (lines.length > MAX_LINES) return [];
  const reader = new UploadReader(lines, options.lineOf ?? ((i) => i + 1));
  reader.run();
  return reader.facts;
}

/**
 * (round s31) An archive of a folder holding the user's data (`user-folder.ts`: the home directory or a folder in it, the
 * project) sent over the network: the archive written to a file that an upload then names (`zip -r /tmp/b.zip ~/.ssh`,
 * then `curl -F f=@/tmp/b.zip …`; also a copy, a rename or a re-encoding of that file), or printed into a pipe that ends
 * in an upload reading standard input (`tar czf - ~ | curl --data-binary @- …`). `url` is the destination as written —
 * the upload's URL (its variable put in where the script assigns it), a bucket (`s3://b` as `https://b.s3.amazonaws.com/`,
 * `gs://b` as `https://storage.googleapis.com/b`) or the host of `scp`/`rsync`/`nc`; a destination the script does not
 * spell out (`"$UPLOAD_URL"`, `s3://$BUCKET`, an rclone remote) is the user's and reported by no one.
 * (round s31 review) Up to four sends, those of a home or credential folder first; `project` marks an archive of the
 * project alone. Also a home folder copied out whole by `rsync` / `scp`, and `find DIR` piped into an archiver that
 * takes names on standard input (`cpio -o`, `pax -w`, `tar -T -`, `zip -@`).
 */
export interface FolderArchiveSend {
  line: number;
  evidence: string;
  url: string;
  /** (round s31 review) Only the project folder was archived (no home or credential folder): a deployment's shape. */
  project: boolean;
  /** (round s31 review) The sending tool (`curl`, `scp`, `ssh`, …) and the destination's host as written. */
  tool: string;
  host: string | null;
}

/** The first archive of a user's folder a script's command lines send to a destination they spell out, or none. */
export function folderArchiveUploads(lines: readonly string[], options: CredentialUploadOptions = {}): FolderArchiveSend[] {
  if (lines.length > MAX_LINES) return [];
  const reader = new UploadReader(lines, options.lineOf ?? ((i) => i + 1), 'folders');
  reader.run();
  // (round s31 review) An archive holding a home or credential folder before one of the project alone.
  return [...reader.sends.filter((s) => !s.project), ...reader.sends.filter((s) => s.project)];
}

/** The destination an upload spells out, as a URL; null for one it takes from a variable or a remote the user configured. */
function sendUrl(up: CliUpload, words: readonly string[]): string | null {
  if (up.host === null || localHost(up.host)) return null;
  const literal = (w: string) => !/[$%<>{}]/.test(w);
  const url = words.find((w) => /^(?:https?|ftp):\/\/[\w.-]/.test(w));
  if (url !== undefined) return literal(url) ? url : null;
  const bucket = words.map((w) => /^(s3|gs):\/\/([\w.-]+)/.exec(w)).find((m) => m !== null);
  if (bucket != null) return bucket[1] === 's3' ? `https://${bucket[2] as string}.s3.amazonaws.com/` : `https://storage.googleapis.com/${bucket[2] as string}`;
  // `scp`/`rsync` to `user@host:`, `nc host port`: a host with a dot or an address, written out.
  return /^(?:scp|rsync|nc|ncat|netcat|socat|telnet|openssl s_client|ssh)$/.test(up.tool) && /^[\w-]+(?:\.[\w-]+)+$/.test(up.host) ? `https://${up.host}/` : null;
}

class UploadReader {
  readonly facts: ScriptFact[] = [];
  /** (round s31) In 'folders' mode: archives of a user's folder sent out. */
  readonly sends: FolderArchiveSend[] = [];
  /** (round s31) Reading an archiver's sources: only there does a user's folder itself carry (`tar czf x ~`, not `curl -T ~`). */
  private archiving = false;
  private readonly vars = new Map<string, string[]>();
  private readonly carriers: Carrier[] = [];
  private readonly functions = new Map<string, string[]>();
  private staged: Carry | null = null;
  private cwd: string | null = null;
  private index = 0;
  private depth = 0;
  // Bounds on what an attacker's text can make the reader do: carrier comparisons, function-body lines read.
  private comparisons = 200_000;
  private bodyLines = 5000;
  /**
   * Substituted commands being read, outermost first. Values are stored with their variables already put in,
   * and a substitution's text is expanded again when it is read: a value that substitutes itself
   * (`pid=$(cat "$PID_FILE")` with `PID_FILE="$1/server.pid"`, then `f "$pid"` makes `$1` read
   * `$(cat "$1/server.pid")`) would be read inside itself forever. A text already being read prints nothing more.
   */
  private readonly reading = new Set<string>();
  /** What each substituted command printed, while the variables, the folder and the files written stay as they are. */
  private readonly printed = new Map<string, Carry | null>();
  private lineSubstitutions = LINE_SUBSTITUTIONS;
  private scriptSubstitutions = SCRIPT_SUBSTITUTIONS;
  /** Reads cut short (a text inside itself, too deep, out of budget): an answer that met one depends on where it was asked. */
  private cuts = 0;

  constructor(
    private readonly lines: readonly string[],
    private readonly lineOf: (index: number) => number,
    private readonly mode: 'credentials' | 'folders' = 'credentials',
  ) {}

  /** Nothing more to find: two facts, or (folders) one send of a home or credential folder, or four of the project. */
  private done(): boolean {
    return this.facts.length >= 2 || this.sends.some((s) => !s.project) || this.sends.length >= 4;
  }

  /** (round s31 review) The first carry of a list, one holding a home or credential folder before one of the project alone. */
  private static first(carries: ReadonlyArray<Carry | null>): Carry | null {
    let project: Carry | null = null;
    for (const c of carries) {
      if (c === null || c.names === true) continue;
      if (c.project !== true) return c;
      project ??= c;
    }
    return project;
  }

  /** The words of an archiver's sources read with a user's folder carrying (folders mode). */
  private archived<T>(read: () => T): T {
    const was = this.archiving;
    this.archiving = this.mode === 'folders';
    try {
      return read();
    } finally {
      this.archiving = was;
    }
  }

  run(): void {
    const skip = this.collectFunctions();
    for (let i = 0; i < this.lines.length && !this.done(); i++) {
      this.index = i;
      const line = (this.lines[i] ?? '').trim();
      if (line === '' || line.startsWith('#') || skip.has(i)) continue;
      // Each line gets its own share of substitution reads: a costly line cannot leave a later upload unread.
      this.lineSubstitutions = LINE_SUBSTITUTIONS;
      this.readLine(line);
    }
  }

  /** Shell functions (`name() { … }`, `function name { … }`): their bodies are read where they are called. */
  private collectFunctions(): Set<number> {
    const skip = new Set<number>();
    for (let i = 0; i < this.lines.length; i++) {
      const m = /^\s*(?:function\s+([A-Za-z_][\w-]*)\s*(?:\(\s*\))?|([A-Za-z_][\w-]*)\s*\(\s*\))\s*\{\s*(.*)$/.exec(this.lines[i] ?? '');
      if (m === null) continue;
      const name = (m[1] ?? m[2]) as string;
      const rest = (m[3] ?? '').trim();
      if (/\}\s*;?\s*$/.test(rest)) {
        this.functions.set(name, [rest.replace(/\}\s*;?\s*$/, '')]);
        skip.add(i);
        continue;
      }
      const body = rest === '' ? [] : [rest];
      let j = i + 1;
      for (; j < this.lines.length && j < i + 200; j++) {
        if (/^\s*\}\s*;?\s*$/.test(this.lines[j] ?? '')) break;
        body.push(this.lines[j] ?? '');
      }
      this.functions.set(name, body);
      for (let k = i; k <= j; k++) skip.add(k);
      i = j;
    }
    return skip;
  }

  private readLine(line: string): void {
    for (const pipeline of shellPipelines(line)) {
      let carry: Carry | null = null;
      for (const [k, raw] of pipeline.entries()) {
        const stage = this.expandStage(raw);
        carry = stage === null ? null : this.readStage(stage, carry, k < pipeline.length - 1);
        if (this.done()) return;
      }
    }
  }

  /** Words with variables put in; a stage that only assigns or opens a loop records it and is done (null). */
  private expandStage(raw: Stage): Stage | null {
    let words = [...raw.words];
    while (words.length > 0 && /^(?:do|then|else|elif|if|while|until|!|time|done|fi|esac)$/.test(words[0] as string)) words.shift();
    if (words[0] === 'for' && words[2] === 'in') {
      this.setVar(words[1] as string, this.expandAll(words.slice(3), 50));
      return null;
    }
    const declared = words[0] !== undefined && /^(?:export|local|readonly|declare|typeset)$/.test(words[0]);
    if (declared) words = words.slice(1).filter((w) => !/^-\w+$/.test(w));
    const assigns = words.filter((w) => /^[A-Za-z_]\w*\+?=/.test(w));
    if (words.length > 0 && assigns.length === words.length) {
      for (const a of assigns) {
        const m = /^([A-Za-z_]\w*)(\+?)=([\s\S]*)$/.exec(a) as RegExpExecArray;
        const value = m[3] as string;
        const values = /^\(/.test(value) ? this.expandAll(shellPipelines(value.slice(1, -1))[0]?.[0]?.words ?? [], 50) : this.expand(value);
        this.setVar(m[1] as string, [...(m[2] === '+' ? this.vars.get(m[1] as string) ?? [] : []), ...values].slice(0, 50));
      }
      return null;
    }
    const one = (w: string | undefined) => (w === undefined ? undefined : this.expand(w)[0]);
    return {
      // As many words as a line can hold: options repeated to pad a command must not push what it sends out of reach.
      words: this.expandAll(words, 2000),
      ...(raw.input === undefined ? {} : { input: one(raw.input) }),
      ...(raw.output === undefined ? {} : { output: one(raw.output) }),
      ...(raw.hereString === undefined ? {} : { hereString: one(raw.hereString) }),
    };
  }

  /** A word with the script's variables put in: one word per value of an array or loop variable (bounded). */
  private expand(word: string): string[] {
    if (!word.includes('$')) return [word];
    const w = word.replace(/\$\{HOME\}|\$HOME(?!\w)/g, '~');
    const whole = /^\$\{?([A-Za-z_]\w*|[0-9@*])(?:\[[@*]\])?\}?$/.exec(w);
    if (whole !== null) return [...(this.vars.get(whole[1] as string) ?? [w])];
    let out = [w];
    const refs = [...new Set([...w.matchAll(/\$\{?([A-Za-z_]\w*|[0-9@*])(?:\[[@*0-9]\])?\}?/g)].map((m) => m[0]))].slice(0, 6);
    for (const ref of refs) {
      const name = /^\$\{?([A-Za-z_]\w*|[0-9@*])/.exec(ref)?.[1] as string;
      const values = this.vars.get(name);
      if (values === undefined || values.length === 0) continue;
      const next = out.flatMap((o) => values.slice(0, 16).map((v) => o.split(ref).join(v))).slice(0, 16);
      // A value that would make the word longer than a line is left as its name (`$PAD~/.ssh/id_rsa` still names the key).
      if (next.every((o) => o.length <= MAX_WORD)) out = next;
    }
    return out;
  }

  /** Words with variables put in, at most `limit` (stopping there: a line of `$ARRAY` words would otherwise multiply). */
  private expandAll(words: readonly string[], limit: number): string[] {
    const out: string[] = [];
    for (const w of words) {
      if (out.length >= limit) break;
      out.push(...this.expand(w).slice(0, limit - out.length));
    }
    return out;
  }

  /** A variable set: what substitutions printed may have changed with it. */
  private setVar(name: string, values: string[]): void {
    this.vars.set(name, values);
    this.printed.clear();
  }

  private carrierOf(word: string): Carrier | undefined {
    if (this.carriers.length === 0 || (this.comparisons -= this.carriers.length) < 0) return undefined;
    const w = named(word);
    const inCwd = this.cwd !== null && !/^[/~$]/.test(word) ? named(`${this.cwd}/${word}`) : null;
    return this.carriers.find((c) => covers(w, c) || (inCwd !== null && covers(inCwd, c)));
  }

  /** What a word carries: it names credential material, a `.env` file or a file written from them, or substitutes a command that prints them. */
  private wordCarries(word: string, line: string): Carry | null {
    // A substitution's text is judged by what it prints, not by the paths it names (`$(ls ~/.ssh)` is names).
    const plain = word.replace(/\$\([\s\S]*\)/g, '');
    const inCwd = this.cwd !== null && !/^[/~$]/.test(plain) ? `${this.cwd}/${plain}` : plain;
    if (this.mode === 'folders') {
      // (round s31) The folder itself, where an archiver reads it: the project as the folder the script is in (`cd d` first).
      const path = this.cwd !== null && !/^[/~$]/.test(word) ? `${this.cwd}/${word}` : word;
      if (this.archiving && word !== '' && userDataFolder(path)) return { kind: 'folder', evidence: line, ...(homeDataFolder(path) ? {} : { project: true }) };
    } else {
      if (plain !== '' && (credentialMaterial(plain) || credentialMaterial(inCwd))) return { kind: 'file', evidence: line };
      if (dotenvMaterial(plain)) return { kind: 'dotenv', evidence: line };
    }
    const carrier = this.carrierOf(word);
    if (carrier !== undefined) return { kind: carrier.kind, evidence: carrier.evidence, ...(carrier.project === true ? { project: true } : {}) };
    for (const inner of substitutions(word)) {
      const out = this.pipelineOutput(inner);
      if (out !== null) return out;
    }
    return null;
  }

  /**
   * What a substituted command prints. The recursion is bounded: a text already being read, a nesting deeper
   * than MAX_NESTING or a spent budget prints nothing, and a text read once is not read again while nothing changed.
   */
  private pipelineOutput(command: string): Carry | null {
    const known = this.printed.get(command);
    if (known !== undefined) return known;
    if (this.reading.has(command) || this.reading.size >= MAX_NESTING || this.lineSubstitutions <= 0 || this.scriptSubstitutions <= 0) {
      this.cuts++;
      return null;
    }
    const cutsBefore = this.cuts;
    this.lineSubstitutions--;
    this.scriptSubstitutions--;
    this.reading.add(command);
    let carry: Carry | null = null;
    // What a substitution prints does not depend on where it is read (its answer is kept): never as an archiver's source.
    const archiving = this.archiving;
    this.archiving = false;
    try {
      for (const pipeline of shellPipelines(command).slice(0, 4)) {
        carry = null;
        for (const raw of pipeline) {
          const stage = this.expandStage(raw);
          carry = stage === null ? null : this.stageOutput(stage, carry, `$(${command})`);
        }
      }
    } finally {
      this.reading.delete(command);
      this.archiving = archiving;
    }
    // An answer reached with nothing cut short is the same wherever it is asked, until a variable, the folder or a file written changes.
    if (this.cuts === cutsBefore) {
      if (this.printed.size >= 2000) this.printed.clear();
      this.printed.set(command, carry);
    }
    return carry;
  }

  /** What a stage prints, given what its standard input carries. */
  private stageOutput(stage: Stage, stdin: Carry | null, line: string): Carry | null {
    const words = commandWords(stage.words);
    const program = (words[0] ?? '').replace(/^.*\//, '');
    if (this.mode === 'credentials' && CREDENTIAL_COMMAND.test(words.join(' '))) return { kind: 'command', evidence: line };
    // (round s31) `git archive HEAD` with no output file prints an archive of the repository: the project.
    if (this.mode === 'folders' && program === 'git') {
      const archive = gitArchive(words.slice(1));
      return archive !== null && archive.file === null ? { kind: 'folder', evidence: line, project: true } : null;
    }
    if (program === '' || NO_OUTPUT.test(program) || COPY.test(program) || cliUpload(stage.words) !== null) return null;
    // An archive written to a file prints nothing; `tar czf - …`, `zip -r - …` print the archive.
    if (/^(?:tar|bsdtar|gtar)$/.test(program) && (tarCreate(words.slice(1))?.file ?? null) !== null) return null;
    if (/^(?:zip|7z|7za|rar)$/.test(program) && !words.includes('-')) return null;
    // (round s31) An archive printed (`tar czf - -C ~ .`, `zip -qr - .`): what its sources carry, a user's folder among them.
    if (this.mode === 'folders' && /^(?:tar|bsdtar|gtar|zip|7z|7za)$/.test(program)) {
      const tar = /^(?:tar|bsdtar|gtar)$/.test(program) ? tarCreate(words.slice(1)) : null;
      const sources = tar !== null ? tar.sources.map((s) => (tar.dir !== null && !/^[/~$]/.test(s) ? `${tar.dir}/${s}` : s)) : words.slice(1).filter((w) => !w.startsWith('-'));
      const carried = this.archived(() => UploadReader.first(sources.map((w) => this.wordCarries(w, line))));
      if (carried !== null) return carried;
      // (round s31 review) Names read from standard input (`find ~/.ssh | tar czf - -T -`, `zip -@ - <`): their files.
      if (stdin?.kind === 'folder' && stdin.names === true && ((tar?.fromStdin ?? false) || words.includes('-@'))) return { ...stdin, names: false };
    }
    // (round s31 review) `find ~/.ssh` names a folder's files; `cpio -o` / `pax -w` archive the files named on standard input.
    if (this.mode === 'folders' && program === 'find') {
      const root = words[1];
      const carry = root === undefined || root.startsWith('-') ? null : this.archived(() => this.wordCarries(root, line));
      return carry === null ? null : { ...carry, names: true };
    }
    if (this.mode === 'folders' && stdin?.kind === 'folder' && stdin.names === true && ((program === 'cpio' && words.some((w) => /^(?:-[a-zA-Z]*o[a-zA-Z]*|--create)$/.test(w))) || (program === 'pax' && words.some((w) => /^-[a-zA-Z]*w/.test(w))))) return { ...stdin, names: false };
    const input = stage.input === undefined ? (stage.hereString === undefined ? stdin : this.wordCarries(stage.hereString, line)) : this.wordCarries(stage.input, line);
    if (NAMES_OUTPUT.test(program)) {
      // `echo "$(cat key)"` prints the bytes; `ls ~/.ssh` prints names.
      for (const w of words.slice(1)) {
        for (const inner of substitutions(w)) {
          const out = this.pipelineOutput(inner);
          if (out !== null && out.names !== true) return out;
        }
      }
      const named = words.slice(1).map((w) => this.wordCarries(w, line)).find((c) => c !== null);
      return named === undefined || named === null ? (input?.names === true ? null : input) : { ...named, names: true };
    }
    if (program === 'xargs') return null;
    const operand = words.slice(1).map((w) => this.wordCarries(w, line)).find((c) => c !== null && c.names !== true);
    if (operand !== undefined && operand !== null) return operand;
    return input?.names === true ? null : input;
  }

  private record(path: string, carry: Carry, line: string): void {
    if (this.carriers.length >= MAX_CARRIERS || path === '' || path === '-' || /^\/dev\//.test(path)) return;
    const evidence = carry.evidence === line ? line : `${carry.evidence} … ${line}`;
    this.carriers.push({ path, norm: norm(path), base: baseName(path), kind: carry.kind, evidence: evidence.slice(0, 240), ...(carry.project === true ? { project: true } : {}) });
    this.printed.clear();
  }

  private report(carry: Carry, line: string, up: CliUpload, words: readonly string[]): void {
    if (carry.kind === 'folder') {
      const url = sendUrl(up, words);
      const evidence = carry.evidence === line || line.includes(carry.evidence) ? line : `${carry.evidence} … ${line}`;
      if (url !== null && this.sends.length < 4) this.sends.push({ line: this.lineOf(this.index), evidence: evidence.slice(0, 300), url, project: carry.project === true, tool: up.tool, host: up.host });
      return;
    }
    const kind = carry.kind === 'dotenv' ? 'dotenv-sent' : 'credential-sent';
    if (this.facts.some((f) => f.kind === kind)) return;
    const evidence = carry.evidence === line || line.includes(carry.evidence) ? line : `${carry.evidence} … ${line}`;
    this.facts.push({ kind, line: this.lineOf(this.index), evidence: evidence.slice(0, 300) });
  }

  /** Whether what a carry holds counts as sent by this upload: the host, and for a `.env` file the channel. */
  private reaches(up: CliUpload, words: readonly string[], kind: Kind): boolean {
    if (localHost(up.host)) return false;
    // (round s31) A user's folder goes anywhere the upload spells out; whether the skill names it is judged after.
    if (kind === 'folder') return sendUrl(up, words) !== null;
    if (kind === 'dotenv' && up.channel !== 'publish') return false;
    if (/^(?:curl|wget|invoke-webrequest|iwr|invoke-restmethod|irm)$/i.test(up.tool)) {
      // An address kept in a variable counts; a familiar API takes tokens and `.env` values by design, not key files.
      if (up.host === null) return words.some((w) => /\$(?:\{?[A-Za-z_]|\()/.test(w));
      if (FAMILIAR_API_HOSTS.test(up.host)) return kind === 'file';
    }
    return true;
  }

  /** One stage: what it sends, writes and prints (what it prints only when `piped` into a next stage or redirected to a file). */
  private readStage(stage: Stage, stdin: Carry | null, piped: boolean, depthLine?: string): Carry | null {
    const line = depthLine ?? (this.lines[this.index] ?? '').trim();
    const words = commandWords(stage.words);
    const program = (words[0] ?? '').replace(/^.*[/\\]/, '');
    const input = stage.input !== undefined ? this.wordCarries(stage.input, line) : stage.hereString !== undefined ? this.wordCarries(stage.hereString, line) : stdin;
    // A function of the script: its body read with the arguments as `$1`…, `$@`.
    const body = this.functions.get(program);
    if (body !== undefined && this.depth < 2 && (this.bodyLines -= body.length) >= 0) {
      const saved = new Map(POSITIONAL.map((k) => [k, this.vars.get(k)]));
      for (const k of POSITIONAL.slice(0, 9)) this.vars.delete(k);
      words.slice(1, 10).forEach((w, k) => this.vars.set(String(k + 1), [w]));
      this.setVar('@', words.slice(1));
      this.setVar('*', words.slice(1));
      this.depth++;
      for (const l of body) {
        for (const pipeline of shellPipelines(l.trim())) {
          let carry: Carry | null = input;
          for (const [k, raw] of pipeline.entries()) {
            const s = this.expandStage(raw);
            carry = s === null ? null : this.readStage(s, carry, k < pipeline.length - 1, line);
          }
        }
      }
      this.depth--;
      for (const k of POSITIONAL) {
        const v = saved.get(k);
        if (v === undefined) this.vars.delete(k);
        else this.vars.set(k, v);
      }
      this.printed.clear();
      return null;
    }
    if (program === 'cd' || program === 'pushd') {
      const to = words[1];
      this.printed.clear();
      this.cwd = to === undefined || to === '-' || to.includes('..') ? null : to.startsWith('/') || to.startsWith('~') || to.startsWith('$') || this.cwd === null ? norm(to) : `${this.cwd}/${norm(to)}`;
      return null;
    }
    // `ls ~/.ssh/id_* | xargs gh gist create`: the names become the upload's arguments; `find ROOT … -exec CMD {} \;`
    // runs CMD on each file found under ROOT.
    const xargs = program === 'xargs' && input !== null ? xargsCommand(words.slice(1)) : null;
    const found = program === 'find' ? findExec(words.slice(1)) : null;
    const sinkWords = xargs ?? found ?? stage.words;
    const up = cliUpload(sinkWords);
    if (up !== null) this.readUpload(up, sinkWords, input, xargs !== null, line);
    this.readWrites(words, program, input, line);
    // Most lines are one stage whose output goes nowhere a file is followed: not worth reading each word of.
    const out = piped || stage.output !== undefined ? this.stageOutput(stage, stdin, line) : null;
    if (out !== null && stage.output !== undefined && out.names !== true) this.record(stage.output, out, line);
    if (program === 'tee' && input !== null) for (const f of words.slice(1).filter((w) => !w.startsWith('-'))) this.record(f, input, line);
    return stage.output !== undefined ? null : out;
  }

  private readUpload(up: CliUpload, words: readonly string[], input: Carry | null, fromXargs: boolean, line: string): void {
    const sent = (carry: Carry | null | undefined): boolean => carry !== null && carry !== undefined && carry.names !== true && this.reaches(up, words, carry.kind);
    for (const f of up.files) {
      const c = this.wordCarries(f, line);
      if (c !== null && this.reaches(up, words, c.kind)) return this.report(c, line, up, words);
      // (round s31 review) `rsync -a ~/.ssh/ host:`, `scp -r ~/.aws host:`: a home or credential folder copied out whole (the project copied to a server is a deployment).
      if (this.mode === 'folders' && /^(?:scp|rsync)$/.test(up.tool)) {
        const copied = this.archived(() => this.wordCarries(f, line));
        if (copied !== null && copied.project !== true && this.reaches(up, words, copied.kind)) return this.report(copied, line, up, words);
      }
    }
    if (fromXargs && input !== null && this.reaches(up, words, input.kind)) return this.report(input, line, up, words);
    if (up.stdin && !fromXargs && sent(input)) return this.report(input as Carry, line, up, words);
    for (const v of up.values) {
      for (const inner of substitutions(v)) {
        const out = this.pipelineOutput(inner);
        if (sent(out)) return this.report(out as Carry, line, up, words);
      }
    }
    if (up.push === true && this.mode === 'credentials') {
      // `gh repo create --source DIR --push`: DIR holding credentials is pushed as well as staged files are.
      const source = up.files.map((f) => this.wordCarries(f, line)).find((c) => c !== null);
      const pushed = this.staged ?? source ?? null;
      if (pushed !== null && this.reaches(up, words, pushed.kind)) this.report(pushed, line, up, words);
    }
  }

  /** Files written from what a stage reads: copies, archives, an output option, `git add` (staged for a push). */
  private readWrites(words: readonly string[], program: string, input: Carry | null, line: string): void {
    const args = words.slice(1);
    const lower = program.toLowerCase();
    const carried = (ws: readonly string[]) => UploadReader.first(ws.map((w) => this.wordCarries(w, line)));
    // (round s31 review) Folders mode: names on standard input (`find ~/.ssh | tar czf x -T -`) are archived as their files.
    const listed = this.mode === 'folders' && input?.kind === 'folder' && input.names === true ? { ...input, names: false } : input;
    if (COPY.test(lower) || ((lower === 'rsync' || lower === 'scp') && !args.some((a) => /^(?:[\w.+-]+@)?[\w.-]{2,}:/.test(a)))) {
      const named = optionValue(args, /^(?:-t|--target-directory|-Destination)$/i);
      const ops = args.filter((a, k) => !a.startsWith('-') && !/^(?:-t|--target-directory|-m|--mode|-o|-g|-Destination|-Path|-S|--suffix)$/i.test(args[k - 1] ?? ''));
      const paths = optionValue(args, /^-(?:Path|LiteralPath)$/i);
      const sources = named !== null ? ops : paths !== null ? paths.split(',') : ops.slice(0, -1);
      const dest = named ?? (paths !== null ? ops[ops.length - 1] : ops[ops.length - 1]);
      // (round s31) `ditto -c -k SRC out.zip` writes an archive of SRC.
      const carry = lower === 'ditto' && args.some((a) => /^-[a-zA-Z]*c/.test(a)) ? this.archived(() => carried(sources)) : carried(sources);
      if (carry !== null && dest !== undefined) this.record(dest, carry, line);
      return;
    }
    if (lower === 'tar' || lower === 'bsdtar' || lower === 'gtar') {
      const archive = tarCreate(args);
      if (archive === null) return;
      const dir = archive.dir;
      const carry = this.archived(() => carried(archive.sources.map((s) => (dir !== null && !/^[/~$]/.test(s) ? `${dir}/${s}` : s)))) ?? (archive.fromStdin ? listed : null);
      if (carry !== null && archive.file !== null) this.record(archive.file, carry, line);
      return;
    }
    if (lower === 'zip' || lower === '7z' || lower === '7za' || lower === 'compress-archive' || lower === 'rar') {
      const dest = optionValue(args, /^-DestinationPath$/i);
      const paths = optionValue(args, /^-(?:Path|LiteralPath)$/i);
      const ops = args.filter((a, k) => !a.startsWith('-') && !/^(?:-P|--password|-x|-i|-b|-t|-DestinationPath|-Path|-LiteralPath)$/i.test(args[k - 1] ?? '') && !(k === 0 && /^(?:a|u)$/.test(a) && lower !== 'zip'));
      const out = dest ?? ops[0];
      const sources = paths !== null ? paths.split(',') : dest !== null ? ops : ops.slice(1);
      const carry = this.archived(() => carried(sources)) ?? (args.includes('-@') ? listed : null);
      if (carry !== null && out !== undefined && out !== '-') this.record(out, carry, line);
      return;
    }
    if (lower === 'git' && this.mode === 'folders') {
      // (round s31) `git archive -o out.zip HEAD`: the repository (the project) written to a file.
      const archive = gitArchive(args);
      if (archive?.file != null) this.record(archive.file, { kind: 'folder', evidence: line, project: true }, line);
      return;
    }
    if (lower === 'git' && this.mode === 'credentials') {
      const verbAt = args.findIndex((a, k) => !a.startsWith('-') && !/^(?:-C|-c|--git-dir|--work-tree)$/.test(args[k - 1] ?? ''));
      if (args[verbAt] !== 'add') return;
      const dir = optionValue(args.slice(0, verbAt), /^-C$/) ?? this.cwd;
      const ops = args.slice(verbAt + 1).filter((a) => a !== '--');
      const named = carried(ops.filter((a) => !a.startsWith('-')).map((a) => (dir !== null && !/^[/~$]/.test(a) ? `${dir}/${a}` : a)));
      const all = ops.some((a) => /^(?:\.|-A|--all|\*|-u|--update|:\/)$/.test(a));
      const here = dir === null ? this.carriers.find((c) => !/^[/~$]/.test(c.path)) : (this.wordCarries(dir, line) ?? this.carriers.find((c) => c.norm.startsWith(`${norm(dir)}/`)) ?? null);
      const carry = named ?? (all && here !== undefined && here !== null ? { kind: here.kind, evidence: here.evidence } : null);
      if (carry !== null) this.staged ??= { kind: carry.kind, evidence: carry.evidence === line ? line : `${carry.evidence} … ${line}` };
      return;
    }
    // `gpg -o out key`, `openssl enc -in key -out x`, `base64 -i key -o x`, `dd if=key of=x`: an output option.
    const out = optionValue(args, /^(?:-o|--output|-out|--output-file|-OutFile)$/i) ?? args.find((a) => a.startsWith('of='))?.slice(3) ?? null;
    if (out !== null && !NO_OUTPUT.test(program) && cliUpload(words) === null) {
      const carry = carried(args.filter((a) => a !== out).map((a) => a.replace(/^if=/, ''))) ?? input;
      if (carry !== null && carry.names !== true) this.record(out, carry, line);
    }
  }
}

/** The command `xargs` runs: its words after its own options (`-I {}`, `-n 1`, `-0`). */
function xargsCommand(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-')) i += /^-[InPLdsEa]$/.test(args[i] as string) ? 2 : 1;
  return args.slice(i);
}

/** The command `find ROOT … -exec CMD {} ;` runs, `{}` read as ROOT (each file under it). */
function findExec(args: readonly string[]): string[] | null {
  const at = args.findIndex((a) => a === '-exec' || a === '-execdir' || a === '-ok');
  const root = args[0];
  if (at < 0 || root === undefined || root.startsWith('-')) return null;
  const end = args.findIndex((a, k) => k > at && (a === ';' || a === '+'));
  return args.slice(at + 1, end < 0 ? args.length : end).map((a) => a.split('{}').join(root));
}

function optionValue(args: readonly string[], option: RegExp): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const eq = /^(--?[\w-]+)=(.*)$/.exec(a);
    if (eq !== null && option.test(eq[1] as string)) return eq[2] as string;
    if (option.test(a) && i + 1 < args.length) return args[i + 1] as string;
  }
  return null;
}

/** (round s31) `git archive` of the local repository (not `--remote`): its output file, null for standard output. */
function gitArchive(args: readonly string[]): { file: string | null } | null {
  const verbAt = args.findIndex((a, k) => !a.startsWith('-') && !/^(?:-C|-c|--git-dir|--work-tree)$/.test(args[k - 1] ?? ''));
  if (args[verbAt] !== 'archive') return null;
  const rest = args.slice(verbAt + 1);
  if (rest.some((a) => a === '--remote' || a.startsWith('--remote='))) return null;
  const file = optionValue(rest, /^(?:-o|--output)$/);
  return { file: file === null || file === '-' ? null : file };
}

/** A `tar` that creates an archive: its file (null for standard output), its sources, its `-C` folder. */
function tarCreate(args: readonly string[]): { file: string | null; sources: string[]; dir: string | null; fromStdin: boolean } | null {
  let create = false;
  let file: string | null = null;
  let dir: string | null = null;
  const sources: string[] = [];
  let fromStdin = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (i === 0 && /^[a-zA-Z]+$/.test(a) && /[cru]/.test(a)) {
      // Old-style cluster (`czf OUT`): each letter that takes a value takes the next word in turn.
      create = true;
      for (const letter of a) {
        if (letter === 'f') file = args[++i] ?? null;
        else if (letter === 'C') dir = args[++i] ?? null;
        else if (letter === 'T') fromStdin = (args[++i] ?? '') === '-';
      }
      continue;
    }
    if (/^--(?:create|append|update)$/.test(a)) create = true;
    else if (/^--file=/.test(a)) file = a.slice(7);
    else if (a === '--file') file = args[++i] ?? null;
    else if (/^--directory=/.test(a)) dir = a.slice(12);
    else if (a === '--directory') dir = args[++i] ?? null;
    else if (/^--files-from=/.test(a)) fromStdin = a.slice(13) === '-';
    else if (a.startsWith('--')) continue;
    else if (/^-[a-zA-Z]+$/.test(a)) {
      if (/[cru]/.test(a)) create = true;
      // `-czf OUT`, `-C DIR`: a value-taking letter last in its cluster takes the next word.
      const last = a[a.length - 1];
      if (last === 'f') file = args[++i] ?? null;
      else if (last === 'C') dir = args[++i] ?? null;
      else if (last === 'T') fromStdin = (args[++i] ?? '') === '-';
      else if (/[XbHN]/.test(last ?? '')) i++;
    } else sources.push(a);
  }
  if (!create) return null;
  return { file: file === '-' ? null : file, sources, dir, fromStdin };
}
