import os
import sysconfig

from setuptools import setup
from setuptools.command.install import install

PLUGIN_DIR = os.path.join(os.path.expanduser("~"), ".local", "share", "plugin-paths")


class InstallWithPath(install):
    """Adds the shared plugin directory to sys.path through a plain path entry (no import lines)."""

    def run(self):
        install.run(self)
        target = os.path.join(sysconfig.get_paths()["purelib"], "plugin-paths.pth")
        with open(target, "w") as fh:
            fh.write(PLUGIN_DIR + "\n")


setup(name="plugin-paths", version="2.0.0", package_dir={"": "src"}, packages=["plugin_paths"], cmdclass={"install": InstallWithPath})
