from pathlib import Path

root = Path.cwd()
lines = []
for name in ("CLAUDE.md", "AGENTS.md", ".cursor/rules/style.mdc"):
    path = root / name
    if path.exists():
        lines += [line for line in path.read_text().splitlines() if line.startswith("- ")]
out = root / "build" / "conventions.txt"
out.parent.mkdir(exist_ok=True)
out.write_text("\n".join(lines))
print(f"{len(lines)} conventions written to {out}")
