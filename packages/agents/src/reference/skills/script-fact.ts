/** What a script does that matters for a skill or an MCP server, found without running it. */
export type ScriptFactKind =
  /** Opens a connection or sends a request. */
  | 'network'
  /** Names a credential store (SSH keys, cloud credentials, browser or wallet stores, …). */
  | 'secret-path'
  /** Names a dotenv file (`.env`, `.env.local`, …): secrets, but loading one is ordinary. */
  | 'dotenv-path'
  /** Serializes the whole environment. */
  | 'env-dump'
  /** Runs a shell command built from variable input. */
  | 'shell-injection'
  /** Evaluates code that is not a literal. */
  | 'dynamic-eval'
  /** Decodes data (base64, hex, zlib, char codes) and runs it. */
  | 'decoded-exec'
  /** Downloads code and runs it (`curl … | sh`, `exec(requests.get(…).text)`). */
  | 'download-exec'
  /** Connects a shell to a socket. */
  | 'reverse-shell'
  /** Adds a fixed Bcc recipient to outgoing mail (the postmark-mcp backdoor). */
  | 'hardcoded-bcc'
  /** Runs a process at all (declared-capability comparison). */
  | 'process';

export interface ScriptFact {
  kind: ScriptFactKind;
  /** 1-based line. */
  line: number;
  evidence: string;
}

export type ScriptLanguage = 'javascript' | 'typescript' | 'python' | 'shell';

// Credential stores a script has no business opening unless that is its stated purpose.
export const SECRET_PATH_PATTERN =
  /(?:^|[/\\])\.ssh(?:[/\\]|$)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws[/\\]credentials|^\.aws$|(?:^|[/\\])\.npmrc$|(?:^|[/\\])\.pypirc$|(?:^|[/\\])\.netrc$|\.git-credentials|\.kube[/\\]config|\.docker[/\\]config\.json|\.config[/\\]gcloud|\.azure[/\\]|(?:^|[/\\])\.cursor[/\\]mcp\.json|claude_desktop_config\.json|\bLogin Data\b|\bCookies$|Local Storage[/\\]leveldb|\bwallet\.dat\b|\bkeystore\b|\.bash_history|\.zsh_history|\/etc\/shadow|Keychains?[/\\]|\bMetaMask\b|\.electrum|\bexodus\b/i;

/** A `.env` file by name or path (`.env`, `config/.env.production`). */
export const DOTENV_PATH_PATTERN = /(?:^|[/\\])\.env(?:\.[\w-]+)?$/;
