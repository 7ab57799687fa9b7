import { SECRET_PATH_PATTERN } from './script-fact.js';

/**
 * Files whose bytes are a secret when they leave the machine: private keys, tokens and credential files
 * (the `secret-path` list), shell and REPL histories (typed passwords, tokens pasted on a command line),
 * browser profiles, wallets. Wider than `secret-path` (which only weighs a read) for the parts a reader
 * would not flag but a sender should not send: a whole `~/.aws`, `~/.kube` or GitHub CLI folder, a
 * browser's profile folder, any `*_history`.
 */
const MORE_MATERIAL =
  /(?:^|[/\\])\.(?:aws|kube|docker|gnupg|config[/\\]gh|config[/\\]gcloud)[/\\]?$|(?:^|[/\\])\.[\w*-]*_history$|(?:^|[/\\])fish_history$|ConsoleHost_history\.txt$|(?:^|[/\\])\.mozilla[/\\]firefox\b|(?:^|[/\\])(?:google-chrome|chromium|BraveSoftware|Google[/\\]Chrome|Microsoft[/\\]Edge|Mozilla[/\\]Firefox)(?:[/\\]|$)|\bcookies\.sqlite$|\blogins\.json$|\bkey[34]\.db$|\bWeb Data$|(?:^|[/\\])\.(?:pgpass|my\.cnf|vault-token|boto|s3cfg|terraformrc)$|\.cargo[/\\]credentials(?:\.toml)?$|\.gem[/\\]credentials$|\.composer[/\\]auth\.json$|\.config[/\\]hub$|application_default_credentials\.json$|(?:^|[/\\])\.ethereum[/\\]|(?:^|[/\\])\.bitcoin[/\\]|\.config[/\\]rclone[/\\]rclone\.conf$/i;

/**
 * Paths the `secret-path` list names that hold nothing secret: a public key (meant to be pasted
 * anywhere), the hosts an SSH client knows, its settings, the keys allowed to log in.
 */
const NOT_SECRET = /\.pub$|(?:^|[/\\])(?:known_hosts(?:\.old)?|authorized_keys2?|config|allowed_signers)$/i;

/** A word names credential material (a file or a folder of them, a glob over them included). */
export function credentialMaterial(word: string): boolean {
  const w = word.replace(/["']/g, '').replace(/\/+$/, '');
  if (w === '' || w.length > 400) return false;
  // `~/.ssh/config`, `~/.ssh/id_ed25519.pub` name no secret; `~/.ssh`, `~/.ssh/*`, `~/.ssh/id_*` do.
  if (/(?:^|[/\\])\.ssh[/\\]/.test(w) && NOT_SECRET.test(w)) return false;
  if (/\.pub$/i.test(w)) return false;
  if (/(?:^|[/\\])\.ssh[/\\](?:\*|id_\*|\*\*)$/.test(w)) return true;
  return SECRET_PATH_PATTERN.test(w) || MORE_MATERIAL.test(w);
}

/** A dotenv file (`.env`, `.env.local`, `.env*`) other than a template meant to be shared (`.env.example`). */
export function dotenvMaterial(word: string): boolean {
  const w = word.replace(/["']/g, '');
  return /(?:^|[/\\])\.env(?:\.[\w-]+|\*|\.\*)?$/.test(w) && !/\.env\.(?:example|sample|template|dist|defaults?|tpl|schema)$/i.test(w);
}
