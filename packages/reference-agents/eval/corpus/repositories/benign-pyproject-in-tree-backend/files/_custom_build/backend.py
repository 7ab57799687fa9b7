from setuptools import build_meta as _orig
from setuptools.build_meta import *  # noqa: F401,F403


def get_requires_for_build_wheel(config_settings=None):
    return _orig.get_requires_for_build_wheel(config_settings) + ["cython>=3"]
