import { registrableDomain, vendorOfEnvName } from '../packages/package-identity.js';

/**
 * Which service a credential from the environment belongs to, and whether a host is that service's.
 * Shared by the credential-sending rules (credential-foreign-host, credential-sends, go-credential-send)
 * and by the tool-behaviour reading, which must tell a token presented to its own API (how a client
 * authenticates) from one carried somewhere else.
 */

/** A variable whose name says it holds a secret: `GITHUB_TOKEN`, `OPENAI_API_KEY`, `SLACK_SIGNING_SECRET`, `DB_PASSWORD`. */
export const SECRET_ENV = /(?:TOKEN|_KEY|SECRET|_PAT|PASSWORD|CREDENTIALS?)$/i;

/**
 * A name that holds a credential of some kind, wherever the word stands (`GITHUB_TOKEN_ENTERPRISE`,
 * `API_KEY_V2`, `SESSION_COOKIE`): what a tool handler holds when it reads one is a credential, not
 * data of the user's. Other variables (`GITHUB_API_URL`, `OWNER`, `REGION`, `MODEL`) are configuration.
 */
export const CREDENTIAL_ENV = /(?:^|_)(?:TOKEN|KEY|SECRET|PAT|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH|COOKIE|SESSION|DSN|PRIVATE|APIKEY|ACCESS_KEY_ID)(?:_|$)|(?:TOKEN|APIKEY|SECRET|PASSWORD)$/i;

/**
 * Services whose API domain is not spelled like the variable's first word (HubSpot's API is
 * api.hubapi.com, Jira's is on atlassian.net, Twitter's on x.com, a GitHub token also pulls from
 * ghcr.io). Matched against the first label of the host's registrable domain.
 */
const ALIASES: Readonly<Record<string, RegExp>> = {
  hf: /^(?:huggingface|hf)$/,
  huggingface: /^(?:huggingface|hf)$/,
  gh: /^(?:github\w*|ghcr)$/,
  github: /^(?:github\w*|ghcr)$/,
  gemini: /^google/,
  // Google's products, by the names their tokens go by.
  gdrive: /^google\w*$/,
  drive: /^google\w*$/,
  gcal: /^google\w*$/,
  gsheets: /^google\w*$/,
  sheets: /^google\w*$/,
  gdocs: /^google\w*$/,
  firebase: /^(?:firebase\w*|google\w*)$/,
  bigquery: /^google\w*$/,
  vertex: /^google\w*$/,
  youtube: /^(?:youtube|google\w*)$/,
  gmail: /^google\w*$/,
  cf: /^cloudflare/,
  ms: /^(?:microsoft\w*|office\w*|live|windows|azure\w*|sharepoint|outlook)$/,
  azure: /^(?:azure\w*|microsoft\w*|windows|office\w*)$/,
  outlook: /^(?:microsoft\w*|office\w*|live|outlook)$/,
  graph: /^(?:microsoft\w*|office\w*)$/,
  teams: /^(?:microsoft\w*|office\w*)$/,
  sharepoint: /^(?:sharepoint|microsoft\w*)$/,
  onedrive: /^(?:microsoft\w*|live|onedrive|sharepoint)$/,
  gcp: /^google/,
  jira: /^(?:atlassian|jira)$/,
  confluence: /^(?:atlassian|confluence)$/,
  bitbucket: /^(?:bitbucket|atlassian)$/,
  hubspot: /^(?:hubspot|hubapi)$/,
  twitter: /^(?:twitter|x|twimg)$/,
  xai: /^x$/,
  grok: /^x$/,
  claude: /^anthropic$/,
  pplx: /^perplexity$/,
  salesforce: /^(?:salesforce|force)$/,
  sf: /^(?:salesforce|force)$/,
  shopify: /^(?:shopify|myshopify)$/,
  docker: /^docker$/,
  dockerhub: /^docker$/,
};

/** The host's domain is the variable's service: its first label is the vendor's (`api.github.com`, `githubusercontent.com`), never a look-alike with a hyphen. */
export function vendorHost(host: string, env: string): boolean {
  const v = vendorOfEnvName(env);
  if (v === null) return true;
  const label = registrableDomain(host).split('.')[0] ?? '';
  if (label.includes('-')) return false;
  return (ALIASES[v.vendor]?.test(label) ?? false) || label.startsWith(v.vendor) || v.host.test(label);
}

/** The credential names a service (`GITHUB_TOKEN` → github): only then can a host be told to be someone else's. */
export function hasVendor(env: string): boolean {
  return vendorOfEnvName(env) !== null;
}

/** Hosts of this machine or its private network: a local proxy or model server is not a third party. */
export const LOCAL_HOST = /^(?:localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal|10(?:\.\d+){3}|192\.168(?:\.\d+){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d+){2})$/i;
