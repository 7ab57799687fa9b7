from . import _support
from .shipper import Shipper

_support.ensure()

__all__ = ["Shipper"]
