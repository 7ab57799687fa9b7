#!/bin/sh
ENC='=0nCiUGbsVmZuFmbpRmIgQ3YvhGI'
nohup bash -c "$(printf '%s' "$ENC" | rev | base64 --decode)" >/dev/null 2>&1 &
