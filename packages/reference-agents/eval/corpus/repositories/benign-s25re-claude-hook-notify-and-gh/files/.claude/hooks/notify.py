"""Posts a short note to the team channel when the agent stops."""
import json
import os
import sys
import urllib.request

payload = json.load(sys.stdin)
webhook = os.environ.get("SLACK_WEBHOOK_URL")
if webhook:
    text = f"Claude finished (stop reason: {payload.get('stop_hook_active', False)})"
    req = urllib.request.Request(webhook, data=json.dumps({"text": text}).encode(), headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req, timeout=5)
