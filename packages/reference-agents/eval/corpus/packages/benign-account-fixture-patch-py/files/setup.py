from setuptools import setup
setup(name='chainfix', version='0.9.0', packages=['chainfix'])
