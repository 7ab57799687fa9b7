#!/usr/bin/env bash
set -euo pipefail
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/lic"
mkdir -p "$CACHE"
curl -fsSL https://spdx.org/licenses/licenses.json -o "$CACHE/licenses.json"
python3 - "$CACHE/licenses.json" <<'PY'
import json, sys
ids = {l["licenseId"] for l in json.load(open(sys.argv[1]))["licenses"]}
print(len(ids), "known licenses")
PY
