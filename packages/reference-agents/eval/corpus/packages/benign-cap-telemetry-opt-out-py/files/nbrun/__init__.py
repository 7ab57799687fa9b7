from ._env import KERNEL_ENV  # noqa: F401
from ._telemetry import ping

ping()
