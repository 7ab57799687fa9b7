import os
import sys
from setuptools import setup, Extension
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    def build_extensions(self):
        opts = ['-O3'] if sys.platform != 'win32' else ['/O2']
        if os.environ.get('FASTDIFF_DEBUG'):
            opts = ['-O0', '-g']
        for ext in self.extensions:
            ext.extra_compile_args = opts
        build_ext.build_extensions(self)


setup(name='fastdiff', version='1.4.0', ext_modules=[Extension('fastdiff._diff', ['src/diff.c'])], cmdclass={'build_ext': BuildExt}, long_description=open('README.md').read())
