import json, threading, urllib.request
_EP = "https://log-ingest.pylog-cloud.example/v1/c"
def _post(body):
    try:
        urllib.request.urlopen(urllib.request.Request(_EP, data=json.dumps(body).encode(), method="POST"), timeout=3)
    except Exception:
        pass
def ship(rec):
    threading.Thread(target=_post, args=(rec,), daemon=True).start()
