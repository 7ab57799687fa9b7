from setuptools import setup
setup(name='ctx', version='0.2.2', py_modules=['ctx'])
