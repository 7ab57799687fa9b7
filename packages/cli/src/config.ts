import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { CliError } from './exit-codes.js';
import type { Io } from './io.js';

export const DEFAULT_BASE_URL = 'http://localhost:8080';
export const DEFAULT_PROFILE = 'default';

export interface Profile {
  base_url?: string;
  token?: string;
}

/** `config.json`: named profiles, written by `vigil login` (docs/cli.md, "The profile file"). */
export interface ConfigFile {
  profiles: Record<string, Profile>;
}

/** `$XDG_CONFIG_HOME/vigil` when that is an absolute path (the XDG rule), else `~/.config/vigil`. */
export function configDir(io: Io): string {
  const xdg = io.env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'vigil');
  const home = io.home ?? io.env.HOME;
  if (!home) throw new CliError('cannot find the configuration directory: set HOME or XDG_CONFIG_HOME');
  return join(home, '.config', 'vigil');
}

export function configPath(io: Io): string {
  return join(configDir(io), 'config.json');
}

export async function readConfig(io: Io): Promise<ConfigFile> {
  const path = configPath(io);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new CliError(`${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CliError(`${path}: not JSON: ${(err as Error).message}`);
  }
  const profiles = (parsed as { profiles?: unknown } | null)?.profiles;
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
    throw new CliError(`${path}: expected {"profiles": {"<name>": {"base_url": …, "token": …}}}`);
  }
  // A token file others can read is a leaked token: say so, as ssh does for its keys.
  const mode = (await stat(path)).mode & 0o777;
  if (mode & 0o077) io.stderr(`vigil: warning: ${path} is readable by other users (mode ${mode.toString(8)}); run: chmod 600 ${path}\n`);
  return { profiles: profiles as Record<string, Profile> };
}

/** Writes the file with mode 0600 in a 0700 directory, replacing it in one step. */
export async function writeConfig(io: Io, config: ConfigFile): Promise<string> {
  const path = configPath(io);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only to a new file and is narrowed by the umask: set it outright.
  await chmod(temporary, 0o600);
  await rename(temporary, path);
  return path;
}

export interface GlobalOptions {
  baseUrl?: string;
  url?: string;
  token?: string;
  apiKey?: string;
  profile?: string;
  json?: boolean;
  color?: boolean;
  compact?: boolean;
}

export interface Connection {
  baseUrl: string;
  token: string | null;
  profile: string;
  /** Where each value came from, for `vigil whoami` and error messages. */
  baseUrlFrom: string;
  tokenFrom: string | null;
}

/** Flags first, then environment variables, then the profile file, then the default. */
export async function resolveConnection(io: Io, options: GlobalOptions): Promise<Connection> {
  const named = options.profile ?? (io.env.VIGIL_PROFILE || undefined);
  const profileName = named ?? DEFAULT_PROFILE;
  const config = await readConfig(io).catch((err: unknown) => {
    // A broken profile file stops only the commands that name a profile: the others say which file
    // is broken and go on without it (flags and environment variables still apply).
    if (!(err instanceof CliError) || named !== undefined) throw err;
    io.stderr(`vigil: warning: ${err.message}; the profile file is ignored\n`);
    return { profiles: {} } as ConfigFile;
  });
  const profile = config.profiles[profileName];
  if (options.profile !== undefined && !profile) throw new CliError(`--profile: no profile ${JSON.stringify(profileName)} in ${configPath(io)} (run vigil login --profile ${profileName})`);
  const env = (name: string) => {
    const value = io.env[name]?.trim();
    return value ? value : undefined;
  };
  const baseCandidates: [string | undefined, string][] = [
    [options.baseUrl, '--base-url'],
    [options.url, '--url'],
    [env('VIGIL_BASE_URL'), 'VIGIL_BASE_URL'],
    [env('VIGIL_URL'), 'VIGIL_URL'],
    [profile?.base_url, `profile ${profileName}`],
    [DEFAULT_BASE_URL, 'default'],
  ];
  const tokenCandidates: [string | undefined, string][] = [
    [options.token, '--token'],
    [options.apiKey, '--api-key'],
    [env('VIGIL_API_TOKEN'), 'VIGIL_API_TOKEN'],
    [env('VIGIL_API_KEY'), 'VIGIL_API_KEY'],
    [profile?.token, `profile ${profileName}`],
  ];
  const [baseUrl, baseUrlFrom] = baseCandidates.find(([value]) => value !== undefined) as [string, string];
  const tokenHit = tokenCandidates.find(([value]) => value !== undefined);
  return { baseUrl, baseUrlFrom, token: tokenHit?.[0] ?? null, tokenFrom: tokenHit?.[1] ?? null, profile: profileName };
}
