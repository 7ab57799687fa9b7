// The usage text of `vigil-server` (bin.ts). No import here: `vigil-server help` reads the text the
// build wrote (dist/usage.txt, by write-usage.ts) and loads none of the server (docs/benchmarks.md,
// "Command-line start-up").

/** What the usage text says of a configuration variable (config.ts, ALL_CONFIG_VARIABLES). */
export interface UsageVariable {
  name: string;
  accepts: string;
  default: string;
}

const COMMANDS = `Usage: vigil-server <command> [options]

Commands:
  serve [--seed-demo-if-empty]  Migrate the database and serve the API (public and signed endpoints);
                                with VIGIL_SCHEDULER=true (default) also advance rounds, with
                                VIGIL_REPOSITORY_WORKER=true (default) verify repository pushes, with
                                VIGIL_REGISTRY_FETCH and VIGIL_REGISTRY_WORKER true (default) run registry
                                fetches. With the flag, load the demo data first when the database has
                                no rounds.
                                SIGTERM/SIGINT drain in-flight requests, then exit 0.
  worker                        Advance rounds, verify repository pushes, deliver webhooks and (with
                                VIGIL_REGISTRY_FETCH=true, the default) run registry fetches without serving
                                HTTP (run any number of them: exactly one advances a round at a time,
                                each push is verified and each fetch run by one of them).
  migrate                       Apply pending database migrations (and the one-off search index rebuild
                                a migration asks for) and exit.
  seed --demo                   Migrate, then load the demo data into an empty database.
  metagraph export <file>       Read the configured metagraph source once and save it as a snapshot
                                file (for VIGIL_METAGRAPH_FILE or offline attestation checks).
  validators list               Show every validator record: hotkey, uid, status, allowlist.
  validators <approve|suspend|revoke|restore> <hotkey>
                                Approve a pending registration (VIGIL_VALIDATOR_REGISTRATION=approval),
                                suspend, revoke, or restore a suspended or revoked validator.
  keys create (--org <name> | --personal <name>) --scopes <scope,…> [--plan free|paid] [--name <label>]
                                Issue an API key (creating the account when it is new; --plan sets or
                                changes its plan). Prints the token once. Scopes: read, upload, verify,
                                policies, repositories, webhooks, keys, admin.
  keys list (--org <name> | --personal <name>)
                                An account's keys: id, status, scopes, name, last use, use count.
  keys revoke <key_id>          Revoke any key.
  accounts list                 Every account: id, name, kind, plan, trusted.
  accounts (trust | untrust) <name>
                                Whether an account's package references count for every account's
                                verification (trust) or for its own only (untrust, the default).
  registries status [--json]    The registry fetch queue: fetches per state (queued, running, stored,
                                failed), how many are due and how far behind the workers are, and the
                                newest running, queued and failed fetches with their last error.
  registries retry (<purl> | --failed)
                                Put one failed (or backing-off queued) fetch, or every failed fetch,
                                back to be fetched now, attempts reset (after fixing a registry token,
                                say). Audited as operator. status also shows the release watcher.
  registries watch add <package…>
                                Add names to the deployment's own watch list (npm:left-pad,
                                npm:@scope/x, pypi:requests, or a purl without version).
  registries watch seed <file>  The same for a file of names, one a line (a bare name is npm; # comments).
  registries watch list         The deployment's watch list, with where the watcher stands on each name.
  firewall [--port <n>] [--host <address>] [--vigil-url <url>] [--npm-upstream <url>]
           [--npm-scope @scope=<url>]… [--pypi-upstream <url>]… [--policy <name>]
           [--mode fail-open|fail-closed|wait] [--wait-seconds <n>] [--warn allow|block]
           [--cooldown-hours <n>] [--dashboard-url <url>] [--log <file>]
                                Run the registry firewall for a team (docs/firewall.md): each caller
                                authenticates with its own Vigil API key and is decided by its account;
                                callers without a key use VIGIL_FIREWALL_ANONYMOUS_KEY, or get 401 when it
                                is unset. Decision log on stdout (or --log); decisions are reported to
                                each account. SIGTERM/SIGINT stop it (exit 0).
  search reindex                Rebuild the search index from the artifacts and attestations (migrate
                                and serve do it once by themselves after migration 0016).
  advisories import <directory|zip>
                                Import an OSV advisory feed: a directory of .json records (searched
                                recursively) or a zip such as osv.dev's bulk export. Prints what it did
                                with every file; exits 1 when no file held a valid record.
  advisories status             What is imported: advisory and package counts, the last import.
  artifacts add --track <track> --kind labeled|live [--ground-truth ALLOW|WARN|BLOCK] [--label <label>]
                [--source-id <id>] <path…>
                                Load artifacts for the rounds to evaluate: a directory (packed into a
                                reproducible .tar.gz) or a .tgz, .tar.gz, .zip or .whl file (stored as it
                                is). Labeled artifacts need --ground-truth. Loading the same content
                                again changes nothing. Exits 1 when any path could not be loaded.
  artifacts load <manifest.json>
                                The same for every entry of {"artifacts": [{path, track, kind,
                                ground_truth?, label?, source_id?}]} (paths relative to the manifest).
  facts backfill                Compute the package facts (license, install scripts) of every artifact
                                that has none yet (they are otherwise computed on first use).
  blobs migrate --to s3://<bucket>[/<prefix>] [--endpoint <url>]
                                Copy every blob of the file store (<VIGIL_DATA_DIR>/blobs) to an S3
                                bucket, each read back and hashed; blobs already there with their bytes
                                are skipped, so running it again resumes. Region, path style, timeouts
                                from VIGIL_S3_*, credentials from the AWS chain. Progress on stderr;
                                exits 1 when a blob could not be copied, the store is down, or
                                <VIGIL_DATA_DIR>/blobs/sha256 does not exist.
  help, --help, -h              Show this help.

`;

export function usageText(variables: readonly UsageVariable[]): string {
  return `${COMMANDS}Environment:\n${variables.map((v) => `  ${v.name.padEnd(38)} ${v.accepts} (default: ${v.default})`).join('\n')}\n`;
}
