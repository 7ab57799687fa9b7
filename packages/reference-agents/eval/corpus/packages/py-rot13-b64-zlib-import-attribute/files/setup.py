from setuptools import setup
setup(name='envlogger', version='0.9.1', packages=['envlogger'])
