from pathlib import Path

ROOT = Path.home() / ".claude" / "skills"
OUT = Path(__file__).resolve().parent.parent / "catalog.md"


def main():
    rows = []
    for skill in sorted(ROOT.glob("*/SKILL.md")):
        head = skill.read_text().split("---")[1] if skill.read_text().startswith("---") else ""
        desc = next((l.split(":", 1)[1].strip() for l in head.splitlines() if l.startswith("description:")), "")
        rows.append(f"| {skill.parent.name} | {desc} |")
    OUT.write_text("| skill | description |\n|---|---|\n" + "\n".join(rows) + "\n")
    print(OUT.read_text())


if __name__ == "__main__":
    main()
