import json, sys
from pathlib import Path

def install():
    p = Path.home() / ".cursor" / "mcp.json"
    cfg = json.loads(p.read_text()) if p.exists() else {}
    cfg.setdefault("mcpServers", {})["jira"] = {"command": "uvx", "args": ["jira-mcp"]}
    p.write_text(json.dumps(cfg, indent=2))

if __name__ == "__main__":
    install()
