from setuptools import setup
setup(name='csv-tidy', version='1.0.0', packages=['csv_tidy'])
