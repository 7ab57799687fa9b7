import { isOfficialInstallerUrl } from '../known/official-installers.js';

// Hosts anyone can publish to anonymously and at once: paste sites, file drops, tunnels, request
// catchers, URL shorteners, dynamic DNS. Code fetched from or data sent to them has no publisher.
const ANONYMOUS_HOST =
  /(?:^|\.)(?:pastebin\.com|paste\.ee|pastes\.io|glot\.io|rentry\.(?:co|org)|hastebin\.com|ghostbin\.\w+|dpaste\.\w+|termbin\.com|transfer\.sh|file\.io|0x0\.st|temp\.sh|catbox\.moe|anonfiles\.\w+|gofile\.io|ngrok(?:-free)?\.(?:app|io|dev)|ngrok\.io|trycloudflare\.com|loca\.lt|localtunnel\.me|serveo\.net|pinggy\.(?:io|link)|webhook\.site|requestbin\.\w+|pipedream\.net|beeceptor\.com|interact\.sh|oast\.(?:fun|live|me|pro|site)|burpcollaborator\.net|bit\.ly|tinyurl\.com|is\.gd|t\.co|cutt\.ly|duckdns\.org|no-ip\.\w+|ddns\.net|cdn\.discordapp\.com|discord(?:app)?\.com)$/i;
// Words in a host or path that name no tool: `get.`, `/install.sh`, `raw.githubusercontent.com`.
const GENERIC = new Set(['www', 'get', 'install', 'installer', 'setup', 'script', 'scripts', 'tool', 'tools', 'cli', 'download', 'downloads', 'release', 'releases', 'latest', 'main', 'master', 'raw', 'cdn', 'static', 'dl', 'bin', 'files', 'api', 'app', 'com', 'org', 'net', 'io', 'dev', 'sh', 'rs', 'land', 'html', 'githubusercontent', 'github', 'gitlab', 'refs', 'heads', 'blob', 'assets', 'public', 'linux', 'macos', 'darwin', 'amd64', 'arm64', 'x86', 'x64', 'tar', 'gz', 'zip', 'ps1', 'py', 'js', 'https', 'http', 'the', 'and']);

export type DownloadHostKind = 'anonymous' | 'unnamed' | 'tool-site' | 'placeholder';

/** The first http(s) URL in a command line, or null. */
export function firstUrl(text: string): URL | null {
  const m = /https?:\/\/[^\s"'`)<>|;]+/.exec(text);
  if (!m) return null;
  try {
    return new URL(m[0]);
  } catch {
    return null;
  }
}

/**
 * How much a documented download-and-run says about its source: 'anonymous' (a bare IP address, plain
 * http, or a host anyone can publish to: see ANONYMOUS_HOST), 'tool-site' (an https domain whose
 * name or path names a command the document itself uses, as `curl -fsSL https://bun.sh/install | bash`
 * in a document that runs `bun install`: the official installer of a tool the skill uses; also the official
 * installers of known/official-installers.ts, such as Homebrew's and rustup's), 'placeholder' (`example.com`, `.org`,
 * `.net` themselves), else 'unnamed'.
 */
export function downloadHostKind(url: URL, documentText: string): DownloadHostKind {
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'http:' || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || ANONYMOUS_HOST.test(host)) return 'anonymous';
  // `https://example.com/install.sh` is the address documentation writes when it means "some URL"
  // (RFC 2606); a named subdomain (`evil.example.com`) stands in for a real host and is not this.
  if (/^(?:www\.)?example\.(?:com|org|net)$/.test(host)) return 'placeholder';
  // The vendor's own installer address (known/official-installers.ts: its domain or its own GitHub repository).
  if (isOfficialInstallerUrl(url)) return 'tool-site';
  const labels = host.split('.').slice(0, -1);
  const segments = url.pathname.split(/[/]/).flatMap((s) => s.replace(/\.(?:sh|ps1|py|js)$/, '').split(/[-_.]/));
  const tokens = [...new Set([...labels.flatMap((l) => l.split('-')), ...segments].map((t) => t.toLowerCase()))].filter((t) => t.length >= 2 && !GENERIC.has(t) && !/^v?\d/.test(t));
  for (const token of tokens) {
    const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // The tool used as a command: at the start of a code line (`$ bun install`) or of inline code.
    const used = new RegExp(`(?:^|\\n)[ \\t]*(?:\\$[ \\t]+)?(?:sudo[ \\t]+)?${escaped}[ \\t]+[\\w-]|\`${escaped}[ \\t]+[\\w-]`, 'i');
    if (used.test(documentText)) return 'tool-site';
  }
  return 'unnamed';
}

/** True for a URL on a host anyone can publish to anonymously (ANONYMOUS_HOST). */
export function isAnonymousHost(url: URL): boolean {
  return ANONYMOUS_HOST.test(url.hostname.toLowerCase());
}
