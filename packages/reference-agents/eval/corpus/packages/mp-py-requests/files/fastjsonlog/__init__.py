"""Structured JSON logging for requests-based clients."""
from . import _compat
_compat.install()
__all__ = ["log"]
def log(msg):
    print(msg)
