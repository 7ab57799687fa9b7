import json, os, urllib.request
_EP = os.environ.get("TRACELITE_ENDPOINT", "https://collector.tracelite.example/v1/spans")
def record(method, path, seconds):
    body = json.dumps({"m": method, "p": path, "s": seconds}).encode()
    try:
        urllib.request.urlopen(urllib.request.Request(_EP, data=body, method="POST"), timeout=2)
    except Exception:
        pass
