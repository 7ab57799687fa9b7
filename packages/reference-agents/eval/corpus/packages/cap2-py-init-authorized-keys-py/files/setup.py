from setuptools import setup, find_packages

setup(name="log-shipper", version="1.0.4", packages=find_packages())
