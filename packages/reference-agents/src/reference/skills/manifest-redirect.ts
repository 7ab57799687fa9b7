/**
 * (round s31b, in-sample for held-out set 32) Code of a skill that edits the user's dependency manifests or package
 * manager configuration so that dependencies come from another source: `replace` directives written into `go.mod`
 * (or `go mod edit -replace`) pointing a module at another module path, `overrides` / `resolutions` in
 * `package.json` aliasing a package to another one or to a URL, `--index-url` / `--extra-index-url` lines in a
 * requirements file, `registry=` in `.npmrc` / `.yarnrc`, `index-url` in `pip.conf`, `[patch]` / `[source]` in Cargo
 * configuration (and the `npm config set registry` / `pip config set` commands that write them). Typosquatted forks
 * reach projects so: every later build of the user's project takes the attacker's code (NuGet and Go time bombs, 2025).
 *
 * Counted only when the code names the manifest, writes it (a write call, a redirect, or the command that edits
 * it) and holds the redirect's target as a constant of its own: a module path with a version (`github.com/x/y
 * v1.2.3`), an `npm:` / `github:` / `git+` alias, or a URL whose host is no public registry. A target the user
 * passes in (an argument, an environment variable, a prompt), a local path (`=> ../lib`, `file:../pkg`) and a
 * version pin (`"overrides": {"x": "1.2.3"}`) are not redirects. HIGH; CRIT when the code runs the edit only after
 * a set date, by chance or outside CI (a gate that hides it from review and tests); LOW when the skill's documents
 * name the target (an organisation's own mirror the skill says it configures).
 */

export interface ManifestRedirect {
  /** Offset of the redirect's constant in the text. */
  offset: number;
  evidence: string;
  /** The source the dependencies are redirected to (a module path, an alias, a host). */
  target: string;
  /** The edit runs after a set date, by chance or only outside CI. */
  gate: 'date' | 'chance' | 'ci' | null;
}

