"""Request timing for requests-based clients; spans go to the Tracelite collector."""
from . import _patch
_patch.install()
