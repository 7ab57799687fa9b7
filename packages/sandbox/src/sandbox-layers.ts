import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The OS layers this machine offers the sandbox (docs/agents.md, "What is enforced where").
 * The permission model and the preload are always used; these two depend on the platform.
 */
export interface SandboxLayers {
  /**
   * `unshare` arguments that put the agent in a new, empty network namespace (no interface but a
   * down loopback), or null when unavailable (not Linux, no `unshare`, user namespaces disabled).
   */
  networkNamespace: readonly string[] | null;
  /** Absolute path of `prlimit` (RLIMIT_CPU and RLIMIT_AS), or null when unavailable (not Linux, or missing). */
  prlimit: string | null;
  /** Absolute path of `unshare` when `networkNamespace` is set. */
  unshare: string | null;
  /**
   * Absolute path of `setpriv` (util-linux ≥ 2.33) when `setpriv --pdeathsig KILL` works: the agent
   * is killed by the kernel when the runner dies, or null when unavailable.
   */
  setpriv: string | null;
  /** The flag that turns Node's permission model on: `--permission` (Node ≥ 22.13) or `--experimental-permission`. */
  permissionFlag: '--permission' | '--experimental-permission';
}

function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function succeeds(command: string, args: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', env: {} });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/** Least privilege first: keep our own uid inside the namespace, else map to root there, else (already root) no user namespace. */
const UNSHARE_VARIANTS: readonly (readonly string[])[] = [['--net', '--map-current-user'], ['--net', '--map-root-user'], ['--net']];

/** `setpriv` arguments: SIGKILL the agent when the runner (its parent) dies. */
export const PARENT_DEATH_SIGNAL: readonly string[] = ['--pdeathsig', 'KILL'];

async function detect(): Promise<SandboxLayers> {
  const permissionFlag = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
  if (process.platform !== 'linux') return { networkNamespace: null, prlimit: null, unshare: null, setpriv: null, permissionFlag };
  const prlimitPath = onPath('prlimit');
  // Probed with the very binary and arguments a run uses: seccomp profiles (containers) or
  // `kernel.unprivileged_userns_clone=0` make unshare exist yet fail.
  const prlimit = prlimitPath !== null && (await succeeds(prlimitPath, ['--as=4294967296', '--', process.execPath, '--version'])) ? prlimitPath : null;
  const unshare = onPath('unshare');
  let networkNamespace: readonly string[] | null = null;
  if (unshare !== null) {
    for (const variant of UNSHARE_VARIANTS) {
      if (await succeeds(unshare, [...variant, '--', process.execPath, '--version'])) {
        networkNamespace = variant;
        break;
      }
    }
  }
  const setprivPath = onPath('setpriv');
  const setpriv = setprivPath !== null && (await succeeds(setprivPath, [...PARENT_DEATH_SIGNAL, '--', process.execPath, '--version'])) ? setprivPath : null;
  return { networkNamespace, prlimit, unshare: networkNamespace === null ? null : unshare, setpriv, permissionFlag };
}

let detected: Promise<SandboxLayers> | undefined;

/** What this machine offers, probed once per process. */
export function detectSandboxLayers(): Promise<SandboxLayers> {
  detected ??= detect();
  return detected;
}
