from .sync import SyncClient
from . import _rt
