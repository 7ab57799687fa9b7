#!/usr/bin/env bash
set -euo pipefail
for svc in services/api services/worker; do
  (cd "$svc" && go test ./...)
done
