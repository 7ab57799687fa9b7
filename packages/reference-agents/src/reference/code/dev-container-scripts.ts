/**
 * The scripts an artifact's dev container runs inside the container: those a real dev container
 * definition (`.devcontainer/devcontainer.json`, `.devcontainer/<name>/devcontainer.json`,
 * `.devcontainer.json`) names in a lifecycle command that runs in the container (`onCreateCommand`,
 * `updateContentCommand`, `postCreateCommand`, `postStartCommand`, `postAttachCommand`), or that the
 * Dockerfile it builds runs or copies. `initializeCommand` runs on the user's machine, so what it names
 * is not contained. A script is in the container because the container runs it, not because it sits
 * in a folder named like one or says "devcontainer" in a comment: an imitation of either is what an
 * attacker would write to pass a write of the user's own agent settings off as the container's.
 */

/** Paths of dev container definitions, by their file name (what a folder is called proves nothing). */
// A skill that sets dev containers up ships its definition as a template (`resources/devcontainer.json`) with
// the Dockerfile that copies its setup script into the image: that script too runs only in the container.
export const DEV_CONTAINER_DEFINITION = /(?:^|\/)\.?devcontainer\.json$/;
const LIFECYCLE = /"(?:onCreateCommand|updateContentCommand|postCreateCommand|postStartCommand|postAttachCommand)"\s*:\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\]|\{[^}]*\})/g;
const DOCKERFILE = /"dockerfile"\s*:\s*"([^"]+)"|"dockerFile"\s*:\s*"([^"]+)"/gi;
// Path-like tokens of a command: `bash .devcontainer/post-create.sh`, `python3 ./scripts/setup.py`.
const PATH_TOKEN = /(?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\.(?:sh|bash|py|js|mjs|cjs|ts|ps1|rb|pl)\b/g;

function dirOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
}

/** `a/b/../c` → `a/c`, `./x` → `x`. */
function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/**
 * The artifact files (from `paths`) a real dev container runs inside the container. `read` gives a
 * file's text (null when it cannot be read).
 */
export async function devContainerScripts(paths: readonly string[], read: (path: string) => Promise<string | null>, options: { templates?: boolean } = {}): Promise<Set<string>> {
  const out = new Set<string>();
  const known = new Set(paths);
  const resolve = (token: string, dirs: readonly string[]) => {
    const clean = token.replace(/^\$\{(?:containerWorkspaceFolder|localWorkspaceFolder)\}\/?/, '');
    for (const dir of dirs) {
      const p = normalise(`${dir}${clean}`);
      if (known.has(p)) out.add(p);
    }
  };
  for (const def of paths.filter((p) => DEV_CONTAINER_DEFINITION.test(p))) {
    const text = await read(def);
    if (text === null) continue;
    const defDir = dirOf(def);
    // The project root: the folder holding `.devcontainer/` (commands run from the workspace folder).
    const root = def.slice(0, Math.max(0, def.search(/\.devcontainer/)));
    const commands: string[] = [];
    for (const m of text.matchAll(LIFECYCLE)) commands.push(m[1] ?? '');
    for (const m of text.matchAll(DOCKERFILE)) {
      const dockerfile = normalise(`${defDir}${m[1] ?? m[2] ?? ''}`);
      const body = known.has(dockerfile) ? await read(dockerfile) : null;
      // A Dockerfile's RUN and COPY lines run or place scripts inside the image.
      if (body !== null) for (const line of body.split('\n')) if (/^\s*(?:RUN|COPY|ADD)\b/i.test(line)) commands.push(line);
    }
    for (const command of commands) {
      for (const t of command.matchAll(PATH_TOKEN)) {
        resolve(t[0], [root, defDir]);
        // A template definition a skill ships names its scripts where they will be once the folder is copied
        // into the project (`.devcontainer/post_install.py`): the script beside the template is the one meant.
        if (options.templates === true) resolve(t[0].slice(t[0].lastIndexOf('/') + 1), [defDir]);
      }
    }
  }
  return out;
}
