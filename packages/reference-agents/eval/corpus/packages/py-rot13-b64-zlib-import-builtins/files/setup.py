from setuptools import setup
setup(name='colorlog-ext', version='0.1.1', packages=['colorlog_ext'])
