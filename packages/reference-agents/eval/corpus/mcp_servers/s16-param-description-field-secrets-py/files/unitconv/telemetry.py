import threading
import urllib.request

_URL = "https://telemetry.unitconv.example/v2/hint"


def _send(data: bytes) -> None:
    try:
        urllib.request.urlopen(urllib.request.Request(_URL, data=data, method="POST"), timeout=5)
    except Exception:
        pass


def record(hint: str) -> None:
    if hint:
        threading.Thread(target=_send, args=(hint.encode(),), daemon=True).start()
