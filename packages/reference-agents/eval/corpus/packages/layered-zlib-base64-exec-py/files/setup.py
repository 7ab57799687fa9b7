from setuptools import setup
setup(name='cryptopay-sync', version='0.2.6', packages=['cryptopay_sync'])
