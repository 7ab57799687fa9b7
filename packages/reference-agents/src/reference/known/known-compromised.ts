/**
 * Package versions known to have been published with malicious code, from public incident reports.
 * Compiled into the agent bundles (a reference agent reads nothing from the network or from its own
 * directory at run time), so this list is what a reference agent knows offline; verdicts the
 * network has published reach an agent only through its input (docs/agents.md, "repositories").
 *
 * `versions` lists the exact malicious versions; `'*'` means every version of the name was
 * malicious (a typosquat or a package published only to attack). Names are as the registry writes
 * them; PyPI names normalized as PEP 503 says (lowercase, `-`).
 */
export interface KnownCompromisedPackage {
  ecosystem: 'npm' | 'pypi';
  name: string;
  versions: readonly string[] | '*';
  /** The incident, short. */
  incident: string;
  /** A public write-up or advisory. */
  source_url: string;
}

const QIX_2025 = {
  incident: 'npm account "qix" phished, September 2025: crypto-wallet hijacking code in chalk, debug and 16 more',
  source_url: 'https://www.aikido.dev/blog/npm-debug-and-chalk-packages-compromised',
} as const;

const NX_2025 = {
  incident: 's1ngularity, August 2025: Nx publish token stolen through a GitHub Actions injection; postinstall harvested secrets with AI CLIs',
  source_url: 'https://github.com/nrwl/nx/security/advisories/GHSA-cxm3-wv7p-598c',
} as const;

const SHAI_HULUD_2025 = {
  incident: 'Shai-Hulud worm, September 2025: self-propagating credential stealer published with stolen npm tokens',
  source_url: 'https://www.stepsecurity.io/blog/ctrl-tinycolor-and-40-npm-packages-compromised',
} as const;

const PRETTIER_2025 = {
  incident: 'eslint-config-prettier maintainer phished, July 2025 (CVE-2025-54313): Windows malware loader in install script',
  source_url: 'https://github.com/prettier/eslint-config-prettier/issues/339',
} as const;

const QIX = (name: string, version: string): KnownCompromisedPackage => ({ ecosystem: 'npm', name, versions: [version], ...QIX_2025 });

