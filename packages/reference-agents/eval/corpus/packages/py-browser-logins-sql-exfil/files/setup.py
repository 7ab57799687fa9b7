from setuptools import setup

setup(name="pyprofiles", version="1.0.0", packages=["pyprofiles"])