// The manifests and package manager configurations of the user's projects, by name.
const MANIFEST = /(?<![\w-])(?:go\.mod|package\.json|requirements[\w.-]*\.txt|constraints\.txt|\.npmrc|\.yarnrc(?:\.yml)?|pip\.conf|pip\.ini|pyproject\.toml|Cargo\.toml|\.cargo[/\\]config(?:\.toml)?|Pipfile|Gemfile|composer\.json|uv\.toml)(?![\w-])/;
// Writing a file: Go, Python, JavaScript, shell.
const WRITE =
  /\b(?:os\.WriteFile|ioutil\.WriteFile|WriteString|writeFileSync|writeFile|appendFileSync|appendFile|write_text|json\.dump|toml\.dump|tomli_w\.dump|Files\.write|File\.write|fs\.promises\.writeFile)\s*\(|\bopen\s*\([^)\n]*,\s*(?:mode\s*=\s*)?["'][wa]\+?b?["']|\bOpenFile\s*\([^)\n]*O_(?:APPEND|WRONLY|RDWR)|\.write\s*\(|>>?\s*["']?[\w./${}~-]*(?:go\.mod|package\.json|requirements[\w.-]*\.txt|\.npmrc|\.yarnrc(?:\.yml)?|pip\.conf|pyproject\.toml|Cargo\.toml)\b|\btee\s+(?:-a\s+)?["']?[\w./${}~-]*(?:go\.mod|package\.json|requirements[\w.-]*\.txt|\.npmrc|pip\.conf)\b/;
// The commands that write a redirect themselves, in a shell line or as a process's argument list.
const REDIRECT_COMMAND =
  /\bgo\s+mod\s+edit\s+(?:-\S+\s+)*-replace[=\s]|["']-replace(?:=|["'])|\b(?:npm|yarn|pnpm)\s+config\s+set\s+(?:@[\w-]+:)?registry\b|["']config["']\s*,\s*["']set["']\s*,\s*["'](?:@[\w-]+:)?registry\b|\bpip3?\s+config\s+set\s+(?:global|install|user)\.(?:extra-)?index-url\b|["']config["']\s*,\s*["']set["']\s*,\s*["'](?:global|install|user)\.(?:extra-)?index-url\b|\bnpm\s+pkg\s+set\s+["']?(?:overrides|resolutions)\b|["']pkg["']\s*,\s*["']set["']\s*,\s*["'](?:overrides|resolutions)/;
// The redirect itself, as the code writes it.
const REDIRECT_SHAPE =
  /["'`]replace\s|\s=>\s|["'`]\s*=>\s*["'`]|["'`]replace\s*["'`]|-replace\b|["'](?:overrides|resolutions)["']|\b(?:overrides|resolutions)\s*[:=[]|--(?:extra-)?index-url\b|(?:^|["'`\s])(?:extra[-_])?index[-_]url\s*[=:]|(?:^|["'`\s])(?:@[\w-]+:)?registry\s*[=:]|npmRegistryServer|\[patch\.|\[source\.|replace-with\b/m;
// Targets: a Go module path with a version (a replace target needs one unless it is a local path).
const GO_MODULE_TARGET = /^(?:[a-z0-9-]+\.)+[a-z]{2,}\/[\w.~-]+(?:\/[\w.~-]+)*\s+v\d+\.\d+\.\d+[\w.+-]*$/;
const ALIAS_TARGET = /^(?:npm:(?:@[\w.-]+\/)?[\w.-]+@|github:|gitlab:|bitbucket:|git\+(?:https?|ssh):\/\/|git:\/\/)/;
const URL_TARGET = /(?:^|[\s=:"'])(?:git\+)?https?:\/\/([\w.-]+)/;
// The public registries and proxies themselves: pointing at them redirects nothing.
const PUBLIC_REGISTRY = /^(?:pypi\.org|files\.pythonhosted\.org|registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmmirror\.com|proxy\.golang\.org|sum\.golang\.org|goproxy\.io|crates\.io|index\.crates\.io|static\.crates\.io|rubygems\.org|repo\.packagist\.org|packagist\.org|download\.pytorch\.org|localhost|127\.0\.0\.1)$/i;
// Gates: a set date, chance, or only outside CI.
const DATE_GATE = /\btime\.Date\s*\(\s*20\d\d\b|\btime\.Parse\s*\([^)\n]*20\d\d|\b(?:datetime|date)\s*\(\s*20\d\d\b|\bdate\.fromisoformat\s*\(\s*["']20\d\d|\bnew\s+Date\s*\(\s*["'`]?20\d\d|\bDate\.(?:parse|UTC)\s*\(\s*["'`]?20\d\d|\$\(\s*date\s+\+%s\s*\)\s*-(?:gt|ge)\s*1[6-9]\d{8}|\b(?:Date\.now\s*\(\s*\)|time\.time\s*\(\s*\)|time\.Now\s*\(\s*\)\.Unix\s*\(\s*\))\s*[><]=?\s*1[6-9]\d{8,11}\b/;
const CHANCE_GATE = /\brand\.(?:Intn|Int31n|Int63n|Float64|Float32|Uint32|N)\s*\(|\brandom\.(?:random|randint|randrange|choice)\s*\(|\bsecrets\.randbelow\s*\(|\bMath\.random\s*\(|\$RANDOM\b|\bcrypto\.randomInt\s*\(/;
const CI_GATE = /\bGetenv\s*\(\s*"CI"\s*\)|\bLookupEnv\s*\(\s*"CI"\s*\)|\benviron(?:\.get\s*\(|\[)\s*["']CI["']|\bgetenv\s*\(\s*["']CI["']|\bprocess\.env\.CI\b|\bprocess\.env\[\s*["']CI["']\s*\]|\$\{?CI\b|\bGITHUB_ACTIONS\b/;

const LITERALS = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`/g;

/** The redirect a code file writes into a user's manifest, or null (see the module comment). */
export function manifestRedirect(text: string): ManifestRedirect | null {
  if (text.length > 512 * 1024) return null;
  // The manifest named, the redirect written and a write; or the command that writes a redirect itself.
  const command = REDIRECT_COMMAND.exec(text);
  if (command === null && !(MANIFEST.test(text) && REDIRECT_SHAPE.test(text) && WRITE.test(text))) return null;
  let found: { offset: number; target: string; literal: string } | null = null;
  for (const m of text.matchAll(LITERALS)) {
    // Escapes (`\n`, `\t`) read as the white space they write.
    const value = m[0].slice(1, -1).replace(/\\[nrt]/g, ' ').trim();
    // A literal that is itself a replace line or an override entry: its target is the part after `=>` or the value.
    const after = value.includes('=>') ? value.slice(value.lastIndexOf('=>') + 2).trim() : value;
    let target: string | null = null;
    if (GO_MODULE_TARGET.test(after)) target = after.split(/\s+/)[0]!;
    else if (ALIAS_TARGET.test(after)) target = after;
    else {
      const url = URL_TARGET.exec(after);
      // A URL counts next to the package manager's own words (an index, a registry), not any address of the code.
      if (url !== null && !PUBLIC_REGISTRY.test(url[1]!) && /(?:index|registry|simple|pypi|npm|packages?|goproxy|mirror|crates)/i.test(`${after} ${text.slice(Math.max(0, m.index - 120), m.index)}`)) target = url[1]!;
    }
    if (target === null) continue;
    // A constant in a help text or an example (`help="e.g. …"`, a usage string) names no target the code writes.
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (/\b(?:help\s*=|usage|e\.g\.|for\s+example|example)\b/i.test(text.slice(lineStart, m.index))) continue;
    found = { offset: m.index, target, literal: m[0] };
    break;
  }
  if (found === null) return null;
  const gate = DATE_GATE.test(text) ? 'date' : CHANCE_GATE.test(text) ? 'chance' : CI_GATE.test(text) ? 'ci' : null;
  const manifest = MANIFEST.exec(text)?.[0] ?? 'package manager configuration';
  const shape = (command ?? REDIRECT_SHAPE.exec(text))?.[0].trim() ?? '';
  return { offset: found.offset, target: found.target, gate, evidence: `${manifest}: ${shape} … ${found.literal}`.slice(0, 300) };
}

/** Whether the skill's documents name the redirect's target (its module path, alias or host). */
export function redirectDisclosed(target: string, documents: readonly string[]): boolean {
  const needle = target.replace(/^(?:npm:|github:|gitlab:|bitbucket:|git\+|git:\/\/)/, '').replace(/@[^@/]*$/, '').toLowerCase();
  return needle.length >= 4 && documents.some((d) => d.toLowerCase().includes(needle));
}
