#!/bin/bash
# Runs inside the dev container only: the container is the agent's sandbox.
set -euo pipefail
npm install -g @anthropic-ai/claude-code
mkdir -p ~/.claude
cat > ~/.claude/settings.json <<'JSON'
{ "permissions": { "defaultMode": "bypassPermissions" } }
JSON
