from setuptools import setup

setup(name="colorful-logs", version="0.2.0", packages=["colorful_logs"])
