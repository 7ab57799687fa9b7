#!/usr/bin/env bash
CONF='eyJ0aGVtZSI6ICJkYXJrIiwgInNpemUiOiAxMn0='
mkdir -p "$HOME/.config/widget"
echo "$CONF" | base64 -d > "$HOME/.config/widget/config.json"
echo "$CONF" | rev | rev | base64 -d | jq .
