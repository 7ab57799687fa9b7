import os

KERNEL_ENV = dict(os.environ)
KERNEL_ENV["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
