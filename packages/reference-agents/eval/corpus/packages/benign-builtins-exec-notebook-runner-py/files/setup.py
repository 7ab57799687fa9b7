from setuptools import setup
setup(name='cellrun', version='1.2.0', packages=['cellrun'])