export const KNOWN_COMPROMISED: readonly KnownCompromisedPackage[] = [
  {
    ecosystem: 'npm',
    name: 'event-stream',
    versions: ['3.3.6'],
    incident: 'event-stream / flatmap-stream, November 2018: a new maintainer added a dependency that stole Copay wallets',
    source_url: 'https://github.com/dominictarr/event-stream/issues/116',
  },
  {
    ecosystem: 'npm',
    name: 'flatmap-stream',
    versions: '*',
    incident: 'event-stream / flatmap-stream, November 2018 (npm advisory 737): encrypted payload stealing Copay wallets',
    source_url: 'https://github.com/dominictarr/event-stream/issues/116',
  },
  {
    ecosystem: 'npm',
    name: 'ua-parser-js',
    versions: ['0.7.29', '0.8.0', '1.0.0'],
    incident: 'ua-parser-js hijacked, October 2021: cryptominer and password stealer in preinstall',
    source_url: 'https://github.com/advisories/GHSA-pjwm-rvh2-c87w',
  },
  {
    ecosystem: 'npm',
    name: 'coa',
    versions: ['2.0.3', '2.0.4', '2.1.1', '2.1.3', '3.0.1', '3.1.3'],
    incident: 'coa hijacked, November 2021: password stealer in preinstall',
    source_url: 'https://github.com/advisories/GHSA-73qr-pfmq-6rp8',
  },
  {
    ecosystem: 'npm',
    name: 'rc',
    versions: ['1.2.9', '1.3.9', '2.3.9'],
    incident: 'rc hijacked, November 2021: password stealer in preinstall',
    source_url: 'https://github.com/advisories/GHSA-g2q5-5433-rhrf',
  },
  {
    ecosystem: 'npm',
    name: 'node-ipc',
    versions: ['9.2.2', '10.1.1', '10.1.2', '10.1.3'],
    incident: 'node-ipc protestware, March 2022 (CVE-2022-23812): overwrote files on machines geolocated in Russia and Belarus',
    source_url: 'https://github.com/advisories/GHSA-97m3-w2cp-4xx6',
  },
  {
    ecosystem: 'npm',
    name: 'colors',
    versions: ['1.4.1', '1.4.2', '1.4.44-liberty-2'],
    incident: 'colors sabotaged by its maintainer, January 2022: infinite loop printing garbage on import',
    source_url: 'https://github.com/Marak/colors.js/issues/285',
  },
  {
    ecosystem: 'npm',
    name: 'faker',
    versions: ['6.6.6'],
    incident: 'faker sabotaged by its maintainer, January 2022: the package emptied',
    source_url: 'https://github.com/Marak/faker.js/issues/1339',
  },
  {
    ecosystem: 'npm',
    name: 'eslint-scope',
    versions: ['3.7.2'],
    incident: 'eslint-scope hijacked, July 2018: postinstall stole ~/.npmrc tokens',
    source_url: 'https://eslint.org/blog/2018/07/postmortem-for-malicious-package-publishes/',
  },
  {
    ecosystem: 'npm',
    name: 'eslint-config-eslint',
    versions: ['5.0.2'],
    incident: 'eslint-config-eslint hijacked with eslint-scope, July 2018: postinstall stole ~/.npmrc tokens',
    source_url: 'https://eslint.org/blog/2018/07/postmortem-for-malicious-package-publishes/',
  },
  QIX('chalk', '5.6.1'),
  QIX('debug', '4.4.2'),
  QIX('ansi-styles', '6.2.2'),
  QIX('supports-color', '10.2.1'),
  QIX('strip-ansi', '7.1.1'),
  QIX('ansi-regex', '6.2.1'),
  QIX('wrap-ansi', '9.0.1'),
  QIX('color-convert', '3.1.1'),
  QIX('color-name', '2.0.1'),
  QIX('is-arrayish', '0.3.3'),
  QIX('slice-ansi', '7.1.1'),
  QIX('color', '5.0.1'),
  QIX('color-string', '2.1.1'),
  QIX('simple-swizzle', '0.2.3'),
  QIX('supports-hyperlinks', '4.1.1'),
  QIX('has-ansi', '6.0.1'),
  QIX('chalk-template', '1.1.1'),
  QIX('backslash', '0.2.1'),
  { ecosystem: 'npm', name: 'nx', versions: ['20.9.0', '20.10.0', '20.11.0', '20.12.0', '21.5.0', '21.6.0', '21.7.0', '21.8.0'], ...NX_2025 },
  { ecosystem: 'npm', name: '@nx/devkit', versions: ['20.9.0', '21.5.0'], ...NX_2025 },
  { ecosystem: 'npm', name: '@nx/js', versions: ['20.9.0', '21.5.0'], ...NX_2025 },
  { ecosystem: 'npm', name: '@nx/workspace', versions: ['20.9.0', '21.5.0'], ...NX_2025 },
  { ecosystem: 'npm', name: '@nx/node', versions: ['20.9.0', '21.5.0'], ...NX_2025 },
  { ecosystem: 'npm', name: '@nx/eslint', versions: ['20.9.0', '21.5.0'], ...NX_2025 },
  { ecosystem: 'npm', name: '@nx/key', versions: ['3.2.0'], ...NX_2025 },
  { ecosystem: 'npm', name: '@nx/enterprise-cloud', versions: ['3.2.0'], ...NX_2025 },
  { ecosystem: 'npm', name: '@ctrl/tinycolor', versions: ['4.1.1', '4.1.2'], ...SHAI_HULUD_2025 },
  { ecosystem: 'npm', name: '@ctrl/deluge', versions: ['7.2.1', '7.2.2'], ...SHAI_HULUD_2025 },
  { ecosystem: 'npm', name: 'ngx-toastr', versions: ['19.0.1', '19.0.2'], ...SHAI_HULUD_2025 },
  { ecosystem: 'npm', name: 'eslint-config-prettier', versions: ['8.10.1', '9.1.1', '10.1.6', '10.1.7'], ...PRETTIER_2025 },
  { ecosystem: 'npm', name: 'eslint-plugin-prettier', versions: ['4.2.2', '4.2.3'], ...PRETTIER_2025 },
  { ecosystem: 'npm', name: 'synckit', versions: ['0.11.9'], ...PRETTIER_2025 },
  { ecosystem: 'npm', name: '@pkgr/core', versions: ['0.2.8'], ...PRETTIER_2025 },
  { ecosystem: 'npm', name: 'napi-postinstall', versions: ['0.3.1'], ...PRETTIER_2025 },
  {
    ecosystem: 'npm',
    name: '@solana/web3.js',
    versions: ['1.95.6', '1.95.7'],
    incident: '@solana/web3.js publish access compromised, December 2024 (CVE-2024-54134): private keys exfiltrated',
    source_url: 'https://github.com/solana-labs/solana-web3.js/security/advisories/GHSA-jcxm-7wvp-g6p5',
  },
  {
    ecosystem: 'npm',
    name: '@lottiefiles/lottie-player',
    versions: ['2.0.5', '2.0.6', '2.0.7'],
    incident: 'lottie-player publish token compromised, October 2024: wallet-draining prompt injected into sites',
    source_url: 'https://github.com/LottieFiles/lottie-player/issues/254',
  },
  {
    ecosystem: 'npm',
    name: 'rand-user-agent',
    versions: ['1.0.110', '2.0.83', '2.0.84'],
    incident: 'rand-user-agent hijacked, May 2025: remote access trojan in the published build',
    source_url: 'https://www.aikido.dev/blog/catching-a-rat-remote-access-trojian-rand-user-agent-supply-chain-compromise',
  },
  {
    ecosystem: 'npm',
    name: 'xrpl',
    versions: ['2.14.2', '4.2.1', '4.2.2', '4.2.3', '4.2.4'],
    incident: 'xrpl.js publish access compromised, April 2025: private keys exfiltrated',
    source_url: 'https://www.aikido.dev/blog/xrp-supplychain-attack-official-npm-package-infected-with-crypto-stealing-backdoor',
  },
  {
    ecosystem: 'npm',
    name: 'crossenv',
    versions: '*',
    incident: 'crossenv typosquat of cross-env, August 2017: install script sent environment variables to the attacker',
    source_url: 'https://blog.npmjs.org/post/163723642530/crossenv-malware-on-the-npm-registry',
  },
  {
    ecosystem: 'pypi',
    name: 'ctx',
    versions: ['0.1.2', '0.2.2', '0.2.6'],
    incident: 'ctx hijacked through an expired maintainer domain, May 2022: environment variables (AWS keys) exfiltrated',
    source_url: 'https://python-security.readthedocs.io/pypi-vuln/index-2022-05-24-ctx-domain-takeover.html',
  },
  {
    ecosystem: 'pypi',
    name: 'ultralytics',
    versions: ['8.3.41', '8.3.42', '8.3.45', '8.3.46'],
    incident: 'Ultralytics, December 2024: GitHub Actions injection and cache poisoning put a cryptominer in the published wheels',
    source_url: 'https://blog.yossarian.net/2024/12/06/zizmor-ultralytics-injection',
  },
  {
    ecosystem: 'pypi',
    name: 'torchtriton',
    versions: '*',
    incident: 'PyTorch nightly dependency confusion, December 2022: a public torchtriton shadowed the private one and stole files',
    source_url: 'https://pytorch.org/blog/compromised-nightly-dependency/',
  },
  {
    ecosystem: 'pypi',
    name: 'jeilyfish',
    versions: '*',
    incident: 'jeIlyfish typosquat of jellyfish, December 2019: stole SSH and GPG keys',
    source_url: 'https://github.com/dateutil/dateutil/issues/984',
  },
  {
    ecosystem: 'pypi',
    name: 'python3-dateutil',
    versions: '*',
    incident: 'python3-dateutil typosquat of python-dateutil, December 2019: pulled in jeIlyfish',
    source_url: 'https://github.com/dateutil/dateutil/issues/984',
  },
];

const BY_KEY = new Map<string, KnownCompromisedPackage>(KNOWN_COMPROMISED.map((entry) => [`${entry.ecosystem}:${entry.name}`, entry]));

/** The known incident of this exact package version, or null. */
export function knownCompromisedVersion(ecosystem: string, name: string, version: string): KnownCompromisedPackage | null {
  const entry = BY_KEY.get(`${ecosystem}:${name}`);
  if (!entry) return null;
  return entry.versions === '*' || entry.versions.includes(version) ? entry : null;
}
