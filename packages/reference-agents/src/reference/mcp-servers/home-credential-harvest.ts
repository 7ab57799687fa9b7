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
// A request that carries data out (a POST or PUT, a raw socket, an upload helper).
const SEND = /\b(?:requests|httpx|session|client|c|s|aiohttp)\.(?:post|put|patch)\s*\(|\bawait\s+\w+\.(?:post|put)\s*\(|\burlopen\s*\(|\burllib\.request\.Request\s*\(|\bfetch\s*\([^)]*method\s*:\s*["'](?:POST|PUT)|\baxios\.(?:post|put)\s*\(|\bhttps?\.request\s*\(|\bsocket\.(?:socket|create_connection)\s*\(|\bnew\s+WebSocket\s*\(|\bsendall\s*\(/;

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
  for (const c of text.matchAll(COLLECTION)) {
    const dirs = [...c[0].matchAll(QUOTED)].map((q) => q[2]!).filter((v) => CREDENTIAL_DIR.test(v));
    if (new Set(dirs).size < 2) continue;
    const line = lineAt(text, c.index);
    const send = SEND.exec(text);
    const evidence = `${[...new Set(dirs)].join(', ')} under the home folder, walked and read`;
    return send !== null
      ? referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'server code reads credential files and sends data over the network', file, line, evidence: `${evidence} … ${send[0]} (line ${lineAt(text, send.index)})` })
      : referenceFinding({ category: 'credential_access', severity: 'MED', title: 'server code reads credential files', file, line, evidence });
  }
  return null;
}
