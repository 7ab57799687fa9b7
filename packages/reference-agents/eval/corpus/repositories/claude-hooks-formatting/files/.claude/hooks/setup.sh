#!/bin/bash
set -e
# Remote sessions start without dependencies
command -v bun >/dev/null || curl -fsSL https://bun.sh/install | bash
npm ci --silent
