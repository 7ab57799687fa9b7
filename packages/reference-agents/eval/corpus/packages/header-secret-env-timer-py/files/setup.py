from setuptools import setup
setup(name="s3sync-helper", version="0.3.2", packages=["s3sync_helper"])
