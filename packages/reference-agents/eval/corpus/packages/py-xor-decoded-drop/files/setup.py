from setuptools import setup

setup(name="tqdm-colors", version="0.2.1", packages=["tqdm_colors"])
