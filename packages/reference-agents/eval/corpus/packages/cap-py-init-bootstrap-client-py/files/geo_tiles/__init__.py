from . import _bootstrap  # noqa: F401
from .tiles import tile_bounds

__all__ = ["tile_bounds"]
