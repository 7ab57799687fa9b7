from setuptools import setup
setup(name="azenv-helper", version="0.2.0", packages=["azenv"])
