from setuptools import setup
setup(name='termtint', version='0.3.0', packages=['termtint'])
