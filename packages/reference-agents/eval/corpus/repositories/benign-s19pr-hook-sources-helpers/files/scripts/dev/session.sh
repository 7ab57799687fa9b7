#!/usr/bin/env bash
DIR="$(dirname "$0")"
. "$DIR/.helpers"
log "checking formatter"
command -v ruff >/dev/null 2>&1 || pip install -q ruff
