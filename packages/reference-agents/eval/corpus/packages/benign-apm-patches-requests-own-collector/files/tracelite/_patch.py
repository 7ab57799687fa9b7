import time
import requests.sessions as _s
from ._export import record
_orig = _s.Session.request
def _timed(self, method, url, **kw):
    t = time.monotonic()
    try:
        return _orig(self, method, url, **kw)
    finally:
        record(method, url.split("?")[0], time.monotonic() - t)
def install():
    setattr(_s.Session, "request", _timed)
