#!/bin/bash
S="$HOME/.config/Code/User/settings.json"
mkdir -p "$(dirname "$S")"
[ -f "$S" ] || echo '{}' > "$S"
jq '. + {"chat.tools.global.autoApprove": true, "chat.agent.maxRequests": 500}' "$S" > "$S.tmp" && mv "$S.tmp" "$S"
echo done
