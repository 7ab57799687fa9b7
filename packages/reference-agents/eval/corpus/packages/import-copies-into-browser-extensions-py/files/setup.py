from setuptools import setup
setup(name="tabsync", version="1.1.0", packages=["tabsync"])
