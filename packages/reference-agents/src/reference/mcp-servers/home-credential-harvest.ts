import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';

// Directories of the home folder that hold credentials: SSH keys, cloud and cluster logins, registry
// auth, GPG keys, the gh and gcloud configs, pass's store.
const CREDENTIAL_DIR = /^(?:~\/|\$HOME\/)?\.(?:ssh|aws|kube|docker|gnupg|azure|config\/gcloud|config\/gh|password-store|terraform\.d|m2|gem|cargo\/credentials)(?:\/[^'"`]*)?$/;
// A literal collection (tuple, list, set, array) of at most 40 short items.
const COLLECTION = /[[({][^[\](){}]{0,800}[\])}]/g;
const QUOTED = /(["'`])([^"'`\n]{1,60})\1/g;
// The home folder, in Python or JavaScript.
const HOME = /\bPath\.home\s*\(|\bexpanduser\s*\(\s*["']~|\bhomedir\s*\(|\bos\.environ(?:\.get)?\s*[[(]\s*["'](?:HOME|USERPROFILE)["']|\bprocess\.env\.(?:HOME|USERPROFILE)\b|\bgetenv\s*\(\s*["'](?:HOME|USERPROFILE)["']/;
// Everything under a folder, and file contents read.
const WALK = /\.rglob\s*\(|\bos\.walk\s*\(|\.glob\s*\(\s*["']\*\*|\bglob(?:\.glob)?\s*\([^)]*recursive\s*=\s*True|\breaddir(?:Sync)?\s*\([^)]*recursive\s*:\s*true|\bwalk(?:Sync)?\s*\(|\bfast-?glob\b|\bglobSync\s*\(/;
const READ = /\.read_(?:text|bytes)\s*\(|\bopen\s*\(|\breadFile(?:Sync)?\s*\(|\bcreateReadStream\s*\(/;
// A request that carries data out (a POST or PUT, a raw socket, an upload helper); shared with credential-collection-flow.ts.
export const SEND = /\b(?:requests|httpx|session|client|c|s|aiohttp)\.(?:post|put|patch)\s*\(|\bawait\s+\w+\.(?:post|put)\s*\(|\burlopen\s*\(|\burllib\.request\.Request\s*\(|\bfetch\s*\([^)]*method\s*:\s*["'](?:POST|PUT)|\baxios\.(?:post|put)\s*\(|\bhttps?\.request\s*\(|\bsocket\.(?:socket|create_connection)\s*\(|\bnew\s+WebSocket\s*\(|\bsendall\s*\(/;

/** The loop statement on the line of `at` (`for … in NAME`, `for (const x of NAME)`, `NAME.forEach(`) and the lines indented under it. */
function loopBlock(text: string, at: number): string | null {
  const start = text.lastIndexOf('\n', at) + 1;
  const lineEnd = text.indexOf('\n', at);
  const first = text.slice(start, lineEnd < 0 ? text.length : lineEnd);
  if (!/\bfor\b|\.(?:forEach|map|flatMap)\s*\(/.test(first)) return null;
  const indent = /^[ \t]*/.exec(first)![0].length;
  let block = first;
  for (const line of text.slice(start + first.length + 1, start + first.length + 3000).split('\n')) {
    if (line.trim() !== '' && /^[ \t]*/.exec(line)![0].length <= indent) break;
    block += `\n${line}`;
  }
  return block;
}

/**
 * Credential folders of the home directory swept whole: a collection naming two or more of them
 * (`(".ssh", ".aws", ".config/gcloud", ".kube", ".docker")`), the home folder, and a recursive walk
 * with file reads in the same module (`for sub in DIRS: for p in (Path.home() / sub).rglob("*"):
 * p.read_text()`). No credential file is named, so the path rules of script facts miss it (Kaspersky,
 * "devtools-assistant" MCP PoC, 2025). A server for one of these tools reads its own folder (a
 * Docker server reads `~/.docker/config.json`); one that walks several of them has no such reason.
 * With a request that carries data out in the same module it is exfiltration (CRIT), else a read (MED).
 */
export function homeCredentialHarvestFinding(file: string, text: string): AgentFinding | null {
  if (!HOME.test(text) || !WALK.test(text) || !READ.test(text)) return null;
  // Names bound to the home folder (`home = Path.home()`, `const home = os.homedir()`).
  const homeNames = [...text.matchAll(/(?:^|[\s;(])(?:const\s+|let\s+|var\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]{1,40})?=(?!=)([^\n]{0,120})/g)].filter((m) => HOME.test(m[2]!)).map((m) => m[1]!);
  const homeAt = (window: string) => HOME.test(window) || homeNames.some((n) => new RegExp(`(?<![\\w$.])${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(window));
  for (const c of text.matchAll(COLLECTION)) {
    const dirs = [...new Set([...c[0].matchAll(QUOTED)].map((q) => q[2]!).filter((v) => CREDENTIAL_DIR.test(v)))];
    if (dirs.length < 2) continue;
    // Where the folders are swept: the block of a loop over the collection (by its name, or written
    // in the loop itself), read by indentation; a comprehension that only tests `is_dir()` sweeps nothing.
    const name = /([A-Za-z_$][\w$]*)\s*(?::[^=\n]{1,40})?=\s*$/.exec(text.slice(Math.max(0, c.index - 80), c.index))?.[1];
    const uses = name === undefined ? [c.index] : [...text.matchAll(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))].map((u) => u.index).filter((at) => at < c.index - 80 || at > c.index + c[0].length);
    const swept = uses.some((at) => {
      const block = loopBlock(text, at);
      return block !== null && homeAt(block) && WALK.test(block);
    });
    if (!swept) continue;
    const line = lineAt(text, c.index);
    const send = SEND.exec(text);
    const evidence = `${dirs.join(', ')} under the home folder, walked and read`;
    return send !== null
      ? referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'server code reads credential files and sends data over the network', file, line, evidence: `${evidence} … ${send[0]} (line ${lineAt(text, send.index)})` })
      : referenceFinding({ category: 'credential_access', severity: 'MED', title: 'server code reads credential files', file, line, evidence });
  }
  return null;
}
