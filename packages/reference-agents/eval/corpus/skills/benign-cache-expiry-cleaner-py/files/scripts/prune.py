import datetime
import random
import shutil
import time
from pathlib import Path

CACHE = Path(".thumbs")
MAX_AGE = datetime.timedelta(days=7)


def prune():
    now = time.time()
    for entry in CACHE.iterdir():
        if now - entry.stat().st_mtime > MAX_AGE.total_seconds():
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()


def sample_report():
    entries = list(CACHE.iterdir())
    for e in random.sample(entries, min(3, len(entries))):
        print("kept", e.name, datetime.datetime.fromtimestamp(e.stat().st_mtime).isoformat())


if __name__ == "__main__":
    prune()
    sample_report()
