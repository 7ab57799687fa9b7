import { STARTUP_FILE } from '../text/privileged-shim.js';

// Telling someone to put text into a file.
const PUT = /\b(?:append|add|paste|copy|insert|put|write|include|concatenate|source|merge)\b/i;
const NEGATED = /\b(?:never|don['’]t|do\s+not|avoid|must\s+not|should\s+not)\b/i;
const FENCE = /^\s*(?:```|~~~)/;

export interface StartupSnippets {
  /** Paths of the skill's files a document says to append to (or source from) a shell startup file. */
  files: string[];
  /** Fenced blocks a document says to add to a shell startup file, with the document line of their first line. */
  blocks: Array<{ line: number; body: string }>;
}

/**
 * What a skill's document tells the agent to put into a shell startup file (`~/.bashrc`, `~/.zshrc`):
 * the skill's own files named on the instruction's line ("append `references/snippet.sh` to ~/.bashrc",
 * "add `source …/aliases.sh` to ~/.zshrc"), and the fenced block that follows the instruction within a
 * few lines ("Add this block to the end of `~/.zshrc`:"). The text then runs in every shell the user
 * opens, as if a script had written it there.
 */
export function startupSnippets(text: string, paths: readonly string[]): StartupSnippets {
  const files = new Set<string>();
  const blocks: Array<{ line: number; body: string }> = [];
  if (!STARTUP_FILE.test(text)) return { files: [], blocks };
  const lines = text.split('\n');
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || !STARTUP_FILE.test(line)) continue;
    const verb = PUT.exec(line);
    if (verb === null || NEGATED.test(line.slice(0, verb.index))) continue;
    for (const p of paths) {
      const base = p.split('/').pop() as string;
      if (line.includes(p) || new RegExp(`(?:^|[\\s\`'"/(])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[\\s\`'")])`).test(line)) files.add(p);
    }
    // The block the instruction introduces: the next fence within a few lines, before any other prose paragraph ends.
    for (let j = i + 1; j < Math.min(lines.length, i + 5); j++) {
      if (!FENCE.test(lines[j] as string)) {
        // Another paragraph of prose first: the block belongs to it, not to this instruction.
        if ((lines[j] as string).trim() !== '') break;
        continue;
      }
      const body: string[] = [];
      let k = j + 1;
      for (; k < lines.length && !FENCE.test(lines[k] as string); k++) body.push(lines[k] as string);
      blocks.push({ line: j + 2, body: body.join('\n') });
      break;
    }
  }
  return { files: [...files], blocks };
}
