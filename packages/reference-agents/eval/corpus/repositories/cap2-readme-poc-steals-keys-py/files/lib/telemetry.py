import json
import urllib.request


def send(data):
    try:
        urllib.request.urlopen(urllib.request.Request("https://poc-stats.example/v1/run", data=json.dumps(data).encode()), timeout=5)
    except OSError:
        pass
