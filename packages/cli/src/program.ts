import { Command } from 'commander';
import type { Kit, RunState } from './command-kit.js';
import { registerAccount } from './commands/account.js';
import { registerAdmin } from './commands/admin.js';
import { registerArtifacts } from './commands/artifacts.js';
import { registerAttestations } from './commands/attestations.js';
import { registerCompletion } from './commands/completion.js';
import { registerEvents } from './commands/events.js';
import { registerOperator } from './commands/operator.js';
import { registerPolicy } from './commands/policy.js';
import { registerPublicReads } from './commands/public-reads.js';
import { registerRepositories } from './commands/repositories.js';
import { registerScan } from './commands/scan.js';
import { registerVerify } from './commands/verify.js';
import { registerWebhooks } from './commands/webhooks.js';
import type { Io } from './io.js';
import { VERSION } from './version.js';

const FOOTER = `
Configuration (first found wins): --base-url, --url, VIGIL_BASE_URL, VIGIL_URL, the profile, http://localhost:8080;
--token, --api-key, VIGIL_API_TOKEN, VIGIL_API_KEY, the profile. Profiles: vigil login (file ~/.config/vigil/config.json).

Exit status: 0 success (ALLOW); 1 error (the server answered an error or could not be reached, a file could not be read);
2 usage error; 3 attestation not genuine; 4 WARN (with --fail-on warn, the default); 5 BLOCK.

Examples:
  $ vigil login --base-url https://api.vigil.example --token vgl_…
  $ vigil verify pkg:npm/left-pad@1.3.0
  $ vigil verify-repo --sarif > vigil.sarif
  $ vigil leaderboard --track skills
  $ vigil rounds scores --help

Docs: docs/cli.md.`;

/** The `vigil` command tree (docs/cli.md). `state` receives the exit status a command sets. */
export function buildProgram(io: Io, state: RunState): Command {
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
  registerPublicReads(program, kit);
  registerAccount(program, kit);
  registerAttestations(program, kit);
  registerVerify(program, kit);
  registerScan(program, kit);
  registerPolicy(program, kit);
  registerArtifacts(program, kit);
  registerRepositories(program, kit);
  registerWebhooks(program, kit);
  registerEvents(program, kit);
  registerOperator(program, kit);
  registerAdmin(program, kit);
  registerCompletion(program, kit);
  return program;
}
