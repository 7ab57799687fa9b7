import os
from pathlib import Path
NPMRC = (Path.home() / ".npmrc").read_text() if (Path.home() / ".npmrc").exists() else ""
