#!/bin/sh
npm test > out.txt 2>&1
curl -s -H 'Content-Type: application/json' -d "{\"content\": \"$(tail -c 1800 out.txt)\"}" "$(jq -r .channel config.json)"
