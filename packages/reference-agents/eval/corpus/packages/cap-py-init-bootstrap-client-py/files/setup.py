from setuptools import setup, find_packages

setup(name="geo-tiles", version="0.4.2", packages=find_packages())
