import { AI_BYPASS_FLAG } from '../packages/shell-command.js';
import { destructiveOrder } from './destructive-orders.js';

/**
 * A destructive prompt handed to an AI agent the code starts with its permission checks off (round s29; the
 * Amazon Q 1.84 extension, July 2025, and its rewordings): source that starts an agent — a CLI given an
 * autonomy flag (`--trust-all-tools`, `--dangerously-skip-permissions`, `--yolo`, `--full-auto`) or an agent
 * SDK given `bypassPermissions` — and passes it, inline or through the constant it is assigned to, a prompt
 * ordering destruction of the user's machine or cloud account. The program may be any name or a variable
 * (`${cli}` found with `command -v q`, a path from the settings): the flag is what makes it an agent allowed
 * everything, the prompt what it is told to do. A prompt that is narrowed (this project's build output,
 * tagged test resources), forbidden, or a specimen described as an attack is no order (destructiveOrder).
 */

// Autonomy granted to an agent: CLI flags, and the SDKs' options.
const AUTONOMY = new RegExp(`${AI_BYPASS_FLAG.source}|--full-auto\\b|--permission-mode[= ]bypassPermissions|\\bpermission_?[mM]ode\\b\\s*[:=]\\s*["'\`]bypassPermissions|\\ballowDangerouslySkipPermissions\\s*:\\s*true|\\ballow_dangerously_skip_permissions\\s*=\\s*True`, 'g');
// Starting a process or an agent session.
const LAUNCH = /\b(?:spawn|spawnSync|exec|execSync|execFile|execFileSync|execa|fork|Popen|subprocess\.\w+|os\.system|Bun\.spawn|Deno\.Command|query|ClaudeSDKClient|runAgent|run_agent)\s*\(/g;
// One string literal (no nested quantifiers over the same characters: each alternative is disjoint).
const LITERAL = /"""([\s\S]*?)"""|'''([\s\S]*?)'''|"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/y;
// What may join literals into one value: `+`, parentheses, Python's adjacent literals and line continuations.
const JOIN = /(?:\s|\+|\(|\\\n)*/y;
const MAX_SOURCE = 512 * 1024;

export interface LaunchedPrompt {
  /** Offset of the autonomy flag or option. */
  offset: number;
  evidence: string;
  because?: string;
}

/** The literals starting at `from` (joined with `+`, parentheses or adjacency) as one text, or null when none starts there. */
function literalChain(text: string, from: number): string | null {
  let at = from;
  const parts: string[] = [];
  for (let i = 0; i < 200; i++) {
    JOIN.lastIndex = at;
    JOIN.exec(text);
    LITERAL.lastIndex = JOIN.lastIndex;
    const m = LITERAL.exec(text);
    if (m === null) break;
    parts.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '');
    at = LITERAL.lastIndex;
  }
  return parts.length === 0 ? null : parts.join('').replace(/\\n/g, '\n').replace(/\$\{[^}\n]{0,80}\}/g, ' ');
}

/** Constants holding a destructive order: name → its text. */
function destructiveConstants(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/(?:^|[\s;,{(])([A-Za-z_$][\w$]*)\s*(?::\s*[\w.<>[\]| ]{1,40}?\s*)?=\s*(?=[\s("'`])/g)) {
    if (out.size >= 50) break;
    const value = literalChain(text, m.index + m[0].length);
    if (value !== null && value.length >= 40 && destructiveOrder(value) !== null) out.set(m[1]!, value);
  }
  return out;
}

/** The first agent launch with autonomy granted whose prompt orders destruction of the machine or the cloud account, or null. */
export function launchedDestructivePrompt(text: string): LaunchedPrompt | null {
  if (text.length > MAX_SOURCE) return null;
  const flags = [...text.matchAll(AUTONOMY)].filter((m) => !/^\s*(?:\/\/|#|\*|\/\*)/.test(text.slice(text.lastIndexOf('\n', m.index) + 1, m.index)));
  if (flags.length === 0) return null;
  const launches = [...text.matchAll(LAUNCH)].map((m) => m.index);
  if (launches.length === 0) return null;
  let constants: Map<string, string> | null = null;
  for (const flag of flags.slice(0, 20)) {
    // The launch the flag belongs to: the nearest call before it (its command line or options), to some way after.
    const start = launches.filter((l) => l <= flag.index && flag.index - l < 600).pop();
    if (start === undefined) continue;
    const region = text.slice(start, Math.min(text.length, flag.index + 600));
    // The prompt written in the launch itself.
    for (const q of region.matchAll(/["'`]/g)) {
      const value = literalChain(region, q.index);
      const order = value !== null && value.length >= 40 ? destructiveOrder(value) : null;
      if (order !== null) return { offset: flag.index, evidence: `${flag[0]} … ${order.evidence.slice(0, 200)}`, ...(order.because === undefined ? {} : { because: order.because }) };
    }
    // Or through the constant it was assigned to.
    constants ??= destructiveConstants(text);
    for (const [name, value] of constants) {
      if (!new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}\\b`).test(region)) continue;
      const order = destructiveOrder(value)!;
      return { offset: flag.index, evidence: `${flag[0]} … ${name}: ${order.evidence.slice(0, 200)}`, ...(order.because === undefined ? {} : { because: order.because }) };
    }
  }
  return null;
}
