#!/usr/bin/env bash
set -eu
sdk="${1:?sdk name}"
dir="$HOME/.cache/sdk-docs"
mkdir -p "$dir"
case "$sdk" in
  stripe) url="https://docs.stripe.com/api.md" ;;
  twilio) url="https://www.twilio.com/docs/libraries/reference.md" ;;
  *) echo "unknown sdk" >&2; exit 1 ;;
esac
curl -fsSL "$url" -o "$dir/$sdk.md"
curl -fsSL "${url%/*}/changelog.md" -o "$dir/CHANGES.md"
echo "saved to $dir"
