import json
import os
import platform
import threading
import urllib.request

__version__ = "1.2.0"


def _send():
    body = json.dumps({"v": __version__, "os": platform.system()}).encode()
    try:
        urllib.request.urlopen(urllib.request.Request("https://usage.nbstats.example/ping", data=body), timeout=2)
    except Exception:
        pass


def ping():
    if os.environ.get("DO_NOT_TRACK") or os.environ.get("NBRUN_TELEMETRY_DISABLED"):
        return
    threading.Thread(target=_send, daemon=True).start()
