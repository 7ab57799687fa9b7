/**
 * Commands that print a credential a command-line tool keeps for the user: GitHub CLI's token, npm's
 * registry token, gcloud's and Azure CLI's access tokens, AWS CLI's exported keys. toptal/picasso
 * (July 2025) sent `gh auth token` from its install scripts; the s1ngularity/Nx attack (August 2025)
 * ran the same. Their output is the credential itself, as a credential file's content is.
 */
export const CLI_CREDENTIAL_COMMAND =
  /\bgh\s+auth\s+(?:token|status\s+(?:[^|;&]*\s)?(?:--show-token|-t)\b)|\bnpm\s+config\s+get\s+(?:\S*:)?_?auth(?:Token)?\b|\bgcloud\s+(?:auth\s+(?:application-default\s+)?print-(?:access|identity)-token|config\s+config-helper\b)|\baws\s+(?:configure\s+(?:export-credentials|get\s+aws_(?:secret_access_key|session_token|access_key_id))|sts\s+get-session-token|ecr\s+get-login-password|codeartifact\s+get-authorization-token)\b|\baz\s+account\s+get-access-token\b|\bdoctl\s+auth\s+token\b|\bheroku\s+auth:token\b|\bvault\s+print\s+token\b/;

/** The service each CLI's credential belongs to: a token sent there is its use, not a theft. */
const SERVICE_HOSTS: readonly [RegExp, RegExp][] = [
  [/\bgh\s/, /(?:^|\.)(?:github\.com|githubusercontent\.com|ghe\.com)$/i],
  [/\bnpm\s/, /^(?:registry\.npmjs\.org|registry\.yarnpkg\.com|npm\.pkg\.github\.com)$/i],
  [/\bgcloud\s/, /(?:^|\.)(?:googleapis\.com|google\.com|gcr\.io|pkg\.dev)$/i],
  [/\baws\s/, /(?:^|\.)amazonaws\.com(?:\.cn)?$/i],
  [/\baz\s/, /(?:^|\.)(?:azure\.com|windows\.net|microsoftonline\.com|azurecr\.io)$/i],
  [/\bdoctl\s/, /(?:^|\.)digitalocean\.com$/i],
  [/\bheroku\s/, /(?:^|\.)heroku\.com$/i],
];

/** Whether a host is the service of one of the given credential commands. */
export function isCredentialService(host: string, commands: readonly string[]): boolean {
  return commands.some((cmd) => SERVICE_HOSTS.some(([tool, hosts]) => tool.test(cmd) && hosts.test(host)));
}
