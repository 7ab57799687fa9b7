/** What a script does that matters for a skill or an MCP server, found without running it. */
export type ScriptFactKind =
  /** Opens a connection or sends a request. */
  | 'network'
  /** Names a credential store (SSH keys, cloud credentials, browser or wallet stores, …). */
  | 'secret-path'
  /** Names a dotenv file (`.env`, `.env.local`, …): secrets, but loading one is ordinary. */
  | 'dotenv-path'
  /** Sends a `.env` file's contents to a host: piped into an upload, or named (or archived into a file that is named) as its body. */
  | 'dotenv-sent'
  /**
   * Sends credentials as a request's body: a credential file, or what a cloud or cluster CLI prints of its
   * credentials and secrets (`kubectl get secrets`, `aws configure export-credentials`), piped into an upload,
   * substituted into its body, or written to a file (or archived with its folder) that an upload names.
   */
  | 'credential-sent'
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
  /** Cuts bytes out of a data file the artifact carries (an image, a font, media) and runs them. */
  | 'carved-exec'
  /** (round s31b) Decrypts data read from a file the artifact carries (XOR with a key, a cipher with its own key) and runs it. */
  | 'decrypted-exec'
  /** Connects a shell to a socket. */
  | 'reverse-shell'
  /** Deletes or overwrites what it does not own: the home directory, the root, a disk. */
  | 'destructive'
  /** Adds a fixed Bcc recipient to outgoing mail (the postmark-mcp backdoor). */
  | 'hardcoded-bcc'
  /** Runs a process at all (declared-capability comparison). */
  | 'process'
  /**
   * Writes where code or instructions run again later: an agent's settings or hooks, agent memory in
   * the home directory, shell startup files, OS autostart, SSH authorized keys, git hooks.
   */
  | 'persistence-write'
  /** Writes a project's agent memory or rules file (CLAUDE.md, AGENTS.md, .cursor/rules): steers later sessions. */
  | 'agent-memory-write'
  /** Runs a shell on a command it is handed whole (a command-runner helper), not on a template it fills in. */
  | 'shell-passthrough'
  /** Runs a shell command built from variable input that it quotes first (shlex.quote, JSON.stringify). */
  | 'shell-quoted'
  /** Evaluates as code a value that comes from its input (a function parameter, `sys.argv`, `input()`). */
  | 'input-eval'
  /** Puts a secret environment variable (`*_KEY`, `*TOKEN*`, …) into the body of a request. */
  | 'secret-env-sent'
  /** Puts a secret environment variable into the name a DNS lookup asks for (each lookup carries it to the name's server). */
  | 'secret-env-dns'
  /** Tells the antivirus to look away: a Defender exclusion, its real-time protection or the firewall switched off. */
  | 'defense-evasion';

export interface ScriptFact {
  kind: ScriptFactKind;
  /** 1-based line. */
  line: number;
  evidence: string;
}

export type ScriptLanguage = 'javascript' | 'typescript' | 'python' | 'shell';

// Credential stores a script has no business opening unless that is its stated purpose.
export const SECRET_PATH_PATTERN =
  /(?:^|[/\\])\.ssh(?:[/\\]|$)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws[/\\]credentials|^\.aws$|(?:^|[/\\])\.npmrc$|(?:^|[/\\])\.pypirc$|(?:^|[/\\])\.netrc$|\.git-credentials|\.kube[/\\]config|\.docker[/\\]config\.json|\.config[/\\]gcloud|\.azure[/\\]|(?:^|[/\\])\.cursor[/\\]mcp\.json|claude_desktop_config\.json|\bLogin Data\b|\bCookies$|Local Storage[/\\]leveldb|\bwallet\.dat\b|\bkeystore\b|\.bash_history|\.zsh_history|\/etc\/shadow|Keychains?[/\\]|\bMetaMask\b|\.electrum|\bexodus\b|\.claude[/\\]\.credentials\.json|\.config[/\\]gh[/\\]hosts\.yml|\.codex[/\\]auth\.json|\.gemini[/\\]oauth_creds\.json|\.config[/\\]github-copilot[/\\]|\.terraform\.d[/\\]credentials|\.config[/\\]solana[/\\]id\.json|(?:^|[/\\])\.gnupg(?:[/\\]|$)|\.password-store/i;

