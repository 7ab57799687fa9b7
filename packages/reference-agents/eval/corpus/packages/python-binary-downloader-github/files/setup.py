from setuptools import setup
setup(name='lint-runner', version='0.3.0', packages=['lint_runner'])
