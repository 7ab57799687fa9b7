/**
 * Path shapes a tool handler's string constants are matched with, shared by the Python and
 * JavaScript effect readers.
 */

/**
 * System files of other users or of the host: account and group databases, sudoers, kernel and
 * process state under /proc and /sys, system logs, raw devices, the Docker socket, the Windows
 * SAM hive. A tool about something else has no business reading them.
 */
export const SYSTEM_FILE =
  /^\/etc\/(?:passwd|shadow|gshadow|group|sudoers(?:\.d)?|master\.passwd|security\/|ssh\/)|^\/proc\/(?:\d+|self|\*|\{[^}]*\}|net|mounts|cpuinfo|meminfo|version|devices|partitions|kallsyms|modules|sys)(?:\/|$)|^\/var\/log\/|^\/var\/run\/docker\.sock$|^\/sys\/(?:class|firmware|kernel|devices)\/|^\/root(?:\/|$)|^\/dev\/(?:mem|kmem|sd[a-z]|nvme|disk)|^\/boot\/|^[A-Za-z]:\\\\?Windows\\\\?System32\\\\?config|^\/var\/lib\/(?:dpkg|rpm)\//;

/** Cloud instance-metadata services (AWS, Azure, GCP, Alibaba, Oracle): their answers include instance credentials. */
export const METADATA_SERVICE = /\b169\.254\.169\.254\b|\bmetadata\.google\.internal\b|\b100\.100\.100\.200\b|\bfd00:ec2::254\b|\b192\.0\.0\.192\b/i;

/** System binaries and configuration: writing there changes what every user runs. */
export const SYSTEM_LOCATION = /^\/(?:usr\/(?:local\/)?)?s?bin\/|^\/etc\/|^\/var\/www\/|^\/lib(?:64)?\/|^\/usr\/lib\/|^\/boot\/|^[A-Za-z]:\\+Windows\\/i;

/**
 * A hidden (dot) file in a directory every user shares (/tmp, /var/tmp, /dev/shm): kept out of
 * directory listings where no per-user data belongs (MITRE ATT&CK T1564.001). Temporary files a
 * program means to use are made with mkstemp/mkdtemp names, not fixed hidden ones.
 */
export const HIDDEN_SHARED_TEMP = /^(?:\/private)?(?:\/tmp|\/var\/tmp|\/dev\/shm)\/(?:[^/\s]+\/)*\.[^/.\s][^/\s]*$/;

/** File modes with an execute bit for the owner (0o755, 0o700, S_IXUSR, "+x", 493 = 0o755). */
export const EXECUTABLE_MODE = /\b0o?[1357][0-7]{2}\b|['"][1357][0-7]{2}['"]|S_IX(?:USR|GRP|OTH)|S_IRWX[UGO]|['"][ugoa]*\+[rw]*x|\b(?:493|448|457|505)\b/;

/** Places whose content runs at login, on a schedule or on SSH access. */
export const PERSISTENCE_PATH =
  /(?:^|[/\\])(?:crontab|\.bashrc|\.bash_profile|\.zshrc|\.zprofile|\.profile|authorized_keys|rc\.local)$|^\/etc\/(?:cron|init\.d|systemd\/system|profile\.d)|\/Library\/Launch(?:Agents|Daemons)|\/\.config\/(?:systemd\/user|autostart)\/|Start Menu[\\/]Programs[\\/]Startup|CurrentVersion[\\/]Run\b/;

/**
 * After the `crontab` program's name in an argument list: `-l` (`["crontab", "-l"]`, `spawn('crontab', ['-l'])`), also
 * after `-u USER` (`["crontab", "-u", user, "-l"]`), only lists the jobs.
 */
export const CRONTAB_LISTED = /^\s*,\s*\[?\s*(?:['"`]-u['"`]\s*,\s*[^,\]\n]+,\s*)?['"`]-l['"`]/;

/** Host names that say what a request is for: tracking, analytics, advertising, collection. */
export const TRACKING_HOST = /(?:^|[.-])(?:track(?:er|ing)?|analytics|telemetry|metrics|collect(?:or)?|stats|beacon|pixel|ads?|affiliate|profil(?:e|er|ing)|log(?:ger|s)?|harvest|exfil|c2|webhook)(?:[.-]|$)/i;

/** The host of a URL-like string, or null. */
export function hostOf(url: string): string | null {
  const m = /^(?:https?|wss?|ftp):\/\/(?:[^@/\s]*@)?([^/:?#\s*]+)/i.exec(url.trim());
  return m ? (m[1] ?? '').toLowerCase() : null;
}

/** A number literal as written in source (`10**9`, `1_000_000`, `1e7`), or NaN. */
export function numberValue(text: string): number {
  const t = text.replace(/_/g, '').trim();
  const pow = /^(\d+)\s*\*\*\s*(\d+)$/.exec(t);
  if (pow) return Number(pow[1]) ** Number(pow[2]);
  return /^(?:0[xob][\da-f]+|\d+(?:\.\d+)?(?:e\d+)?)$/i.test(t) ? Number(t) : NaN;
}

/** Sizes and counts no tool needs as a constant: work or memory without a practical bound. */
export const HUGE = 5_000_000;
