/** Who a package says it is: its name and the sites its own metadata names. */
export interface PackageIdentity {
  /** The package name without its scope, lower-case ('' when unknown). */
  name: string;
  /** The package name as published (`@scope/name`, `name`), '' when unknown. */
  fullName: string;
  /** Lower-case words of the package name (`@acme/db-driver` → acme, db, driver). */
  words: readonly string[];
  /** Registrable domains of the homepage, repository, bugs and project URLs in the package's own metadata. */
  domains: ReadonlySet<string>;
}

/** Hosts anyone can publish under, so naming one in metadata proves nothing about a download from it. */
const SHARED_HOSTING = /(^|\.)(github\.io|gitlab\.io|herokuapp\.com|repl\.co|glitch\.me|vercel\.app|netlify\.app|pages\.dev|workers\.dev|web\.app|firebaseapp\.com|000webhostapp\.com|blogspot\.com|wordpress\.com|ngrok\.io|ngrok\.app|ngrok-free\.app|trycloudflare\.com|duckdns\.org|no-ip\.\w+|ddns\.net|azurewebsites\.net|onrender\.com|fly\.dev)$/i;

/**
 * Hosts used to stage payloads or receive stolen data: raw public IP addresses, link shorteners,
 * paste and file-drop sites, tunnels, request catchers, dynamic DNS and free domain extensions.
 */
const SHADY_HOST =
  /(^|\.)(bit\.ly|bitly\.com|tinyurl\.com|goo\.gl|is\.gd|cutt\.ly|rb\.gy|shorturl\.at|ow\.ly|rebrand\.ly|tiny\.cc|t\.ly|pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|rentry\.(co|org)|pastes\.io|controlc\.com|justpaste\.it|transfer\.sh|file\.io|anonfiles\.com|gofile\.io|0x0\.st|catbox\.moe|temp\.sh|bashupload\.com|ngrok\.io|ngrok\.app|ngrok-free\.app|trycloudflare\.com|serveo\.net|localtunnel\.me|loca\.lt|localhost\.run|webhook\.site|pipedream\.net|requestbin\.\w+|beeceptor\.com|interact\.sh|oast\.(pro|live|site|online|fun|me)|oastify\.com|burpcollaborator\.net|canarytokens\.com|dnslog\.cn|ceye\.io|duckdns\.org|no-ip\.(com|org|biz)|ddns\.net|hopto\.org|zapto\.org|repl\.co|glitch\.me|000webhostapp\.com|discord\.com\/api\/webhooks|[a-z0-9-]+\.(tk|ml|ga|cf|gq|pw|top|xyz|icu|cyou|monster|zip|mov|buzz|rest|click|onion))$/i;

/** True for a public IPv4/IPv6 literal (private, loopback and link-local ranges excluded: cloud metadata, local dev servers). */
function publicIp(host: string): boolean {
  if (/^\[?[0-9a-f:]+\]?$/i.test(host) && host.includes(':')) return !/^\[?(::1|fe80:|fc|fd)/i.test(host);
  const m = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (m === null) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return !(a === 10 || a === 127 || a === 0 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254));
}

export function isShadyHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^[^@]*@/, '');
  return publicIp(h) || SHADY_HOST.test(h);
}

/** `api.files.acme.co.uk` → `acme.co.uk`; `cdn.acme.io` → `acme.io`. */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/^[^@]*@/, '').replace(/:\d+$/, '').split('.').filter((l) => l !== '');
  if (labels.length <= 2) return labels.join('.');
  const sld = labels[labels.length - 2]!;
  const tld = labels[labels.length - 1]!;
  const take = tld.length === 2 && /^(co|com|org|net|ac|gov|edu|ne|or|go)$/.test(sld) ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** The identity of a package from its name and the URLs in its metadata (package.json fields, PKG-INFO/METADATA lines). */
export function packageIdentity(name: string | null, metadataUrls: readonly string[]): PackageIdentity {
  const words = (name ?? '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3);
  const domains = new Set<string>();
  for (const url of metadataUrls) {
    const host = /^(?:[a-z+]+:\/\/|git@)([^/:?#\s]+)/i.exec(url.trim())?.[1];
    if (host === undefined || publicIp(host) || SHARED_HOSTING.test(host) || /^(github\.com|gitlab\.com|bitbucket\.org|npmjs\.com|www\.npmjs\.com|pypi\.org|readthedocs\.io)$/i.test(host)) continue;
    domains.add(registrableDomain(host));
  }
  return { fullName: name ?? '', name: (name ?? '').toLowerCase().replace(/^@[^/]+\//, ''), words, domains };
}

/**
 * A host the package itself vouches for: its metadata names the site (homepage, project URL), or
 * the site's name is a word of the package's name (`ngrok` talking to ngrok.com). Never an IP; a
 * tunnel, paste or drop host only for the package named exactly like it.
 */
export function ownHost(host: string, identity: PackageIdentity | undefined): boolean {
  if (identity === undefined || publicIp(host.replace(/^[^@]*@/, ''))) return false;
  const domain = registrableDomain(host);
  if (identity.domains.has(domain)) return true;
  const label = domain.split('.')[0] ?? '';
  // A tunnel or paste service's own client (package `localtunnel` → localtunnel.me) is named exactly like it.
  if (isShadyHost(host)) return label === identity.name;
  return label.length >= 4 && identity.words.includes(label);
}

/** Leading words of secret variable names that name no service (`API_KEY`, `MY_TOKEN`). */
const GENERIC_ENV_WORD = /^(api|secret|access|private|auth|client|app|my|user|db|database|password|passwd|pass|token|key|service|session|jwt|admin|bot|webhook|master|root|env|oauth|refresh|bearer|encryption|signing|cookie|smtp|mail|email|redis|mongo|mongodb|postgres|mysql|node|npm_config|ci|build|deploy|prod|dev|test|local|default|server|web|http|https|proxy|secure|shared|global|custom|tls|ssl|sso|id|vault)$/i;
const VENDOR_HOSTS: Readonly<Record<string, RegExp>> = {
  gh: /github/,
  github: /github/,
  aws: /amazonaws|aws/,
  npm: /npmjs|npm/,
  pypi: /pypi|python\.org/,
  twine: /pypi|python\.org/,
  google: /google|gcp|gstatic/,
  gcp: /google/,
  azure: /azure|microsoft|windows\.net/,
};

/** The service a secret variable belongs to (`GITHUB_TOKEN` → a test for github hosts), null when the name names none. */
export function vendorOfEnvName(name: string): { vendor: string; host: RegExp } | null {
  const first = name.toLowerCase().split(/_+/).find((w) => w !== '') ?? '';
  if (first.length < 2 || GENERIC_ENV_WORD.test(first)) return null;
  return { vendor: first, host: VENDOR_HOSTS[first] ?? new RegExp(first.replace(/[^a-z0-9]/g, '')) };
}
