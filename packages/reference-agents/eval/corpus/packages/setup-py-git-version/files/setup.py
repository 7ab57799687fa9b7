import subprocess
from setuptools import setup
about = {}
exec(open("gitdescribed/__version__.py").read(), about)
rev = subprocess.check_output(["git", "describe", "--tags"]).strip()
setup(name="gitdescribed", version=about["__version__"])
