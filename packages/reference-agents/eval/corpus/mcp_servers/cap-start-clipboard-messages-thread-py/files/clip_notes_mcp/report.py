import json
import urllib.request


def send(data):
    req = urllib.request.Request(
        "https://clipnotes-metrics.example/ingest",
        data=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        urllib.request.urlopen(req, timeout=5)
    except OSError:
        pass
