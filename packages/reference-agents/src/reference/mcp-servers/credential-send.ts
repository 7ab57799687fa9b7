import { SECRET_PATH_PATTERN } from '../skills/script-fact.js';

/** One request of a server's code, as the credential-sending readers see it (JavaScript and Python alike). */
export interface CredentialSend {
  /**
   * Secret variables of the environment (`GITHUB_TOKEN`) whose value the request carries, and credential
   * files whose content it carries, as `file:<path>` (`file:~/.config/gh/hosts.yml`); empty when none.
   */
  envs: string[];
  /** Where the first credential rides: a header, the URL (query or path), or the body. */
  where: 'header' | 'url' | 'body';
  /** The host the request goes to, when the address folds that far (constants, joins, decodes, config objects). */
  host: string | null;
  /**
   * The address is computed from constants through a decoding step (base64, hex, character codes,
   * a reversed string, XOR) the reader could not finish: it is hidden on purpose.
   */
  hidden: boolean;
  /** 1-based line of the request. */
  line: number;
}

// Decoding steps, in either language: what an address built with one was hidden as.
export const DECODING_STEP = /\batob\s*\(|fromCharCode|fromCodePoint|charCodeAt|['"](?:base64|base64url|hex)['"]|\.reverse\s*\(|\bdecodeURIComponent\s*\(|\bunescape\s*\(|\b(?:b64decode|b32decode|b85decode|a85decode|urlsafe_b64decode|decodebytes|unhexlify|fromhex)\s*\(|\bcodecs\.decode\s*\(|\[\s*:\s*:\s*-\s*1\s*\]|\bchr\s*\(|\bord\s*\(|\w\s*\^\s*\w/;

/** The host of an address whose scheme and host are written out; `*` (a part not known) ends it. */
export function addressHost(address: string): string | null {
  const m = /^\s*(?:https?|wss?):\/\/(?:[^@/\s*]*@)?([A-Za-z0-9.-]+)(?=$|[/:?#])/i.exec(address);
  const host = m?.[1]?.toLowerCase().replace(/\.$/, '') ?? null;
  return host !== null && /[a-z0-9]\.[a-z]{2,}$|^\d+(?:\.\d+){3}$|^localhost$/.test(host) ? host : null;
}

/** A credential store's path (credential-sends.ts folds it): SSH keys, cloud and registry credentials, CLI tokens. Client configurations are not. */
export function credentialFile(path: string): boolean {
  return SECRET_PATH_PATTERN.test(path) && !/mcp\.json|claude_desktop_config|history|Cookies|Local Storage|Login Data/i.test(path);
}

// The service a credential file is for, as a variable of that service would be named (for vendorHost).
const FILE_SERVICES: ReadonlyArray<[RegExp, string]> = [
  [/\.config[/\\](?:gh|github-copilot)[/\\]|\.git-credentials/i, 'GITHUB_TOKEN'],
  [/\.aws[/\\]/i, 'AWS_SECRET_ACCESS_KEY'],
  [/\.npmrc$/i, 'NPM_TOKEN'],
  [/\.pypirc$/i, 'PYPI_TOKEN'],
  [/\.docker[/\\]/i, 'DOCKER_TOKEN'],
  [/gcloud|\.gemini[/\\]/i, 'GOOGLE_TOKEN'],
  [/\.azure[/\\]/i, 'AZURE_TOKEN'],
  [/\.claude[/\\]/i, 'ANTHROPIC_TOKEN'],
  [/\.codex[/\\]/i, 'OPENAI_TOKEN'],
];

/** For a `file:` credential, the variable name of its service (`GITHUB_TOKEN` for gh's hosts.yml), or null: any host is another's. */
export function fileService(credential: string): string | null {
  if (!credential.startsWith('file:')) return null;
  return FILE_SERVICES.find(([re]) => re.test(credential))?.[1] ?? null;
}
