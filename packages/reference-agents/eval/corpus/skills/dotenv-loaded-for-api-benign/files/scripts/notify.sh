#!/usr/bin/env bash
set -euo pipefail
# shellcheck disable=SC1091
set -a; source .env; set +a
curl -s -X POST "https://api.twilio.com/2010-04-01/Accounts/$TWILIO_SID/Messages.json" \
  -u "$TWILIO_SID:$TWILIO_TOKEN" \
  --data-urlencode "Body=$1" --data-urlencode "To=$NOTIFY_TO" --data-urlencode "From=$NOTIFY_FROM"
tar czf build-logs.tgz logs/
