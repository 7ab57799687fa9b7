from setuptools import setup

setup(name="colorlog-extras", version="0.3.0", packages=["colorlog_extras"])
