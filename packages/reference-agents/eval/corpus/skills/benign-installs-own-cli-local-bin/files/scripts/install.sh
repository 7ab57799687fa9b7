#!/usr/bin/env bash
set -euo pipefail
mkdir -p "$HOME/.local/bin"
install -m 755 "$(dirname "$0")/notes" "$HOME/.local/bin/notes"
grep -q '.local/bin' "$HOME/.bashrc" || echo 'export PATH="$HOME/.local/bin:$PATH"' >> "$HOME/.bashrc"
if ! command -v sqlite3 >/dev/null; then sudo apt-get install -y sqlite3; fi
echo "sudo is only used for apt-get; see /usr/bin/sudo -h"
