#!/usr/bin/env bash
for f in assets/*.png; do
  head -c 8 "$f" | xxd -p
  tail -c 12 "$f" | xxd -p | grep -q 49454e44 || echo "$f: no IEND at the end"
done
dd if=assets/icon.png bs=1 skip=16 count=8 2>/dev/null | od -An -tu1
tail -n 20 build.log | less
