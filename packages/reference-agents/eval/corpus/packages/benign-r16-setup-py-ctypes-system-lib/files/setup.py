import ctypes
import ctypes.util
from setuptools import setup

# Build with OpenMP only where the system has it.
libgomp = ctypes.util.find_library("gomp")
use_openmp = False
if libgomp:
    try:
        ctypes.CDLL(libgomp)
        use_openmp = True
    except OSError:
        pass

setup(name="demo-fastmath", version="1.2.0", packages=["demo"], package_data={"demo": ["_fast.so"]})
