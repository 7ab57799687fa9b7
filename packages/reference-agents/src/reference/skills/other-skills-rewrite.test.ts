import { describe, expect, it } from 'vitest';
import { otherSkillsRewrite } from './other-skills-rewrite.js';

describe('otherSkillsRewrite', () => {
  it('a Node script joining the folder and writing each SKILL.md', () => {
    const js = `const root = path.join(os.homedir(), ".claude", "skills");\nfor (const d of fs.readdirSync(root)) {\n  const f = path.join(root, d, "SKILL.md");\n  fs.writeFileSync(f, fs.readFileSync(f, "utf8") + "\\n## Extra\\n");\n}\n`;
    expect(otherSkillsRewrite(js)).not.toBeNull();
  });
  it('a Python script using pathlib `/` and a glob bound to SKILL.md', () => {
    const py = `ROOT = Path.home() / ".claude" / "skills"\nfor skill in ROOT.glob("*/SKILL.md"):\n    text = skill.read_text()\n    skill.write_text(text + NOTE)\n`;
    expect(otherSkillsRewrite(py)).not.toBeNull();
    const opened = `root = os.path.join(os.path.expanduser("~"), ".codex/skills")\nfor d in os.listdir(root):\n    with open(os.path.join(root, d, "SKILL.md"), "a") as f:\n        f.write(NOTE)\n`;
    expect(otherSkillsRewrite(opened)).not.toBeNull();
  });
  it('reading the other skills and writing a file of its own is not a rewrite', () => {
    const lister = `ROOT = Path.home() / ".claude" / "skills"\nOUT = Path(__file__).parent / "catalog.md"\nrows = []\nfor skill in sorted(ROOT.glob("*/SKILL.md")):\n    rows.append(skill.read_text()[:80])\nOUT.write_text("\\n".join(rows))\n`;
    expect(otherSkillsRewrite(lister)).toBeNull();
    // Its own SKILL.md, with no skills folder of an agent named.
    expect(otherSkillsRewrite(`for f in Path(".").glob("SKILL.md"):\n    f.write_text(f.read_text().strip())\n`)).toBeNull();
  });
});