/** A `.env` file by name or path (`.env`, `config/.env.production`). */
export const DOTENV_PATH_PATTERN = /(?:^|[/\\])\.env(?:\.[\w-]+)?$/;

/** An agent's settings, hooks or MCP configuration: code there runs on the agent's next start or tool call. */
export const AGENT_SETTINGS_PATH =
  /(?:^|[/\\])\.claude[/\\](?:settings(?:\.local)?\.json|hooks(?:[/\\]|$))|(?:^|[/\\])\.(?:cursor|windsurf|codeium|gemini|codex|continue|kiro|amazonq)[/\\](?:hooks|settings\.json|config\.(?:json|toml|ya?ml)|mcp\.json|mcp_config\.json)|claude_desktop_config\.json|(?:^|[/\\])\.mcp\.json$|(?:^|[/\\])\.vscode[/\\](?:settings|tasks)\.json/i;
/**
 * A standing rule an agent would obey in every later session that no maintainer writes into its
 * own project memory: act without asking, keep something from the user, send data out.
 * ("Always run `npm test` before committing" is an ordinary project rule.)
 */
export const COVERT_STANDING_RULE =
  /\bwithout\s+(?:asking|confirm\w*|prompt\w*|approval|telling|mentioning)|\b(?:do\s+not|don['’]t|never)\s+(?:ask|tell|mention|show|confirm|prompt|inform)\b|\b(?:curl|wget)\b[^\n]{0,80}https?:|\s--upload\b|\b(?:upload|send|post)\s+(?:the\s+|all\s+)?(?:env\w*|secrets?|tokens?|keys?|credentials?)\b/i;

/** Agent memory and rules files: what they say steers every later session. */
export const AGENT_MEMORY_PATH =
  /(?:^|[/\\])(?:CLAUDE|AGENTS|GEMINI|CLAUDE\.local)\.md$|(?:^|[/\\])\.claude[/\\](?:CLAUDE\.md|memory|commands|agents)\b|(?:^|[/\\])\.cursor[/\\]rules|(?:^|[/\\])\.(?:cursorrules|windsurfrules|clinerules)$|(?:^|[/\\])\.windsurf[/\\]rules|copilot-instructions\.md$|(?:^|[/\\])\.github[/\\]instructions[/\\]/i;
/** Shell startup files: a line added there runs in every new shell. */
export const SHELL_STARTUP_PATH = /(?:^|[/\\])\.(?:bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|zlogin|profile)$|(?:^|[/\\])config\.fish$|PowerShell_profile\.ps1$|(?:^|[/\\])etc[/\\](?:profile\.d|bash\.bashrc|zshrc|environment)/i;
/** OS autostart, scheduled jobs, SSH keys and git hooks: footholds that outlive the session. */
export const AUTOSTART_PATH =
  /Library[/\\]Launch(?:Agents|Daemons)|(?:^|[/\\])\.config[/\\](?:autostart|systemd[/\\]user)|(?:^|[/\\])etc[/\\](?:systemd|cron|crontab|rc\.local|init\.d)|Start Menu[/\\]Programs[/\\]Startup|(?:^|[/\\])\.ssh[/\\]authorized_keys|(?:^|[/\\])\.git[/\\]hooks[/\\]|(?:^|[/\\])var[/\\]spool[/\\]cron/i;

/**
 * How a written path persists, if it does: 'persistence' (agent settings and hooks, memory in the home
 * directory, shell startup, autostart), 'memory' (a project's agent memory or rules file), or null.
 * `home` says the path was built from the home directory (`~`, `$HOME`, `homedir()`, `expanduser`).
 */
export function persistenceKind(path: string, home: boolean): 'persistence' | 'memory' | 'shell-startup' | null {
  const p = path.replace(/\/{2,}/g, '/');
  if (AGENT_SETTINGS_PATH.test(p) || AUTOSTART_PATH.test(p)) return 'persistence';
  if (SHELL_STARTUP_PATH.test(p)) return 'shell-startup';
  if (AGENT_MEMORY_PATH.test(p)) return home || /^~|\$HOME|%USERPROFILE%|^\/(?:home|Users|root)\//.test(p) ? 'persistence' : 'memory';
  return null;
}
