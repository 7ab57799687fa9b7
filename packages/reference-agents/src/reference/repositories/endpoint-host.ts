import { registrableDomain as packageRegistrableDomain } from '../packages/package-identity.js';

/**
 * Where a coding agent's API base URL set by a committed settings file sends the user's key (round s30;
 * in-sample: held-out set 31's ANTHROPIC_BASE_URL in .claude/settings.json, CVE-2026-21852):
 * - `vendor`: the model vendor's own API or the machine itself (no finding);
 * - `private`: a private network's name or address (`http://litellm:4000`, `llm-gw.corp`, `10.0.0.5`): the
 *   shape of a team's LLM gateway, reachable only inside that network (HIGH, as before);
 * - `provider`: a model provider or gateway service users route their agent through on purpose
 *   (OpenRouter, DeepSeek's and Moonshot's Anthropic-compatible APIs, Cloudflare AI Gateway, Portkey…) (HIGH);
 * - `own`: (round s30 review) a placeholder host (`llm.acme.com`, `gateway.example.com`, `your-proxy…`) or a host under a
 *   registrable domain the project's README and manifests link to (its company's gateway) (HIGH);
 * - `outside`: any other host on the internet: whoever runs it receives the key of everyone who opens the
 *   repository with the agent (CRIT).
 */
// Placeholder hosts (`llm.acme.com`, `gateway.example.com`, `your-proxy.io`), with `acme` and `corp` as whole labels; the
// settings paths also ask `foreignModelHost` (code/agent-settings-writes.ts), whose list is wider, so all three agree.
const PLACEHOLDER_HOST = /^(?:unresolved|unset|unconfigured|none|null|dummy|placeholder|undefined|unknown|not-?set|missing|disabled)\.|(?:^|\.)example\.(?:com|org|net)$|your|my-?(?:proxy|gateway|server|endpoint|host|domain|company|org)|proxy\.company|company\.com|(?:^|\.)(?:acme|corp)(?:\.|$)/i;

export type EndpointReach = 'vendor' | 'private' | 'provider' | 'own' | 'outside';

const VENDOR = /(?:^|\.)(?:anthropic\.com|claude\.ai|openai\.com|googleapis\.com|azure\.com|amazonaws\.com)$/i;
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]|::1|host\.docker\.internal)$/i;
const PRIVATE = /^(?:10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])(?:\.\d{1,3}){2}|\[?f[cd][0-9a-f]{2}:[^\]]*\]?)$|^[\w-]+$|\.(?:ts\.net|local|internal|lan|localhost|localdomain|intranet|corp|home\.arpa|svc|cluster\.local)$/i;
const PROVIDER =
  /(?:^|\.)(?:openrouter\.ai|deepseek\.com|moonshot\.(?:ai|cn)|bigmodel\.cn|z\.ai|aliyuncs\.com|minimaxi?\.(?:chat|io|com)|volces\.com|groq\.com|together\.(?:ai|xyz)|fireworks\.ai|mistral\.ai|x\.ai|cohere\.(?:ai|com)|deepinfra\.com|cerebras\.ai|siliconflow\.(?:cn|com)|novita\.ai|azure-api\.net|githubcopilot\.com|github\.ai|cloudflare\.com|ai-gateway\.vercel\.sh|portkey\.ai|kong-cloud\.com|konghq\.com|helicone\.ai|litellm\.ai|llmgateway\.io|databricks\.com|huggingface\.co|ollama\.com|nvidia\.com)$/i;

/** The host of an absolute http(s) URL, lower-cased ('' when the value is not one: a variable, a path). */
export function urlHost(value: string): string {
  return (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^/:?#\s]+)/i.exec(value.trim())?.[1] ?? '').toLowerCase();
}

// Hosting services whose customers each get a name under one domain: `alice.fly.dev` is not `bob.fly.dev`'s.
const SHARED_SUFFIX = /^(?:github\.io|gitlab\.io|fly\.dev|vercel\.app|netlify\.app|herokuapp\.com|pages\.dev|workers\.dev|ngrok\.io|ngrok-free\.app|ngrok\.app|onrender\.com|railway\.app|azurewebsites\.net|cloudfront\.net|appspot\.com|web\.app|firebaseapp\.com|readthedocs\.io|trycloudflare\.com|repl\.co|glitch\.me|deno\.dev|amplifyapp\.com|run\.app|modal\.run|hf\.space|loca\.lt|serveo\.net|pipedream\.net|webhook\.site|requestcatcher\.com|beeceptor\.com)$/i;

/** A host's registrable domain as the packages track reads it (`co.uk`-like suffixes), a shared hosting service's customer name kept. */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  if (labels.length > 2 && SHARED_SUFFIX.test(labels.slice(-2).join('.'))) return labels.slice(-3).join('.');
  return packageRegistrableDomain(labels.join('.'));
}

/**
 * Where a host is. `ownHosts` are the hosts the project's README and manifests link to (`projectOwnHosts`): a
 * host under one of their registrable domains is the project's own (`own`), as is a placeholder host
 * (`foreignModelHost`'s list: acme, corp, company, example.com, your-…) — the same reading on every path.
 */
export function endpointReach(host: string, ownHosts: readonly string[] = []): EndpointReach {
  // An address written as one number (`http://3232235777`) is read as the dotted address it is.
  if (/^\d{1,10}$/.test(host) && Number(host) < 2 ** 32) host = [24, 16, 8, 0].map((s) => (Number(host) >>> s) & 255).join('.');
  if (VENDOR.test(host) || LOOPBACK.test(host)) return 'vendor';
  if (PRIVATE.test(host)) return 'private';
  if (PROVIDER.test(host)) return 'provider';
  if (PLACEHOLDER_HOST.test(host)) return 'own';
  if (isOwnHost(host, ownHosts)) return 'own';
  return 'outside';
}

/** Whether a host is one of the project's own: a host its README or manifests link to, or one under the same registrable domain. */
export function isOwnHost(host: string, ownHosts: readonly string[]): boolean {
  const h = host.toLowerCase();
  const domain = registrableDomain(h);
  return domain.includes('.') && ownHosts.some((o) => h === o || h.endsWith(`.${o}`) || registrableDomain(o) === domain);
}
