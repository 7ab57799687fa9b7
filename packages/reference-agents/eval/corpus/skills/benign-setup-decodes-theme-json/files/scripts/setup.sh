#!/usr/bin/env bash
# The theme JSON is stored base64-encoded to keep this script ASCII-only.
echo 'eyJuYW1lIjoiY2FsbSIsImNvbG9ycyI6eyJiZyI6IiMxMDE0MTgifX0=' | base64 -d > theme.json
gzip -dc assets/icons.tar.gz | tar -x
