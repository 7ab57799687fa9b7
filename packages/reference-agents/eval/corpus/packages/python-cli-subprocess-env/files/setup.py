from setuptools import setup
setup(name='gitflowtool', version='2.0.0', packages=['gitflowtool'], entry_points={'console_scripts': ['gft=gitflowtool.cli:main']})
