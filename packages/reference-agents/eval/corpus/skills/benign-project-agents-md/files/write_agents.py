from pathlib import Path
template = Path(__file__).with_name("template.md").read_text()
Path("AGENTS.md").write_text(template)
