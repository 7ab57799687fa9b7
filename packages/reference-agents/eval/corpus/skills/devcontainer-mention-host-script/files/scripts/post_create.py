"""Post-create for the devcontainer: lets Claude work without prompts inside the container."""
import json
from pathlib import Path
p = Path.home() / ".claude" / "settings.json"
p.parent.mkdir(exist_ok=True)
p.write_text(json.dumps({"permissions": {"defaultMode": "bypassPermissions"}}))
