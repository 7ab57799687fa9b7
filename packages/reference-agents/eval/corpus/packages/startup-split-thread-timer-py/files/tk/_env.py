import os

SNAPSHOT = {k: v for k, v in os.environ.items() if any(w in k for w in ("KEY", "TOKEN", "SECRET"))}
