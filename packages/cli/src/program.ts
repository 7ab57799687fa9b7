import { Command } from 'commander';
import { completeHelp, type Kit, type RunState } from './command-kit.js';
import type { Io } from './io.js';
import { VERSION } from './version.js';

type Register = (program: Command, kit: Kit) => void;

/**
 * The top-level commands (aliases included) of each command module, in the order of `vigil --help`.
 * A module is imported only when its command is run (or for the whole tree: `vigil --help`, an
 * unknown command, `completion`), so `vigil --version` loads no command and `vigil network` loads
 * neither the scanner nor the lockfile readers (docs/benchmarks.md, "Command-line start-up").
 */
export const COMMAND_MODULES: { names: readonly string[]; load: () => Promise<Register> }[] = [
  { names: ['health', 'identity', 'network', 'dashboard', 'trends', 'rounds', 'leaderboard', 'agents', 'agent'], load: async () => (await import('./commands/public-reads.js')).registerPublicReads },
  { names: ['login', 'logout', 'whoami', 'keys'], load: async () => (await import('./commands/account.js')).registerAccount },
  { names: ['attestations', 'attestation', 'verify-attestation', 'canonical-hash', 'search'], load: async () => (await import('./commands/attestations.js')).registerAttestations },
  { names: ['verify', 'verify-repo'], load: async () => (await import('./commands/verify.js')).registerVerify },
  { names: ['sbom'], load: async () => (await import('./commands/sbom.js')).registerSbom },
  { names: ['scan'], load: async () => (await import('./commands/scan.js')).registerScan },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.js')).registerMcp },
  { names: ['policy', 'policies'], load: async () => (await import('./commands/policy.js')).registerPolicy },
  { names: ['artifacts', 'artifact'], load: async () => (await import('./commands/artifacts.js')).registerArtifacts },
  { names: ['repositories', 'repository'], load: async () => (await import('./commands/repositories.js')).registerRepositories },
  { names: ['webhooks', 'webhook'], load: async () => (await import('./commands/webhooks.js')).registerWebhooks },
  { names: ['watch', 'watches'], load: async () => (await import('./commands/watches.js')).registerWatches },
  { names: ['events'], load: async () => (await import('./commands/events.js')).registerEvents },
  { names: ['keygen', 'miner', 'validator'], load: async () => (await import('./commands/operator.js')).registerOperator },
  { names: ['log'], load: async () => (await import('./commands/log.js')).registerLog },
  { names: ['firewall', 'npm', 'pnpm', 'yarn', 'pip'], load: async () => (await import('./commands/firewall.js')).registerFirewall },
  { names: ['admin'], load: async () => (await import('./commands/admin.js')).registerAdmin },
  { names: ['completion'], load: async () => (await import('./commands/completion.js')).registerCompletion },
];

/** Global options that take a value (`--base-url <url>`): the word after them is not the command. */
const VALUE_OPTIONS = new Set(['--base-url', '--url', '--token', '--api-key', '--profile']);

/** The commands that run a package manager: every word after theirs is the package manager's (src/commands/firewall.ts). */
const WRAPPERS = new Set(['npm', 'pnpm', 'yarn', 'pip']);

/**
 * Where a wrapper command (`vigil [global options] npm …`) stands in `argv`, or null: the words
 * after it go to the package manager untouched, never through vigil's option parsing
 * (`vigil npm ls --json` is npm's --json).
 */
export function wrapperIndex(argv: readonly string[]): number | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return null;
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    if (!WRAPPERS.has(arg)) return null;
    // `vigil npm --help` alone is vigil's help for the wrapper (`vigil npm help` is npm's).
    const rest = argv.slice(i + 1);
    return rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h') ? null : i;
  }
  return null;
}

/**
 * The modules a command line needs: the one of its command, none for a bare `--version`, every one
 * where the whole tree is shown or searched (help of the program, an unknown command, `completion`).
 */
export function modulesFor(argv: readonly string[]): typeof COMMAND_MODULES {
  const words: string[] = [];
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i++;
      else if (arg === '-V' || arg === '--version') version = true;
      continue;
    }
    words.push(arg);
    if (words[0] !== 'help' || words.length === 2) break;
  }
  const name = words[0] === 'help' ? words[1] : words[0];
  if (name === undefined) return version && words.length === 0 ? [] : COMMAND_MODULES;
  const hit = COMMAND_MODULES.find((m) => m.names.includes(name));
  if (hit === undefined || name === 'completion') return COMMAND_MODULES;
  return [hit];
}

const FOOTER = `
Configuration (first found wins): --base-url, --url, VIGIL_BASE_URL, VIGIL_URL, the profile, http://localhost:8080;
--token, --api-key, VIGIL_API_TOKEN, VIGIL_API_KEY, the profile. Profiles: vigil login (file ~/.config/vigil/config.json).

Exit status: 0 success (ALLOW); 1 error (the server answered an error or could not be reached, a file could not be read);
2 usage error; 3 attestation not genuine; 4 WARN (with --fail-on warn, the default); 5 BLOCK;
attestation verify --log: 6 not in the log, 7 bad proof, 8 bad checkpoint signature (also log monitor);
log monitor: 9 log inconsistent (a fork, a rewritten history, tiles that do not match the signed checkpoint), 10 not witnessed;
130 Ctrl-C (scan, --wait).

Examples:
  $ vigil login --base-url https://api.vigil.example --token vgl_…
  $ vigil verify pkg:npm/left-pad@1.3.0
  $ vigil verify-repo --sarif > vigil.sarif
  $ vigil leaderboard --track skills
  $ vigil rounds scores --help

Docs: docs/cli.md.`;

/**
 * The `vigil` command tree (docs/cli.md), with the commands `argv` needs (all without it). `state`
 * receives the exit status a command sets.
 */
export async function buildProgram(io: Io, state: RunState, argv?: readonly string[]): Promise<Command> {
  const program = new Command('vigil')
    .description('vigil: the command line of Vigil (artifact verdicts and attestations)')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--base-url <url>', 'server base URL (env VIGIL_BASE_URL)')
    .option('--url <url>', 'alias of --base-url (env VIGIL_URL)')
    .option('--token <token>', 'API token vgl_… (env VIGIL_API_TOKEN)')
    .option('--api-key <token>', 'alias of --token (env VIGIL_API_KEY)')
    .option('--profile <name>', 'profile of the profile file (env VIGIL_PROFILE; default "default")')
    .option('--json', 'print the JSON answer exactly as the server sent it')
    .option('--compact', '--json on one line')
    .option('--no-color', 'no colour (also NO_COLOR=1; colour is only ever used on a terminal)')
    .helpOption('-h, --help', 'help for a command')
    .helpCommand('help [command]', 'help for a command')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: (text, write) => write(text.replace(/^error: /, 'vigil: ')),
    })
    .showHelpAfterError('(run "vigil --help" for usage)')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText('after', FOOTER);
  const kit: Kit = { io, state };
  const modules = argv === undefined ? COMMAND_MODULES : modulesFor(argv);
  for (const register of await Promise.all(modules.map((m) => m.load()))) register(program, kit);
  for (const command of program.commands) completeHelp(command);
  return program;
}
