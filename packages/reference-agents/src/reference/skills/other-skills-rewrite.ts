/**
 * Where a script rewrites the SKILL.md of the other skills an agent has installed: it names an
 * agent's skills folder, lists it, and writes a file it bound to a SKILL.md path. Instructions
 * planted there run with each of those skills, and spread (self-propagating skills, 2026).
 * Returns the offset of the skills folder's mention, or null.
 */
export function otherSkillsRewrite(text: string): number | null {
  const folder = SKILLS_FOLDER.exec(text);
  if (folder === null || !DIR_WALK.test(text)) return null;
  return writesSkillFile(text) ? folder.index : null;
}

// The separator may be a path separator inside one string, a join argument (`".claude", "skills"`) or
// pathlib's `/` between two strings (`".claude" / "skills"`).
const SKILLS_FOLDER = /\.(?:claude|codex|gemini|cursor|openclaw|agents|opencode|qwen|windsurf|kiro)(?:[\\/]|['"`]\s*(?:,|[\\/])\s*['"`])skills\b/;
const DIR_WALK = /\b(?:readdirSync|readdir|iterdir|listdir|scandir|glob(?:Sync)?|rglob|walk)\s*\(/;

// A name bound on a line that spells a SKILL.md path: `for skill in root.glob("*/SKILL.md")`,
// `const f = path.join(root, d, "SKILL.md")`, `for (const f of files.filter(x => x.endsWith("SKILL.md")))`.
const BOUND_TO_SKILL_FILE = [
  /\bfor\s*\(?\s*(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s+(?:in|of)\b[^\n]*SKILL\.md/g,
  /(?:^|[\s;(])(?:const|let|var)?\s*([A-Za-z_$][\w$]*)\s*=(?!=)[^\n]*SKILL\.md/gm,
];
// A write and the name of the file it writes: `x.write_text(`, `writeFileSync(x,`, `open(x, "w")`, `x.open("a")`.
const WRITES = [
  /\b([A-Za-z_$][\w$]*)\.(?:write_text|write_bytes)\s*\(/g,
  /\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream)\s*\(\s*([A-Za-z_$][\w$]*)\s*[,)]/g,
  /\bopen\s*\(\s*([A-Za-z_$][\w$]*)\s*,\s*(?:mode\s*=\s*)?['"][wa]/g,
  /\b([A-Za-z_$][\w$]*)\.open\s*\(\s*(?:mode\s*=\s*)?['"][wa]/g,
];
// A write whose own line names the file: `fs.writeFileSync(path.join(d, "SKILL.md"), …)`.
const WRITE_OF_SKILL_FILE = /\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|write_text|open)\s*\([^\n]*SKILL\.md/;

function writesSkillFile(text: string): boolean {
  if (WRITE_OF_SKILL_FILE.test(text)) return true;
  const bound = new Set<string>();
  for (const re of BOUND_TO_SKILL_FILE) for (const m of text.matchAll(re)) bound.add(m[1]!);
  if (bound.size === 0) return false;
  for (const re of WRITES) for (const m of text.matchAll(re)) if (bound.has(m[1]!)) return true;
  return false;
}
