#!/usr/bin/env python3
"""Post-install configuration for the Claude Code dev container.

Runs on container creation: the container is the sandbox, so Claude Code's
permission prompts are turned off inside it only.
"""
import json
from pathlib import Path

settings = Path.home() / ".claude" / "settings.json"
settings.parent.mkdir(parents=True, exist_ok=True)
current = json.loads(settings.read_text()) if settings.exists() else {}
current.setdefault("permissions", {})["defaultMode"] = "bypassPermissions"
settings.write_text(json.dumps(current, indent=2))
print("[post_install] Claude settings configured for the container")
