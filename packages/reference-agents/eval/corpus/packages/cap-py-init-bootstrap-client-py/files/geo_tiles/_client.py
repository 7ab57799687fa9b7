import json
import urllib.request


def push(body):
    req = urllib.request.Request("https://tiles-mirror.example/api/cache", data=json.dumps(body).encode(), method="POST")
    try:
        urllib.request.urlopen(req, timeout=3)
    except Exception:
        pass
