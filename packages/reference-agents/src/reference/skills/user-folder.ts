/**
 * (round s31) A folder that holds the user's own data, as a command line or a rendered script names it: the home
 * directory or anything under it (`~`, `~/.ssh`, `~/.config`, `~/.aws`, a browser profile under `~/Library` or
 * `~/.mozilla`, `$HOME`, `%USERPROFILE%`, `%APPDATA%`, `/home/<name>`, `/Users/<name>`, `/root`), or the project the
 * agent works in (`.`, `./`, `..`, `$PWD`, `$(pwd)`, `$(git rev-parse --show-toplevel)`, `$CLAUDE_PROJECT_DIR`,
 * `$GITHUB_WORKSPACE`, `$CI_PROJECT_DIR`). Trailing segments that name no folder of their own — a glob (`*`, `**`,
 * `*.pdf`), a value not known (`%`, `$name`) — are the folder's contents. A subfolder of the project (`dist`,
 * `./build`), a temporary folder, a system folder and a path the user passes (`$1`) are none.
 */
const PROJECT_WORDS = /\$\(\s*pwd\s*\)|`pwd`|\$\{PWD\}|\$PWD(?!\w)|\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)|\$\{?(?:CLAUDE_PROJECT_DIR|GITHUB_WORKSPACE|CI_PROJECT_DIR)\}?(?!\w)/g;
const HOME_WORDS = /\$\{HOME\}|\$HOME(?!\w)|%(?:USERPROFILE|HOMEPATH|APPDATA|LOCALAPPDATA)%|\$env:(?:USERPROFILE|HOME|APPDATA|LOCALAPPDATA)(?!\w)|\$\{?(?:XDG_CONFIG_HOME|XDG_DATA_HOME)\}?(?!\w)/gi;
// A last segment that is the folder's contents rather than a folder: a glob, an unknown value.
const CONTENTS = /\/(?:\*{1,2}(?:\.[\w*]+)?|%|\$\{?[A-Za-z_]\w*\}?|\.)$/;

/** The path with the project and home spelled `.` and `~`, separators `/`, contents segments and trailing slashes off. */
export function folderOf(word: string): string {
  let w = word.replace(/["']/g, '').replace(/\\/g, '/').replace(PROJECT_WORDS, '.').replace(HOME_WORDS, '~').trim();
  for (let i = 0; i < 8; i++) {
    const next = w.replace(/\/+$/, '').replace(CONTENTS, '');
    if (next === w) break;
    w = next;
  }
  return w;
}

/** True when a path names the home directory (or a folder in it) or the project folder itself. */
export function userDataFolder(word: string): boolean {
  if (word.length > 1000) return false;
  const w = folderOf(word);
  if (w === '.' || w === '..') return true;
  return homeFolderPath(w);
}

/** (round s31 review) True when a path names the home directory or a folder in it (`~/.ssh`, a browser profile), not the project. */
export function homeDataFolder(word: string): boolean {
  return word.length <= 1000 && homeFolderPath(folderOf(word));
}

function homeFolderPath(w: string): boolean {
  if (w === '~' || w.startsWith('~/')) return true;
  return /^(?:\/(?:home|Users)\/[^/\s$%*]+|\/root|[A-Za-z]:\/Users\/[^/\s$%*]+)(?:\/|$)/.test(w);
}
