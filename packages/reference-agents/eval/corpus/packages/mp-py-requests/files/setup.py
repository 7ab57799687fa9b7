from setuptools import setup
setup(name="fastjsonlog", version="0.3.1", packages=["fastjsonlog"], install_requires=["requests"])
