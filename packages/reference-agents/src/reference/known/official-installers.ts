/**
 * Where the documented official installer one-liners of developer tools live (`curl … | sh` is how these
 * tools tell people to install them). One principle for every entry: the address is the vendor's own —
 * its own domain, or a repository of its own organisation on GitHub (served from
 * raw.githubusercontent.com or github.com). A host anyone can publish to (a CDN serving any npm package
 * or GitHub repository, a bucket host, deno.land/x) is never one, whoever publishes there.
 */

/**
 * Vendor domains: rustup, Docker, Bun, Deno, pnpm, Yarn, uv/ruff (astral.sh), Poetry, golangci-lint,
 * NodeSource, Nix, Helm, SDKMAN, Foundry, Solana, fnm, pyenv, RVM, .NET, Starship, GitHub CLI, Claude
 * Code, opencode, Ollama, Tailscale, k3s, MinIO, Vector, Oh My Zsh, Volta, Flutter, mise, just.
 */
export const OFFICIAL_INSTALLER_HOSTS =
  /^(sh\.rustup\.rs|rustwasm\.github\.io|static\.rust-lang\.org|get\.docker\.com|test\.docker\.com|bun\.sh|deno\.land|deno\.com|get\.pnpm\.io|yarnpkg\.com|classic\.yarnpkg\.com|astral\.sh|install\.python-poetry\.org|golangci-lint\.run|deb\.nodesource\.com|rpm\.nodesource\.com|install\.determinate\.systems|nixos\.org|releases\.nixos\.org|get\.helm\.sh|get\.sdkman\.io|foundry\.paradigm\.xyz|release\.solana\.com|release\.anza\.xyz|fnm\.vercel\.app|pyenv\.run|get\.rvm\.io|dot\.net|dotnet\.microsoft\.com|starship\.rs|sdk\.cloud\.google\.com|cli\.github\.com|claude\.ai|gh\.io|opencode\.ai|ollama\.com|tailscale\.com|get\.k3s\.io|min\.io|dl\.min\.io|sh\.vector\.dev|install\.ohmyz\.sh|ohmyz\.sh|get\.volta\.sh|sh\.flutter\.dev|mise\.run|just\.systems)$/i;

/**
 * Repositories (owner/name) on GitHub that are the tool's own and hold its documented installer script:
 * Homebrew, nvm, Oh My Zsh, pyenv, rbenv, n, Helm, rustup, wasm-pack, Deno, Bun, uv/ruff, pnpm, Volta,
 * golangci-lint, NodeSource, fnm, Foundry, cargo-binstall, act, Trivy, Syft/Grype, zoxide, TruffleHog,
 * and every repository of the devcontainers, microsoft and actions organisations.
 */
export const OFFICIAL_CODE_HOST_OWNER =
  /^(?:Homebrew\/install|nvm-sh\/nvm|ohmyzsh\/ohmyzsh|pyenv\/pyenv-installer|rbenv\/rbenv-installer|tj\/n|helm\/helm|rust-lang\/rustup|rustwasm\/wasm-pack|denoland\/deno_install|oven-sh\/bun|astral-sh\/(?:uv|ruff)|pnpm\/get|volta-cli\/volta|golangci\/golangci-lint|nodesource\/distributions|Schniz\/fnm|foundry-rs\/foundry|creationix\/nvm|cargo-bins\/cargo-binstall|nektos\/act|aquasecurity\/trivy|anchore\/(?:syft|grype)|ajeetdsouza\/zoxide|trufflesecurity\/trufflehog|devcontainers\/\w[\w.-]*|microsoft\/\w[\w.-]*|actions\/\w[\w.-]*)$/i;

// Paths of a vendor domain where anyone publishes (third-party modules on deno.land).
const OPEN_PATH_ON_VENDOR_HOST = /^deno\.land\/x\//i;

/** True when a URL is an official installer's address: https, on a vendor domain or in the vendor's own GitHub repository. */
export function isOfficialInstallerUrl(url: URL): boolean {
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  if (OFFICIAL_INSTALLER_HOSTS.test(host)) return !OPEN_PATH_ON_VENDOR_HOST.test(`${host}${url.pathname}`);
  if (host !== 'raw.githubusercontent.com' && host !== 'github.com') return false;
  const [owner, repo] = url.pathname.split('/').filter((s) => s !== '');
  return owner !== undefined && repo !== undefined && OFFICIAL_CODE_HOST_OWNER.test(`${owner}/${repo}`);
}

/** True when the text has at least one http(s) URL and every one is an official installer's address. */
export function onlyOfficialInstallerUrls(text: string): boolean {
  const urls = [...text.matchAll(/\bhttps?:\/\/[^\s"'`)<>|;]+/gi)].map((m) => {
    try {
      return new URL(m[0]);
    } catch {
      return null;
    }
  });
  return urls.length > 0 && urls.every((u) => u !== null && isOfficialInstallerUrl(u));
}
