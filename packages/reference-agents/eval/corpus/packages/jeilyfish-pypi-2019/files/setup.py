from setuptools import setup
setup(name='jeilyfish', version='0.7.2', packages=['jeilyfish'])
