from setuptools import setup
setup(name='textwrap-plus', version='0.2.0', packages=['textwrap_plus'])
