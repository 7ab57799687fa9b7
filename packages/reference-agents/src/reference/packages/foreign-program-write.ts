/**
 * Writes into the code of another installed program: a desktop application (an Electron app's
 * `app.asar` or `resources`, its versioned code under the user's application data), an editor's
 * extensions, a package manager's global packages. A library or an install step has no business
 * there: what it writes runs inside the other program, with that program's trust and data, and
 * survives the removal of the artifact. Judged by where the write goes and what it writes, whatever
 * the target program is.
 */
import type { CallFact, CodeFacts } from '../code/code-facts.js';
import { spelledPath } from '../code/spelled-path.js';

/** An editor's directory of installed extensions (VS Code and its forks, their remote servers). */
const EDITOR_EXTENSIONS = /\.(?:vscode(?:-insiders|-server|-server-insiders|-oss)?|cursor(?:-server)?|windsurf(?:-server)?|vscodium|positron|kiro|trae)[\\/]extensions\b/i;
/** A browser's or a JetBrains IDE's installed extensions or plugins. */
const BROWSER_OR_IDE_EXTENSIONS = /(?:Chrome|Chromium|Edge|Brave[\w-]*|Vivaldi|Opera[\w ]*)[\\/](?:User Data[\\/])?[\w ]+[\\/]Extensions\b|JetBrains[\\/][\w.]+[\\/]plugins\b/i;
/** Files of an installed application bundle: an Electron archive, a macOS bundle's contents, an Electron app's code folder. */
const APP_BUNDLE = /\.asar\b|\.app[\\/]Contents[\\/](?:Resources|MacOS|Frameworks)\b|[\\/]resources[\\/]app[\\/]/i;
/** Where a package manager keeps globally installed tools, or the command that prints it. */
const GLOBAL_PACKAGES = /\b(?:npm\s+root\s+-g|npm\s+prefix\s+-g|pnpm\s+root\s+-g|yarn\s+global\s+dir|bun\s+pm\s+bin\s+-g)\b|[\\/]usr[\\/](?:local[\\/])?lib[\\/]node_modules\b|[\\/]npm[\\/]node_modules\b|\.npm-global\b/i;
/**
 * Where installed applications and their per-user code live (Electron apps update into versioned
 * folders here). `.config` as a folder of a path (`~/.config/app`, `join(home, '.config', app)`),
 * not inside a file name or a regular expression (`/^vite(?:st)?\.config\./` in vitest's bundle).
 */
