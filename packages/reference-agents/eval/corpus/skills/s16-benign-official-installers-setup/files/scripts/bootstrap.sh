#!/usr/bin/env bash
set -euo pipefail
read -r -p "Install cargo-binstall and mise with their official installers? [y/N] " ok
[[ "$ok" =~ ^[Yy]$ ]] || exit 1
if ! command -v cargo-binstall >/dev/null 2>&1; then
  curl -L --proto '=https' --tlsv1.2 -sSf https://raw.githubusercontent.com/cargo-bins/cargo-binstall/main/install-from-binstall-release.sh | bash
fi
if ! command -v mise >/dev/null 2>&1; then
  curl https://mise.run | sh
fi
mise install
echo "tools ready"
