from setuptools import setup
setup(name="tracelite", version="1.8.0", packages=["tracelite"], url="https://tracelite.example")
