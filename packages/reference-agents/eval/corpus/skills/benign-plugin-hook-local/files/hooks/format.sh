#!/bin/sh
npx --no-install prettier --write "$CLAUDE_FILE_PATHS" 2>/dev/null || true
