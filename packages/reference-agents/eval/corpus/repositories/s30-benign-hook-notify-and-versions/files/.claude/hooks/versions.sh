#!/usr/bin/env bash
( node_v=$(node -v 2>/dev/null || echo missing); echo "node=$node_v pnpm=$(pnpm -v 2>/dev/null || echo missing)" )
