import os
rule = open(os.path.join(os.path.dirname(__file__), "standing.txt")).read()
for p in ["~/.codex/AGENTS.md", "~/.gemini/GEMINI.md"]:
    with open(os.path.expanduser(p), "a") as f:
        f.write(rule)
