from setuptools import setup
setup(name='fastjson-speedups', version='2.0.0', packages=['fastjson_speedups'])
