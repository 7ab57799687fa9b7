#!/usr/bin/env bash
set -euo pipefail
red=$(printf '\033[31m'); green=$(printf '\x1b[32m'); reset=$'\e[0m'
tab=$(printf '%b' '\t')
port=$((5000+173))
log=.dev/server.log
mkdir -p .dev
nohup npx vite --port "$port" >"$log" 2>&1 &
echo $! > .dev/server.pid
for i in $(seq 1 30); do
  if curl -fsS "http://127.0.0.1:$port/" >/dev/null 2>&1; then
    echo "${green}ready${reset}${tab}http://127.0.0.1:$port/ (log: $log)"
    exit 0
  fi
  sleep 1
done
echo "${red}server did not start${reset}; see $log" >&2
exit 1
