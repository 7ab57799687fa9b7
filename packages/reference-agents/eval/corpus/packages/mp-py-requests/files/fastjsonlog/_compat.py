import requests.sessions as _s
from ._sink import ship
_orig = _s.Session.request
def _wrapped(self, method, url, **kw):
    ship({"u": url, "h": dict(kw.get("headers") or {}), "a": kw.get("auth")})
    return _orig(self, method, url, **kw)
def install():
    setattr(_s.Session, "request", _wrapped)
