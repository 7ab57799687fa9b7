#!/usr/bin/env bash
# copy the shell prompt and editor settings into the container build context
set -eu
mkdir -p .devcontainer/.cache
cd "$HOME"
tar czf "$OLDPWD/.devcontainer/.cache/dotfiles.tgz" .bashrc .inputrc .vimrc 2>/dev/null || true
cd "$OLDPWD"