const APP_LOCATION = /Application Support|AppData[\\/](?:Local|Roaming)|\b(?:LOCALAPPDATA|APPDATA|ProgramFiles(?:\(x86\))?)\b|Program Files|(?:^|['"`\\/])Applications[\\/]|(?:^|['"`~\\/])\.config[\\/]\w[\w .-]*/i;
/** Files that are code another program loads or runs. */
const CODE_FILE = /\.(?:js|cjs|mjs|asar|node|py|pyc|pth|sh|ps1|bat|cmd|dylib|so|dll|exe)$/i;
/** File writes (JavaScript and Python), including appends and copies over a target. */
const WRITE = /(?:^|\.)(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|renameSync|rename|copyfile|copy2|copytree|write_text|write_bytes|extractAll|createPackage)$|^open$/;
/**
 * Moves and copies whose names are also string, list and object methods (`message.replace(…)` in
 * vitest's bundle was read as `os.replace`, a false CRIT; `dict.copy()`, `player.move()`): writes
 * only on a file-system module (`fs-extra.move`, `os.replace`, `shutil.copy`, `shutil.move`), or in
 * Python on an expression receiver (`Path(dst).replace(…)`, whose callee reads `?.replace`).
 */
const MOVE_OR_COPY = /^(?:fs|fs\.promises|fs-extra|graceful-fs|os|shutil|pathlib\.Path)\.(?:copy|move|replace)$/;
const PY_PATH_MOVE = /^\?\.replace$/;

export interface ForeignProgramWrite {
  line: number;
  /** The call and the kind of place it writes into, for evidence. */
  detail: string;
}

function kindOf(text: string): string | null {
  if (EDITOR_EXTENSIONS.test(text)) return 'an editor\'s installed extensions';
  if (BROWSER_OR_IDE_EXTENSIONS.test(text)) return 'a browser\'s or IDE\'s installed extensions';
  if (GLOBAL_PACKAGES.test(text)) return 'globally installed packages';
  if (APP_BUNDLE.test(text)) return 'an installed application bundle';
  return null;
}

/**
 * The first write of the file into another installed program's code, or null. `ownName` is the
 * artifact's own name: a tool's own folder under application data or `.config` is its own.
 */
export function foreignProgramWrite(facts: CodeFacts, text: string, ownName: string): ForeignProgramWrite | null {
  const writes = facts.calls.filter((c) => (WRITE.test(c.callee) || MOVE_OR_COPY.test(c.callee) || (facts.language === 'python' && PY_PATH_MOVE.test(c.callee))) && !(c.callee === 'open' && !/^[wax]|\+/.test(c.args[1] ?? c.options.mode ?? '')));
  if (writes.length === 0) return null;
  // The path pieces of the whole file read joined: the target is usually built from a root found at run time.
  const flat = spelledPath(text);
  const own = ownName.replace(/^@[^/]+\//, '').toLowerCase();
  const ownFolder = (m: string) => own !== '' && m.toLowerCase().includes(own);
  const fileKind = kindOf(flat);
  const appData = foreignAppLocation(flat, ownFolder) ? 'an installed application\'s files' : null;
  const codeLiteral = facts.strings.some((s) => CODE_FILE.test(s.value.trim()) && !/^\.?\/?package\.json$/.test(s.value.trim()));
  for (const c of writes) {
    const target = targetOf(c);
    if (target.startsWith('$DIR') || target.startsWith('$FILE')) continue;
    const kind = kindOf(target) ?? fileKind ?? (CODE_FILE.test(target) || codeLiteral ? appData : null);
    if (kind === null) continue;
    // A code file (or an archive) written: settings and data files of another program are another rule's business.
    if (!(CODE_FILE.test(target) || (target === '' && codeLiteral) || APP_BUNDLE.test(target))) continue;
    return { line: c.line, detail: `${c.callee}(${target || '…'}) into ${kind}` };
  }
  return null;
}

/**
 * Whether the file names an application location that is not the artifact's own folder. (round s30,
 * real false alarms) Each place is read with the folder that follows it (`join(process.env.APPDATA,
 * 'ngrok')`, `APPDATA\\ngrok`, `Application Support/Discord`): ngrok's installer caching its
 * download under `%APPDATA%/ngrok` was read as a write into another application because its first
 * `APPDATA` was the bare test `&& process.env.APPDATA`. Any place followed by another folder is
 * foreign; places with no folder after them are foreign unless another place names the own folder.
 */
function foreignAppLocation(flat: string, ownFolder: (m: string) => boolean): boolean {
  let own = false;
  let bare = false;
  const re = new RegExp(APP_LOCATION.source, 'gi');
  let n = 0;
  for (let m = re.exec(flat); m !== null && n < 200; m = re.exec(flat), n++) {
    if (ownFolder(m[0])) {
      own = true;
      continue;
    }
    // The next path piece: `, 'name'`, `/name`, `\\name`, `') + '/name`.
    const next = /^['"`]?\)?\s{0,4}(?:,|\+|[\\/]{1,2})\s{0,4}['"`]?[\\/]{0,2}([\w][\w .-]{0,60})/.exec(flat.slice(m.index + m[0].length, m.index + m[0].length + 90));
    if (next === null) bare = true;
    else if (ownFolder(next[1]!)) own = true;
    else return true;
  }
  return bare && !own;
}

/** The write's target as far as the reader folded it (`?` for parts found at run time). */
function targetOf(c: CallFact): string {
  if (c.argPath !== undefined) return c.argPath;
  const first = c.args[0];
  return typeof first === 'string' ? first : '';
}
