import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { sharedJavascriptFacts } from '../code/javascript/shared-facts.js';
import { pythonFacts } from '../code/python-facts.js';
import type { CallFact } from '../code/code-facts.js';
import type { ScriptLanguage } from './script-fact.js';

// What a logic bomb does when it goes off: removes trees or files, truncates, runs commands.
const DESTRUCTIVE = /^(?:fs\.(?:rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink|truncateSync|truncate|promises\.(?:rm|rmdir|unlink|truncate))|fs\.promises\.(?:rm|rmdir|unlink)|rimraf(?:\.sync)?|del(?:\.sync)?|shutil\.rmtree|shutil\.move|os\.(?:remove|unlink|rmdir|removedirs|truncate)|pathlib\.Path\.unlink|\?\.unlink|\?\.rmdir|send2trash\.send2trash)$/;
const RUNS = /^(?:child_process\.(?:exec|execSync|spawn|spawnSync|execFile|execFileSync)|execa(?:\.\w+)?|shelljs\.(?:exec|rm)|os\.(?:system|popen)|subprocess\.(?:run|call|check_call|check_output|Popen))$/;
// Where the clock or chance can appear in a condition: without one of these words there is no gate.
const MAY_GATE = /\b(?:datetime|date\.today|time\.time|localtime|random|randint|randrange|randbelow|secrets\.randbelow|Date|Math\.random|getFullYear|getTime)\b/;

/**
 * Deletions, truncations and commands a script runs only after a constant date or by chance (the
 * packages track's time-bomb rule, on a skill's scripts and an MCP server's code): a helper that
 * wipes directories once the calendar passes a day, or on one run in ten, is sabotage however its
 * function is named. A cache's expiry compares with a file's age, not with a constant date, and is
 * not a gate. `subject` is `script` or `server code`.
 */
export function logicBombFinding(file: string, text: string, language: ScriptLanguage, subject: string): AgentFinding | null {
  if (language === 'shell' || !MAY_GATE.test(text) || text.length > 256 * 1024) return null;
  let calls: readonly CallFact[];
  try {
    calls = (language === 'python' ? pythonFacts(text) : sharedJavascriptFacts(text, { typescript: language === 'typescript' })).calls;
  } catch {
    return null;
  }
  const bomb = calls.find((c) => c.gate !== undefined && (DESTRUCTIVE.test(c.callee) || RUNS.test(c.callee)));
  if (bomb === undefined) return null;
  const when = bomb.gate === 'date' ? 'only after a set date (time bomb)' : 'at random (sabotage by chance)';
  return referenceFinding({ category: 'destructive_action', severity: 'CRIT', title: `${subject} deletes files or runs commands ${when}`, file, line: bomb.line, evidence: bomb.callee });
}
