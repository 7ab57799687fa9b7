from setuptools import setup
setup(name='pretty-dates', version='1.0.0', packages=['pretty_dates'])
