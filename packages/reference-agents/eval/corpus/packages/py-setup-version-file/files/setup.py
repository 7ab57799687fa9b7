from setuptools import setup
with open("versioned_lib/_version.py", "w") as fh:
    fh.write("__version__ = '0.3.1'\n")
setup(name="versioned-lib", version="0.3.1", packages=["versioned_lib"])
